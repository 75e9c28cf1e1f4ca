import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import type { FixtureClient } from '../contract/fixtures.ts';

/** A declared OAuth client or service account; the secret is kept only as a keyed hash. */
export type ClientRecord = Omit<FixtureClient, 'secret'> & { secretHash?: Buffer };

/**
 * The registry of clients declared in fixtures.
 * @example const clients = createClientRegistry(fixtures.clients); clients.verifySecret('harbour-backend', secret);
 */
export interface ClientRegistry {
  get(id: string): ClientRecord | undefined;
  all(): ClientRecord[];
  /** Constant-time check of a presented secret; false for unknown clients and public clients. */
  verifySecret(id: string, secret: string): boolean;
}

export function createClientRegistry(clients: FixtureClient[]): ClientRegistry {
  // The secrets are invented test data: the hash only keeps them out of memory dumps, snapshots and
  // logs. An HMAC under a per-process key does that without a password KDF's cost, which was paid on
  // every start (one scrypt per declared client) and on every token request.
  const key = randomBytes(32);
  const hash = (secret: string) => createHmac('sha256', key).update(secret).digest();
  const byId = new Map<string, ClientRecord>();
  for (const { secret, ...rest } of clients)
    byId.set(rest.id, { ...rest, ...(secret ? { secretHash: hash(secret) } : {}) });
  return {
    get: (id) => byId.get(id),
    all: () => [...byId.values()],
    verifySecret(id, secret) {
      const rec = byId.get(id);
      if (!rec?.secretHash) return false;
      return timingSafeEqual(hash(secret), rec.secretHash);
    },
  };
}
