// Idempotency: per client, tenant and key; fingerprint = method, path and canonical body; 6 h validity.
import type { State } from './state.ts';
import { ApiError, type Ctx, canonical } from './util.ts';

export const KEY_PATTERN = /^[A-Za-z0-9._:-]{8,128}$/;
export const VALIDITY_MS = 6 * 3600 * 1000;

/** The key of the call, checked against the pattern; `required` answers 428 when it is missing. */
export function readKey(ctx: Ctx, required: boolean): string | undefined {
  const raw = ctx.req.headers['idempotency-key'];
  if (raw === undefined) {
    if (required) {
      throw new ApiError(
        'idempotency_required',
        'Header Idempotency-Key is required for this call.',
        'IDEMPOTENCY_KEY_MISSING',
        'Send an Idempotency-Key.',
      );
    }
    return undefined;
  }
  const key = Array.isArray(raw) ? raw.join(',') : raw;
  if (!KEY_PATTERN.test(key)) {
    throw new ApiError(
      'invalid_request',
      'Header Idempotency-Key does not match ^[A-Za-z0-9._:-]{8,128}$.',
      'IDEMPOTENCY_KEY_MALFORMED',
    );
  }
  return key;
}

export function fingerprint(ctx: Ctx, body: unknown): string {
  return `${ctx.req.method} ${ctx.url.pathname} ${canonical(body)}`;
}

/** A stored answer for the same content (replay), a conflict for other content, or nothing yet. */
export function lookup(
  state: State,
  scope: string,
  key: string,
  fp: string,
): { status: number; data: unknown } | undefined {
  const id = `${scope}\u0000${key}`;
  const s = state.idem.get(id);
  if (!s || s.expiresAt <= Date.now()) return undefined;
  if (s.fingerprint !== fp) {
    throw new ApiError(
      'idempotency_conflict',
      'This Idempotency-Key was used with different content.',
      'IDEMPOTENCY_KEY_REUSED',
      'Use a new key for each new operation.',
    );
  }
  return { status: s.status, data: s.data };
}

/** Keeps successful answers only: a refused call may be repeated with the same key once corrected. */
export function remember(state: State, scope: string, key: string, fp: string, data: unknown): void {
  const from = state.issued.get(key) ?? Date.now();
  state.idem.set(`${scope}\u0000${key}`, { fingerprint: fp, status: 200, data, expiresAt: from + VALIDITY_MS });
}
