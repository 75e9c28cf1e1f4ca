// Idempotency of ironwood's modifying calls. A key is scoped to the tenant (not the address: both base URLs
// are the same interface) and compared exactly (case-sensitive). The fingerprint is method, path and the
// canonical JSON of the body. Only successes are stored: a refusal changes nothing, so the same key may be
// sent again with a corrected body. A key lives 24 h from its issue (POST /idempotency-keys) or first use.
import { type Answer, ApiError, type Call, canonical, ok } from './http-util.ts';
import type { State } from './state.ts';

export const KEY_TTL_MS = 24 * 60 * 60 * 1000;

export function fingerprint(call: Call, body: unknown): string {
  return `${call.method} ${call.path} ${canonical(body)}`;
}

/**
 * Answers a keyed modifying call: a replay of the stored success, a conflict, or the handler's fresh answer
 * (run synchronously after the body was read, so concurrent copies of one key cannot both create).
 */
export function keyed(
  state: State,
  call: Call,
  tenant: string,
  key: string,
  body: unknown,
  handle: () => Record<string, unknown>,
): Answer {
  const slot = `${tenant}\u0000${key}`;
  const fp = fingerprint(call, body);
  const now = Date.now();
  const stored = state.idempotency.get(slot);
  if (stored && stored.expiresAt > now) {
    if (stored.fingerprint !== fp) {
      throw new ApiError(
        'idempotency_conflict',
        'This Idempotency-Key was already used with different content.',
        undefined,
        'Use a new key for each new operation.',
      );
    }
    return ok(call, stored.data, { idempotencyKey: key, replayed: true });
  }
  const data = handle();
  const issued = state.issuedKeys.get(key);
  const expiresAt = issued && issued.expiresAt > now ? issued.expiresAt : now + KEY_TTL_MS;
  state.idempotency.set(slot, { fingerprint: fp, status: 200, data, expiresAt });
  return ok(call, data, { idempotencyKey: key, replayed: false });
}
