// Idempotency as the Flask app's `@idempotent(operation)` decorator does it: the key is scoped to the
// client and tenant, the fingerprint is the SHA-256 of method, path and the body re-serialised with
// sorted keys (json.dumps(sort_keys=True)), and only successful answers are kept, for 24 hours.
import { createHash, randomUUID } from 'node:crypto';
import { ApiError, type Ctx, send, success } from './http.ts';
import { isoformat, type Json, type Store } from './state.ts';

export const KEY_PATTERN = /^[A-Za-z0-9._:-]{8,128}$/;
export const KEY_TTL_MS = 24 * 3600 * 1000;

export function sortedJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(sortedJson).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    const entries = Object.entries(value as Json).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${sortedJson(v)}`).join(',')}}`;
  }
  return JSON.stringify(value);
}

/** Reads and checks the Idempotency-Key header of a modifying call (428 missing, 400 malformed). */
export function requireKey(ctx: Ctx): string {
  const raw = ctx.req.headers['idempotency-key'];
  const key = Array.isArray(raw) ? raw[0] : raw;
  if (key === undefined || key === '') {
    throw new ApiError(
      'idempotency_required',
      'Idempotency-Key header is required',
      'This operation modifies state.',
      'Send an Idempotency-Key header.',
    );
  }
  if (!KEY_PATTERN.test(key)) {
    throw new ApiError('invalid_request', 'Malformed Idempotency-Key', `'${key.slice(0, 20)}' does not match pattern`);
  }
  ctx.idempotencyKey = key;
  return key;
}

/**
 * Runs `handler` once per key: a repeat with the same fingerprint replays the kept answer (meta.replayed
 * true), a different fingerprint is a conflict. Runs synchronously after the body was read, so concurrent
 * repeats of one key see the first one's record.
 */
export function idempotent(store: Store, ctx: Ctx, operation: string, body: Json, handler: () => Json): void {
  const key = requireKey(ctx);
  const slot = `${ctx.clientId}|${ctx.tenant}|${key}`;
  const fingerprint = createHash('sha256')
    .update(`${ctx.req.method} ${ctx.url.pathname}\n${sortedJson(body)}`)
    .digest('hex');
  const now = Date.now();
  const kept = store.idempotency.get(slot);
  if (kept && kept.expires_at > now) {
    if (kept.fingerprint !== fingerprint) {
      throw new ApiError(
        'idempotency_conflict',
        'Idempotency-Key reused with different content',
        `The key was first used for ${kept.operation}.`,
        'Use a new key for each new operation.',
      );
    }
    ctx.replayed = true;
    send(ctx, kept.status, success(ctx, kept.body));
    return;
  }
  const data = handler();
  store.idempotency.set(slot, { fingerprint, status: 200, body: data, operation, expires_at: now + KEY_TTL_MS });
  ctx.replayed = false;
  send(ctx, 200, success(ctx, data));
}

/** POST /idempotency-keys: a fresh uuid4 key for the named operation, valid for the record lifetime. */
export function generateKey(body: Json): Json {
  const op = body.operation;
  if (typeof op !== 'string' || op.length < 2 || op.length > 80) {
    throw new ApiError('invalid_request', 'Invalid operation', "'operation' must be a string of length 2 to 80");
  }
  return {
    idempotencyKey: randomUUID(),
    operation: op,
    expiresAt: isoformat(Date.now() + KEY_TTL_MS),
    ttl_seconds: KEY_TTL_MS / 1000,
  };
}
