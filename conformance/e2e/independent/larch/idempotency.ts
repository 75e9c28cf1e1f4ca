// Idempotency as an aspect around modifying operations: scoped per client and tenant, fingerprint =
// method + path + canonical body, 24 h retention, only successful (200) outcomes are stored.

import type { Principal } from './auth.ts';
import { ApiError, type Ctx, canonical, invalid } from './http-kit.ts';
import { KEY_PATTERN } from './options.ts';
import type { State } from './store.ts';

export const KEY_TTL_MS = 24 * 3600 * 1000;

/** Reads and checks the Idempotency-Key header; `required` endpoints answer 428 without it. */
export function readKey(ctx: Ctx, required: boolean): string | undefined {
  const raw = ctx.req.headers['idempotency-key'];
  if (raw === undefined) {
    if (!required) return undefined;
    throw new ApiError(
      'idempotency_required',
      'Idempotency key required',
      "Required request header 'Idempotency-Key' is not present.",
      'Send an Idempotency-Key (8-128 of A-Z a-z 0-9 . _ : -), e.g. from POST /idempotency-keys.',
    );
  }
  const key = Array.isArray(raw) ? raw.join(',') : raw;
  if (!KEY_PATTERN.test(key)) {
    throw invalid(
      'Invalid idempotency key',
      'Idempotency-Key must match ^[A-Za-z0-9._:-]{8,128}$.',
      'Use 8 to 128 letters, digits, dots, underscores, colons or hyphens.',
    );
  }
  ctx.idempotencyKey = key;
  return key;
}

export type Outcome = { status: number; data: unknown };

/**
 * Runs `operation` once per key: a stored outcome with the same fingerprint is replayed (meta.replayed),
 * another fingerprint is a 409. Everything here is synchronous after the body was read, so concurrent
 * calls with one key cannot both create.
 */
export function once(
  state: State,
  ctx: Ctx,
  who: Principal,
  key: string | undefined,
  body: unknown,
  operation: () => unknown,
): { data: unknown; replayed: boolean } {
  if (key === undefined) return { data: operation(), replayed: false };
  const scope = `${who.clientId}|${who.tenant}|${key}`;
  const fingerprint = canonical({ m: ctx.req.method, p: ctx.path, b: body });
  const now = Date.now();
  const stored = state.idempotency.get(scope);
  if (stored && stored.expiresAt > now) {
    if (stored.fingerprint !== fingerprint) {
      throw new ApiError(
        'idempotency_conflict',
        'Idempotency key reused with different content',
        'The Idempotency-Key was already used for a request with another method, path or body.',
        'Use a new key for each new operation.',
      );
    }
    if (stored.status !== 200) {
      const e = stored.data as ApiError;
      const again = new ApiError(e.code, e.message, e.detail, e.hint, e.headers);
      again.replayed = true;
      throw again;
    }
    return { data: stored.data, replayed: true };
  }
  let data: unknown;
  try {
    data = operation();
  } catch (e) {
    // Optional (storeRefusals): a business refusal is an outcome of the key too, answered again unchanged.
    if (
      state.config.storeRefusals &&
      e instanceof ApiError &&
      (e.code === 'capability_denied' || e.code === 'not_found')
    ) {
      state.idempotency.set(scope, {
        fingerprint,
        status: e.code === 'not_found' ? 404 : 409,
        data: e,
        expiresAt: now + KEY_TTL_MS,
      });
    }
    throw e;
  }
  state.idempotency.set(scope, { fingerprint, status: 200, data, expiresAt: now + KEY_TTL_MS });
  return { data, replayed: false };
}
