// Stripe/Rails-engine style idempotency: a key is scoped to client and tenant, remembers the fingerprint of the
// request (method, path, canonical body) and the answer; only answered successes are kept, so a refused call
// can be sent again with the same key.
import { createHash } from 'node:crypto';
import { ApiError, type Ctx, canonical } from './http-kit.ts';

export const KEY_TTL_MS = 24 * 3600 * 1000;

interface Stored {
  fingerprint: string;
  status: number;
  data: unknown;
  expiresAt: number;
}

const store = new Map<string, Stored | 'in-flight'>();

function scope(ctx: Ctx, key: string): string {
  return `${ctx.clientId ?? '-'}|${ctx.tenant ?? '-'}|${key}`;
}

export function fingerprint(ctx: Ctx, body: unknown): string {
  return createHash('sha256')
    .update(`${ctx.method} ${ctx.path}\n${canonical(body)}`)
    .digest('hex');
}

/** Looks the key up: a stored answer to replay, a conflict, or nothing (then the key is held in flight). */
export function begin(ctx: Ctx, key: string, fp: string): Stored | undefined {
  const k = scope(ctx, key);
  const hit = store.get(k);
  if (hit === 'in-flight')
    throw new ApiError('idempotency_conflict', 'A request with this Idempotency-Key is in progress');
  if (hit !== undefined && hit.expiresAt > Date.now()) {
    if (hit.fingerprint !== fp) {
      throw new ApiError(
        'idempotency_conflict',
        'Idempotency-Key was used with a different request',
        undefined,
        'use a new key for each new operation',
      );
    }
    return hit;
  }
  store.set(k, 'in-flight');
  return undefined;
}

export function finish(ctx: Ctx, key: string, fp: string, status: number, data: unknown): void {
  store.set(scope(ctx, key), { fingerprint: fp, status, data, expiresAt: Date.now() + KEY_TTL_MS });
}

export function abandon(ctx: Ctx, key: string): void {
  if (store.get(scope(ctx, key)) === 'in-flight') store.delete(scope(ctx, key));
}
