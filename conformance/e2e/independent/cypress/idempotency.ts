// Idempotency keys, Stripe-gem style: a key belongs to one client and tenant, remembers the fingerprint of
// its first successful call (method, path, sorted-key body) and that call's data for 24 h. Refusals are
// not remembered, so a key refused for a bad body can still be used for a good one.
import { randomUUID } from 'node:crypto';
import type { State } from './state.ts';
import { ApiError, canonical } from './util.ts';

export const KEY_TTL_MS = 24 * 60 * 60 * 1000;

export function fingerprint(method: string, path: string, body: unknown, tenant = ''): string {
  return `${method} ${path} ${tenant} ${canonical(body ?? null)}`;
}

/** The earlier data for this key and content, undefined for a fresh key; a changed content is a conflict. */
export function lookup(state: State, scope: string, key: string, print: string): unknown {
  const found = state.idempotency.get(`${scope}\n${key}`);
  if (!found || found.expiresAt <= Date.now()) return undefined;
  if (found.fingerprint !== print) {
    throw new ApiError(
      'idempotency_conflict',
      'This Idempotency-Key was already used with a different request',
      undefined,
      'use a new key for each new operation',
    );
  }
  return found.data;
}

export function remember(state: State, scope: string, key: string, print: string, data: unknown): void {
  state.idempotency.set(`${scope}\n${key}`, { fingerprint: print, data, expiresAt: Date.now() + KEY_TTL_MS });
}

/** POST /idempotency-keys: a fresh UUID (within the key pattern) and when it lapses. */
export function issueKey(operation: string, iso: (ms: number) => string) {
  return { idempotencyKey: randomUUID(), operation, expiresAt: iso(Date.now() + KEY_TTL_MS) };
}
