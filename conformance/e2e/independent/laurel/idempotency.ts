// Idempotency keys: per client + tenant + key (the key is the exact string: letter case counts).
// Fingerprint = method, path and canonical JSON of the body (member order and spacing do not count).
// Only successful answers are stored: a refused call leaves its key unused. A key lives until its first
// use + 24 h; a key this service issued but nobody used expires 24 h after issue (its expiresAt), and
// its first use moves the expiry on (shown in the X-Idempotency-Expires-At header of every keyed answer).
import type { Ctx } from './http-util.ts';
import { ApiError } from './http-util.ts';
import { canonical, DAY_MS, isoTime, KEY_PATTERN, sha256Hex } from './util.ts';

interface StoredAnswer {
  fingerprint: string;
  data: unknown;
  expiresAt: number;
}

export interface IssuedKey {
  clientId: string;
  tenant: string;
  operation: string;
  expiresAt: number;
}

export class IdempotencyStore {
  answers = new Map<string, StoredAnswer>();
  storeRefusals = false;
  issued = new Map<string, IssuedKey>();

  private scope(ctx: Ctx, key: string): string {
    return `${ctx.clientId ?? ''}|${ctx.tenant ?? ''}|${key}`;
  }

  /** Reads and checks the Idempotency-Key header; required ones answer 428 when missing. */
  header(ctx: Ctx, required: boolean): string | undefined {
    const raw = ctx.req.headers['idempotency-key'];
    const key = Array.isArray(raw) ? raw[0] : raw;
    if (key === undefined) {
      if (required)
        throw new ApiError('idempotency_required', 'header.Idempotency-Key: field required', 'send the key');
      return undefined;
    }
    if (!KEY_PATTERN.test(key)) {
      throw new ApiError('invalid_request', 'header.Idempotency-Key: must match ^[A-Za-z0-9._:-]{8,128}$');
    }
    ctx.idempotencyKey = key;
    return key;
  }

  fingerprint(ctx: Ctx, body: unknown): string {
    return sha256Hex(`${ctx.method} ${ctx.path}\n${canonical(body)}`);
  }

  /** The stored data of an earlier identical call, or undefined; 409 for the same key with other content. */
  replay(ctx: Ctx, key: string, fingerprint: string): unknown {
    const stored = this.answers.get(this.scope(ctx, key));
    if (!stored) return undefined;
    if (stored.expiresAt <= Date.now()) {
      this.answers.delete(this.scope(ctx, key));
      return undefined;
    }
    if (stored.fingerprint !== fingerprint) {
      throw new ApiError(
        'idempotency_conflict',
        'header.Idempotency-Key: already used with different content',
        'use a new key for each new operation',
      );
    }
    ctx.extraHeaders['x-idempotency-expires-at'] = isoTime(stored.expiresAt);
    ctx.extraHeaders['idempotency-replayed'] = 'true';
    return stored.data;
  }

  /** Stores a successful answer; synchronous, so concurrent same-key calls cannot both write. */
  store(ctx: Ctx, key: string, fingerprint: string, data: unknown): void {
    const expiresAt = Date.now() + DAY_MS;
    this.answers.set(this.scope(ctx, key), { fingerprint, data, expiresAt });
    const issued = this.issued.get(key);
    if (issued && issued.clientId === ctx.clientId && issued.tenant === ctx.tenant) issued.expiresAt = expiresAt;
    ctx.extraHeaders['x-idempotency-expires-at'] = isoTime(expiresAt);
  }

  issue(ctx: Ctx, key: string, operation: string): IssuedKey {
    const entry = { clientId: ctx.clientId ?? '', tenant: ctx.tenant ?? '', operation, expiresAt: Date.now() + DAY_MS };
    this.issued.set(key, entry);
    return entry;
  }
}

/**
 * Runs a keyed write: a replay answers the stored data with meta.replayed; a fresh call runs `make`
 * (synchronous after the body was read) and stores its data.
 */
export function keyed(
  ctx: Ctx,
  store: IdempotencyStore,
  key: string | undefined,
  body: unknown,
  make: () => unknown,
): { data: unknown; meta: Record<string, unknown> } {
  if (key === undefined) return { data: make(), meta: {} };
  const fp = store.fingerprint(ctx, body);
  const earlier = store.replay(ctx, key, fp);
  if (earlier instanceof ApiError) {
    const again = new ApiError(earlier.code, earlier.detail, earlier.hint);
    again.meta = { idempotencyKey: key, replayed: true };
    throw again;
  }
  if (earlier !== undefined) return { data: earlier, meta: { idempotencyKey: key, replayed: true } };
  let data: unknown;
  try {
    data = make();
  } catch (err) {
    // Stripe-style (LAUREL_STORE_REFUSALS=1): a call that passed validation and was refused by a business
    // rule (404, 409) is the key's result too, and replays as that refusal.
    if (store.storeRefusals && err instanceof ApiError && err.status < 429) {
      store.store(ctx, key, fp, err);
      err.meta = { idempotencyKey: key };
    }
    throw err;
  }
  store.store(ctx, key, fp, structuredClone(data));
  return { data, meta: { idempotencyKey: key, replayed: false } };
}
