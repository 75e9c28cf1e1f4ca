// Idempotency records: per tenant and key, a fingerprint of the operation and the stored success.
import { ApiError, canonical } from './http-util.ts';

type Entry = { fingerprint: string; data: unknown; storedAt: number };
const RETENTION_MS = 24 * 3600 * 1000;

export type IdempotencyStore = {
  /** Runs `create` once per (tenant, key); a repeat with equal content replays, other content conflicts. */
  run(
    tenant: string,
    key: string,
    operation: string,
    body: unknown,
    create: () => unknown,
  ): { data: unknown; replayed: boolean };
};

export function createIdempotencyStore(): IdempotencyStore {
  const entries = new Map<string, Entry>();
  return {
    run(tenant, key, operation, body, create) {
      const id = `${tenant}\u0000${key}`;
      const fingerprint = `${operation} ${canonical(body)}`;
      const found = entries.get(id);
      if (found !== undefined && Date.now() - found.storedAt < RETENTION_MS) {
        if (found.fingerprint !== fingerprint) {
          throw new ApiError('idempotency_conflict', 'Idempotency-Key was already used with different content', {
            hint: 'use a new key for each new operation',
          });
        }
        return { data: found.data, replayed: true };
      }
      // create() is synchronous and throws on refusal, so a refused call stores nothing.
      const data = create();
      entries.set(id, { fingerprint, data, storedAt: Date.now() });
      return { data, replayed: false };
    },
  };
}
