// Idempotency keys: scoped per client and tenant, fingerprinted by method, route and canonical body,
// kept 6 h. Only successful answers are stored, so a refused call leaves nothing behind.
import { ApiError, type Ctx, canonical } from './http.ts';

export const KEY_PATTERN = /^[A-Za-z0-9._:-]{8,128}$/;
export const KEY_TTL_MS = 6 * 3600 * 1000;

interface Stored {
  fingerprint: string;
  data: unknown;
  /** A stored refusal (only with the replayRefusals choice). */
  error?: ApiError;
  expiresAt: number;
}

export interface KeyStore {
  entries: Map<string, Stored>;
}

export function newKeyStore(): KeyStore {
  return { entries: new Map() };
}

/** Reads and validates the Idempotency-Key header; `required` marks the "yes + key" endpoints. */
export function readKey(ctx: Ctx, required: boolean): string | undefined {
  const raw = ctx.req.headers['idempotency-key'];
  if (raw === undefined) {
    if (required) {
      throw new ApiError('idempotency_required', 'header Idempotency-Key is required for this call', {
        hint: 'generate one with POST /api/public/v1/idempotency-keys',
      });
    }
    return undefined;
  }
  const key = String(raw);
  if (!KEY_PATTERN.test(key)) {
    throw new ApiError('invalid_request', 'header Idempotency-Key is malformed', {
      detail: 'pattern ^[A-Za-z0-9._:-]{8,128}$',
    });
  }
  ctx.idempotencyKey = key;
  return key;
}

function scope(ctx: Ctx, key: string): string {
  return `${ctx.clientId}|${ctx.tenant}|${key}`;
}

function fingerprint(ctx: Ctx, body: unknown): string {
  return `${ctx.req.method} ${ctx.path} ${canonical(body)}`;
}

/** A stored answer for this key, or undefined; a different fingerprint is idempotency_conflict. */
export function lookup(
  store: KeyStore,
  ctx: Ctx,
  key: string,
  body: unknown,
): { data: unknown; error?: ApiError } | undefined {
  const s = store.entries.get(scope(ctx, key));
  if (!s) return undefined;
  if (s.expiresAt <= Date.now()) {
    store.entries.delete(scope(ctx, key));
    return undefined;
  }
  if (s.fingerprint !== fingerprint(ctx, body)) {
    throw new ApiError('idempotency_conflict', 'this Idempotency-Key was used with different content', {
      hint: 'use a new key for each new operation',
    });
  }
  return s.error ? { data: undefined, error: s.error } : { data: s.data };
}

export function remember(store: KeyStore, ctx: Ctx, key: string, body: unknown, data: unknown, error?: ApiError): void {
  const s: Stored = { fingerprint: fingerprint(ctx, body), data, expiresAt: Date.now() + KEY_TTL_MS };
  if (error) s.error = error;
  store.entries.set(scope(ctx, key), s);
}
