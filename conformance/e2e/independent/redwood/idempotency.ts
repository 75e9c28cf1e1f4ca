// Idempotency as the interface states it: the same key with the same content answers the same data again
// (meta.replayed true), other content is idempotency_conflict, a missing key idempotency_required. A record
// lives 1 h from the key's first use, scoped per client and tenant; only successful answers are recorded,
// so a refused call may be corrected and sent again with its key.
import { createHash } from 'node:crypto';
import type { Access } from './auth.ts';
import { ApiError, type Ctx, canonical, invalid, newId, ok } from './http-util.ts';

export const KEY_PATTERN = /^[A-Za-z0-9._:-]{8,128}$/;
export const KEY_TTL_MS = 60 * 60 * 1000;

interface KeyRecord {
  fingerprint: string;
  firstUse: number;
  data: unknown;
  /** The first answer's meta, replayed verbatim in the exact-replay variant. */
  meta: { requestId: string; at: string };
  /** A refusal the operation itself gave (storeRefusals), replayed like a success. */
  error?: ApiError;
}

/** exactReplay: replays repeat meta too; storeRefusals: a refusal after validation (404, 409) is kept and replayed. */
export function createIdempotency(exactReplay = false, storeRefusals = false) {
  const records = new Map<string, KeyRecord>();

  /** The key header, checked against the pattern; undefined when absent. */
  function keyOf(ctx: Ctx): string | undefined {
    const raw = ctx.req.headers['idempotency-key'];
    if (raw === undefined) return undefined;
    const key = Array.isArray(raw) ? raw.join(',') : raw;
    if (!KEY_PATTERN.test(key)) throw invalid('Idempotency-Key: must match ^[A-Za-z0-9._:-]{8,128}$');
    return key;
  }

  /** Runs a modifying operation at most once per key; answers the replay or the conflict itself. */
  function run(ctx: Ctx, access: Access, required: boolean, body: unknown, op: () => unknown): void {
    const key = keyOf(ctx);
    if (key === undefined) {
      if (required)
        throw new ApiError(
          428,
          'idempotency_required',
          'An idempotency key is mandatory for this call.',
          'Idempotency-Key: header missing',
          'Send an Idempotency-Key (POST /api/public/v1/idempotency-keys issues one).',
        );
      ok(ctx, op());
      return;
    }
    ctx.idempotencyKey = key;
    const now = Date.now();
    const expires = (first: number) => {
      ctx.extraHeaders['idempotency-expires'] = new Date(first + KEY_TTL_MS).toISOString();
    };
    const scope = `${access.clientId}|${access.tenant}|${key}`;
    const fingerprint = createHash('sha256')
      .update(`${ctx.req.method} ${ctx.url.pathname}\n${canonical(body)}`)
      .digest('hex');
    const rec = records.get(scope);
    if (rec && now - rec.firstUse < KEY_TTL_MS) {
      if (rec.fingerprint !== fingerprint)
        throw new ApiError(
          409,
          'idempotency_conflict',
          'The same idempotency key was used with different content.',
          `Idempotency-Key ${key} was first used ${new Date(rec.firstUse).toISOString()}`,
          'Use a new key for each new operation.',
        );
      ctx.replayed = true;
      expires(rec.firstUse);
      if (rec.error) throw rec.error;
      // REDWOOD_EXACT_REPLAY: the body is the first answer's, its meta.requestId and meta.at included (the
      // x-request-id header still names this call).
      if (exactReplay) {
        ctx.metaOverride = rec.meta;
      }
      ok(ctx, rec.data);
      return;
    }
    let data: unknown;
    try {
      data = op();
    } catch (e) {
      // Stripe-like: once the operation started, its refusal is the key's result too.
      if (storeRefusals && e instanceof ApiError && (e.status === 404 || e.status === 409)) {
        records.set(scope, {
          fingerprint,
          firstUse: now,
          data: null,
          meta: { requestId: ctx.requestId, at: new Date(now).toISOString() },
          error: e,
        });
        expires(now);
      }
      throw e;
    }
    records.set(scope, {
      fingerprint,
      firstUse: now,
      data,
      meta: { requestId: ctx.requestId, at: new Date(now).toISOString() },
    });
    expires(now);
    ok(ctx, data);
  }

  /** POST /idempotency-keys: a fresh key; expiresAt is 1 h after issue (a key is also valid 1 h from first use). */
  function issue(operation: string): { idempotencyKey: string; operation: string; expiresAt: string } {
    return { idempotencyKey: newId('idk'), operation, expiresAt: new Date(Date.now() + KEY_TTL_MS).toISOString() };
  }

  return { run, issue, keyOf };
}
