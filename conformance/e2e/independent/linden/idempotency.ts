// Idempotency keys: scoped to access + tenant + key (case-sensitive, as sent), fingerprinted by method,
// path and canonical body. Only successes are stored (a refusal leaves the key free); they live 48 h.
import { ApiError, type Call, ok } from './call.ts';
import { canonicalJson, sha256Hex } from './util.ts';

export const KEY_PATTERN = /^[A-Za-z0-9._:-]{8,128}$/;

/** The call's Idempotency-Key: 428 when missing, 400 when it breaks the pattern. */
export function requireKey(call: Call): string {
  const raw = call.req.headers['idempotency-key'];
  const key = Array.isArray(raw) ? raw[0] : raw;
  if (key === undefined) {
    throw new ApiError(
      'idempotency_required',
      'an Idempotency-Key header is mandatory for this call',
      undefined,
      'send a new key per operation (POST /api/public/v1/idempotency-keys issues one)',
    );
  }
  if (!KEY_PATTERN.test(key)) {
    throw new ApiError(
      'invalid_request',
      'the Idempotency-Key header is malformed',
      'expected ^[A-Za-z0-9._:-]{8,128}$',
    );
  }
  call.idempotencyKey = key;
  return key;
}

/**
 * Answers a keyed modifying call: the stored response again (replayed) for the same key and content, 409 for
 * the same key with other content, else runs `perform` (synchronously, so concurrent same-key calls cannot
 * both perform) and stores its data.
 */
export function once(call: Call, body: unknown, perform: () => unknown): void {
  const key = call.idempotencyKey ?? requireKey(call);
  const store = call.state.idempotency;
  const scope = `${call.clientId}\u0000${call.tenant}\u0000${key}`;
  const fingerprint = sha256Hex(`${call.req.method} ${call.url.pathname}\n${canonicalJson(body)}`);
  const now = Date.now();
  const hit = store.get(scope);
  if (hit && hit.expiresAt > now) {
    if (hit.fingerprint !== fingerprint) {
      throw new ApiError(
        'idempotency_conflict',
        'this Idempotency-Key was used with different content',
        undefined,
        'use a new key for each new operation',
      );
    }
    ok(call, hit.data, { idempotencyKey: key, replayed: true });
    return;
  }
  const data = perform();
  store.set(scope, { fingerprint, status: 200, data, expiresAt: now + call.state.options.keyTtlMs });
  ok(call, data, { idempotencyKey: key, replayed: false });
}
