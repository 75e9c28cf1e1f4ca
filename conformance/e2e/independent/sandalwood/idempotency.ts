// Idempotency-Key handling: required on creations, replay of the same content, conflict on changed content.
import { createHash } from 'node:crypto';
import { ApiError, type Call, canonical, newId, ok, str } from './http.ts';
import type { State } from './state.ts';

export const KEY_PATTERN = /^[A-Za-z0-9._:-]{8,128}$/;
/** How long a key and its stored response are kept (only expiresAt is published). */
export const KEY_TTL_MS = 24 * 60 * 60 * 1000;

/** Reads and validates the Idempotency-Key header; undefined when absent. */
export function readKey(call: Call, required: boolean): string | undefined {
  const h = call.req.headers['idempotency-key'];
  const key = Array.isArray(h) ? h[0] : h;
  if (key === undefined || key === '') {
    if (required)
      throw new ApiError('idempotency_required', 'This call requires an Idempotency-Key header.', {
        hint: 'Send a new key (8 to 128 of A-Z a-z 0-9 . _ : -) for every new operation.',
      });
    return undefined;
  }
  if (!KEY_PATTERN.test(key))
    throw new ApiError('invalid_request', 'Idempotency-Key must match ^[A-Za-z0-9._:-]{8,128}$.', {
      field: 'Idempotency-Key',
    });
  return key;
}

/**
 * Runs a modifying operation once per key: the same key and content answer the stored response again
 * (meta.replayed true); the same key with other content is idempotency_conflict. Only successes are stored.
 */
export function once(state: State, call: Call, key: string | undefined, body: unknown, operation: () => unknown): void {
  if (key === undefined) {
    ok(call, operation());
    return;
  }
  call.idempotencyKey = key;
  const scope = `${call.tenant}|${call.clientId}|${key}`;
  const fingerprint = createHash('sha256')
    .update(`${call.req.method} ${call.url.pathname}\n${canonical(body)}`)
    .digest('hex');
  const now = Date.now();
  const stored = state.idempotency.get(scope);
  if (stored && stored.expiresAt > now) {
    if (stored.fingerprint !== fingerprint)
      throw new ApiError('idempotency_conflict', 'This Idempotency-Key was used with different content.', {
        hint: 'Use a new key for each new operation.',
      });
    call.replayed = true;
    ok(call, stored.data);
    return;
  }
  const data = operation();
  state.idempotency.set(scope, { fingerprint, status: 200, data, expiresAt: now + KEY_TTL_MS });
  call.replayed = false;
  ok(call, data);
}

/** POST /idempotency-keys: a fresh key for an operation, with its expiry. */
export function createKey(call: Call, body: Record<string, unknown>): unknown {
  const operation = str(body, 'operation', 2, 80);
  const key = `${newId('idk', 26)}`;
  return {
    idempotencyKey: key,
    operation,
    expiresAt: new Date(Date.now() + KEY_TTL_MS).toISOString(),
    name: `tenants/${call.tenant}/idempotencyKeys/${key}`,
  };
}
