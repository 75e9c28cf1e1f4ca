// Repeat-safety of modifying calls. A key belongs to an access and a tenant; its record keeps the first
// successful answer (status and data) for one hour. Refusals are not recorded: the caller may correct
// the request and send it again under the same key.
import type { Ctx } from './http-kit.ts';
import { ApiError, canonicalJson, fail, ok } from './http-kit.ts';
import { instantAt, uuidv7 } from './ids.ts';
import type { State } from './store.ts';
import { idempotencyKeyHeader } from './validate.ts';

export const KEY_VALIDITY_MS = 60 * 60 * 1000;
const DECIDED = ['not_found', 'capability_denied'];

/**
 * Validation of a keyed body: before the key is looked at (default), or, when every refusal is recorded
 * (HAZEL_RECORD_REFUSALS=all, a gateway-level idempotency cache), inside the keyed operation.
 */
export function validated<T>(state: State, parse: () => T): () => T {
  if (state.options.recordRefusals === 'all') return parse;
  const value = parse();
  return () => value;
}

function scope(ctx: Ctx, key: string): string {
  return `${ctx.clientId ?? '-'}|${ctx.tenant ?? '-'}|${key}`;
}

/** The key of a "yes + key" call: missing → 428, malformed → 400. */
export function requireKey(ctx: Ctx): string {
  const key = idempotencyKeyHeader(ctx.req.headers);
  if (key === undefined) {
    throw new ApiError('idempotency_required', 'This call needs an Idempotency-Key header.', {
      hint: 'Generate one with POST /api/public/v1/idempotency-keys or send your own unique key.',
    });
  }
  return key;
}

/**
 * Runs `produce` once per key and content. `produce` is synchronous, so two calls with one key that
 * arrive together cannot both create: the first stores its record before the second is looked at.
 */
export function once(state: State, ctx: Ctx, key: string, body: unknown, produce: () => unknown): void {
  const now = Date.now();
  const id = scope(ctx, key);
  const fingerprint = `${ctx.method} ${ctx.url.pathname} ${canonicalJson(body)}`;
  const existing = state.idempotency.get(id);
  if (existing && existing.expiresAt > now) {
    if (existing.fingerprint !== fingerprint) {
      fail(
        ctx,
        new ApiError('idempotency_conflict', 'This Idempotency-Key was used with different content.', {
          hint: 'Use a new key for each new operation.',
        }),
      );
      return;
    }
    if (existing.error) fail(ctx, existing.error, { idempotencyKey: key, replayed: true });
    else ok(ctx, existing.data, { idempotencyKey: key, replayed: true });
    return;
  }
  const issued = state.issuedKeys.get(id);
  if (issued && issued.expiresAt <= now) {
    fail(ctx, new ApiError('invalid_request', 'This Idempotency-Key has expired.', { hint: 'Generate a new key.' }));
    return;
  }
  const expiresAt = issued ? issued.expiresAt : now + KEY_VALIDITY_MS;
  let data: unknown;
  try {
    data = produce();
  } catch (err) {
    // HAZEL_RECORD_REFUSALS=1: a refusal reached after validation (the operation ran and decided) is the
    // key's answer too, like Stripe's keys; =all: every refusal of the keyed call (a gateway cache)
    const mode = state.options.recordRefusals;
    if (err instanceof ApiError && (mode === 'all' || (mode === 'decided' && DECIDED.includes(err.code)))) {
      state.idempotency.set(id, { fingerprint, status: 0, data: null, error: err, storedAt: now, expiresAt });
      fail(ctx, err, { idempotencyKey: key, replayed: false });
      return;
    }
    throw err;
  }
  state.idempotency.set(id, {
    fingerprint,
    status: 200,
    data,
    storedAt: now,
    expiresAt: issued ? issued.expiresAt : now + KEY_VALIDITY_MS,
  });
  ok(ctx, data, { idempotencyKey: key, replayed: false });
}

/** POST /idempotency-keys: a new key, valid one hour from issue. */
export function issueKey(state: State, ctx: Ctx, operation: string): Record<string, string> {
  const key = uuidv7();
  const expiresAt = Date.now() + KEY_VALIDITY_MS;
  state.issuedKeys.set(scope(ctx, key), { operation, expiresAt });
  return { idempotencyKey: key, operation, expiresAt: instantAt(expiresAt) };
}

/** Drops expired records now and then (the Redis TTL of the real service). */
export function sweepKeys(state: State): void {
  const now = Date.now();
  for (const [k, r] of state.idempotency) if (r.expiresAt <= now) state.idempotency.delete(k);
  for (const [k, r] of state.issuedKeys) if (r.expiresAt <= now) state.issuedKeys.delete(k);
}
