// Idempotency-Key handling: required on modifying calls (428 when missing), pattern from the contract's
// Limits, scoped per client, tenant and exact key (case-sensitive), fingerprint = method, path and canonical
// body; successes are kept 48 h and replayed with meta.replayed true; refusals are not stored.
import { createHash } from 'node:crypto';
import type { Principal } from './auth.ts';
import { ApiError, type Call, canonical, sendOk } from './http-kit.ts';
import type { State } from './state.ts';

export const KEY_PATTERN = /^[A-Za-z0-9._:-]{8,128}$/;
export const KEY_VALIDITY_MS = 48 * 3600 * 1000;

/** Reads and validates the header; undefined when absent and not required. */
export function readKey(call: Call, required: boolean): string | undefined {
  const key = call.headers['idempotency-key'];
  if (key === undefined) {
    if (required) {
      throw new ApiError(
        'idempotency_required',
        'Header Idempotency-Key is required for this call.',
        undefined,
        'Send a new key per operation.',
      );
    }
    return undefined;
  }
  if (!KEY_PATTERN.test(key)) {
    throw new ApiError('invalid_request', 'Header Idempotency-Key is malformed.', 'Pattern: ^[A-Za-z0-9._:-]{8,128}$.');
  }
  return key;
}

function fingerprint(call: Call, body: unknown): string {
  return createHash('sha256')
    .update(`${call.method} ${call.path}\n${canonical(body)}`)
    .digest('hex');
}

/**
 * Runs `operation` once per key: the same key and content replays the stored answer; the same key with other
 * content is 409 idempotency_conflict. Without a key (optional keys only) the operation simply runs.
 */
export function withIdempotency(
  state: State,
  call: Call,
  who: Principal,
  key: string | undefined,
  body: unknown,
  operation: () => unknown,
): void {
  if (key === undefined) {
    sendOk(call, operation());
    return;
  }
  call.idempotencyKey = key;
  const scope = `${who.clientId}\u0000${who.tenant}\u0000${key}`;
  const print = fingerprint(call, body);
  const now = Date.now();
  const stored = state.idempotency.get(scope);
  if (stored !== undefined && stored.expiresAt > now) {
    if (stored.fingerprint !== print) {
      throw new ApiError(
        'idempotency_conflict',
        'This Idempotency-Key was used with different content.',
        undefined,
        'Use a new key for each new operation.',
      );
    }
    call.replayed = true;
    sendOk(call, stored.data);
    return;
  }
  const data = operation();
  state.idempotency.set(scope, { fingerprint: print, status: 200, data, expiresAt: now + KEY_VALIDITY_MS });
  call.replayed = false;
  sendOk(call, data);
}
