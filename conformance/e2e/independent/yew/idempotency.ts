// Idempotency as the contract states it: a key (pattern below) per client and tenant; the same key with the
// same content answers the stored response again (meta.replayed), other content is a conflict. The
// fingerprint is method, route and the canonical (sorted-key) body, so key order and whitespace do not count.
import { createHash } from 'node:crypto';
import { canonical } from './http-util.ts';

export const KEY_PATTERN = /^[A-Za-z0-9._:-]{8,128}$/;
export const KEY_TTL_MS = 24 * 60 * 60 * 1000;

export interface StoredResponse {
  fingerprint: string;
  status: number;
  data: unknown;
  storedAt: number;
}

export function fingerprint(method: string, route: string, body: unknown): string {
  return createHash('sha256')
    .update(`${method} ${route}\n${canonical(body)}`)
    .digest('hex');
}

export function createIdempotencyStore() {
  const entries = new Map<string, StoredResponse>();
  const issued = new Map<string, { operation: string; expiresAt: number }>();

  function scope(clientId: string, tenant: string, key: string): string {
    return `${clientId}\u0000${tenant}\u0000${key}`;
  }

  function lookup(clientId: string, tenant: string, key: string): StoredResponse | undefined {
    const e = entries.get(scope(clientId, tenant, key));
    if (e && Date.now() - e.storedAt > KEY_TTL_MS) {
      entries.delete(scope(clientId, tenant, key));
      return undefined;
    }
    return e;
  }

  function save(clientId: string, tenant: string, key: string, value: Omit<StoredResponse, 'storedAt'>): void {
    entries.set(scope(clientId, tenant, key), { ...value, storedAt: Date.now() });
  }

  function issue(key: string, operation: string): number {
    const expiresAt = Date.now() + KEY_TTL_MS;
    issued.set(key, { operation, expiresAt });
    return expiresAt;
  }

  return { lookup, save, issue };
}

export type IdempotencyStore = ReturnType<typeof createIdempotencyStore>;
