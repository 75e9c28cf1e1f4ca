// Idempotency: per client, tenant and key; the fingerprint is method, path and the canonical body. A stored
// response lives 24 h from the key's issue (keys from POST /idempotency-keys) or from its first use.
import { ApiError, type Ctx, canonical, ok } from './http-kit.ts';
import type { Store } from './state.ts';

export const KEY_LIFETIME_MS = 24 * 3600 * 1000;

export function requireKey(ctx: Ctx): string {
  if (ctx.idempotencyKey === undefined) {
    throw new ApiError(
      'idempotency_required',
      'An idempotency key is mandatory for this call.',
      "The header 'Idempotency-Key' is missing.",
      'Send an Idempotency-Key, e.g. one from POST /api/public/v1/idempotency-keys.',
    );
  }
  return ctx.idempotencyKey;
}

/**
 * Runs `exec` once per key and content; the same key and content answers the stored data again (replayed),
 * other content is 409 idempotency_conflict. Only successes are stored: a refusal leaves the key unused.
 * Everything after the body is read runs synchronously, so concurrent same-key calls make one write.
 */
export function once(
  store: Store,
  ctx: Ctx,
  body: unknown,
  exec: () => unknown,
  replayView?: (data: unknown) => unknown,
): void {
  const key = ctx.idempotencyKey;
  if (key === undefined || !ctx.caller) {
    ok(ctx, exec());
    return;
  }
  const slot = `${ctx.caller.clientId}|${ctx.caller.tenant}|${key}`;
  const fingerprint = `${ctx.method} ${ctx.path} ${canonical(body)}`;
  const now = Date.now();
  const stored = store.idempotency.get(slot);
  if (stored && stored.expiresAt > now) {
    if (stored.fingerprint !== fingerprint) {
      throw new ApiError(
        'idempotency_conflict',
        'The idempotency key was used with different content.',
        undefined,
        'Use a new key for each new operation.',
      );
    }
    ok(ctx, replayView ? replayView(stored.data) : stored.data, { replayed: true });
    return;
  }
  const data = exec();
  const issued = store.issuedKeys.get(key);
  const expiresAt = issued !== undefined && issued > now ? issued : now + KEY_LIFETIME_MS;
  store.idempotency.set(slot, { fingerprint, status: 200, data, expiresAt });
  ok(ctx, data);
}
