// The idempotency middleware: keys are scoped to the access and the tenant, fingerprinted by route and
// canonical body, kept 24 h. Only successful answers are stored (a refusal changed nothing to repeat).
import { createHash, randomBytes } from 'node:crypto';
import { ApiError, type Ctx, canonical, invalid, ok, stamp } from './support.ts';

export const KEY_PATTERN = /^[A-Za-z0-9._:-]{8,128}$/;
export const KEY_TTL_MS = 24 * 3600 * 1000;

interface Stored {
  fingerprint: string;
  data: unknown;
  expiresAt: number;
}

export class IdempotencyStore {
  private rows = new Map<string, Stored>();

  /** The key of a "yes + key" call, or the refusal: 428 when missing, 400 when malformed. */
  requireKey(ctx: Ctx): string {
    const raw = ctx.req.headers['idempotency-key'];
    const key = Array.isArray(raw) ? raw[0] : raw;
    if (key === undefined) {
      throw new ApiError('idempotency_required', 'An idempotency key is required for this call.', {
        hint: 'Send an Idempotency-Key header (POST /api/public/v1/idempotency-keys issues one).',
      });
    }
    if (!KEY_PATTERN.test(key)) {
      throw invalid('Idempotency-Key', 'The Idempotency-Key format is invalid (8 to 128 of A-Z a-z 0-9 . _ : -).');
    }
    return key;
  }

  /**
   * Runs `create` once per key: the same key and content answers the stored data with meta.replayed true,
   * the same key with other content (or another route) 409 idempotency_conflict.
   */
  handle(ctx: Ctx, key: string, route: string, body: unknown, create: () => unknown): void {
    const scope = `${ctx.clientId}|${ctx.tenant}|${key}`;
    const fingerprint = createHash('sha256')
      .update(`${route}\n${canonical(body)}`)
      .digest('hex');
    const now = Date.now();
    const found = this.rows.get(scope);
    if (found && found.expiresAt > now) {
      if (found.fingerprint !== fingerprint) {
        throw new ApiError('idempotency_conflict', 'The idempotency key was already used with other content.', {
          hint: 'Use a new key for each new operation.',
        });
      }
      ok(ctx, found.data, { idempotencyKey: key, replayed: true });
      return;
    }
    const data = create();
    this.rows.set(scope, { fingerprint, data, expiresAt: now + KEY_TTL_MS });
    ok(ctx, data, { idempotencyKey: key, replayed: false });
  }

  /** Replaces the stored answer (the registration replay may withhold the secret). */
  patch(ctx: Ctx, key: string, data: unknown): void {
    const found = this.rows.get(`${ctx.clientId}|${ctx.tenant}|${key}`);
    if (found) found.data = data;
  }
}

/** POST /idempotency-keys: a fresh key for an operation (not itself keyed: the route is "yes", not "yes + key"). */
export function issueKey(ctx: Ctx, body: Record<string, unknown>): void {
  const op = body.operation;
  if (op === undefined || op === null) throw invalid('operation', 'The operation field is required.');
  if (typeof op !== 'string') throw invalid('operation', 'The operation field must be a string.');
  const len = [...op].length;
  if (len < 2 || len > 80) throw invalid('operation', 'The operation field must be between 2 and 80 characters.');
  const key = `idk_${randomBytes(16).toString('hex')}`;
  ok(ctx, { idempotencyKey: key, operation: op, expiresAt: stamp(Date.now() + KEY_TTL_MS) });
}
