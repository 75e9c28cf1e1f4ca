// The idempotency_keys table: scoped per tenant (the keys protect the tenant's data, whichever client of the
// tenant sends them), 48 hours from first use. The fingerprint is method, path and the canonical JSON of
// the body, so "the same content" means the same JSON value, whatever the key order or spacing. Only
// successful outcomes are stored: a refused call leaves the key unused.
import { createHash, randomBytes } from 'node:crypto';
import { canonical, instant } from './http-kit.ts';

export const KEY_VALIDITY_MS = 48 * 3600 * 1000;

interface Entry {
  fingerprint: string;
  data: unknown;
  storedAt: number;
}

export type Lookup = { kind: 'fresh' } | { kind: 'replay'; data: unknown } | { kind: 'conflict' };

export interface IdempotencyStore {
  fingerprint(method: string, path: string, body: unknown): string;
  lookup(tenant: string, key: string, fingerprint: string): Lookup;
  save(tenant: string, key: string, fingerprint: string, data: unknown): void;
  issue(tenant: string, operation: string): { idempotencyKey: string; operation: string; expiresAt: string };
}

export function createIdempotencyStore(): IdempotencyStore {
  const rows = new Map<string, Entry>();
  const id = (tenant: string, key: string): string => `${tenant}\u0000${key}`;

  function live(tenant: string, key: string): Entry | undefined {
    const row = rows.get(id(tenant, key));
    if (row && Date.now() - row.storedAt > KEY_VALIDITY_MS) {
      rows.delete(id(tenant, key));
      return undefined;
    }
    return row;
  }

  return {
    fingerprint(method, path, body) {
      return createHash('sha256')
        .update(`${method} ${path}\n${canonical(body)}`)
        .digest('hex');
    },
    lookup(tenant, key, fingerprint) {
      const row = live(tenant, key);
      if (!row) return { kind: 'fresh' };
      return row.fingerprint === fingerprint
        ? { kind: 'replay', data: structuredClone(row.data) }
        : { kind: 'conflict' };
    },
    save(tenant, key, fingerprint, data) {
      rows.set(id(tenant, key), { fingerprint, data: structuredClone(data), storedAt: Date.now() });
    },
    issue(_tenant, operation) {
      // A key names its purpose loosely (letters of the operation that fit the pattern) for log readers.
      const hint = operation.replace(/[^A-Za-z0-9.]/g, '').slice(0, 40) || 'op';
      const key = `tmk:${hint}:${randomBytes(16)
        .toString('base64url')
        .replace(/[^A-Za-z0-9]/g, 'x')}`;
      return { idempotencyKey: key, operation, expiresAt: instant(Date.now() + KEY_VALIDITY_MS) };
    },
  };
}
