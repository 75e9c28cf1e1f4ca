import { scryptSync, timingSafeEqual, randomBytes } from 'node:crypto';
import type { FixtureClient } from '../contract/fixtures.ts';

/** A declared OAuth client or service account; the secret is kept only as a salted scrypt hash. */
export type ClientRecord = Omit<FixtureClient, 'secret'> & { secretHash?: { salt: Buffer; hash: Buffer } };

function hashSecret(secret: string) {
  const salt = randomBytes(16);
  return { salt, hash: scryptSync(secret, salt, 32, { N: 1024 }) };
}

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
  const byId = new Map<string, ClientRecord>();
  for (const { secret, ...rest } of clients)
    byId.set(rest.id, { ...rest, ...(secret ? { secretHash: hashSecret(secret) } : {}) });
  return {
    get: (id) => byId.get(id),
    all: () => [...byId.values()],
    verifySecret(id, secret) {
      const rec = byId.get(id);
      if (!rec?.secretHash) return false;
      const presented = scryptSync(secret, rec.secretHash.salt, 32, { N: 1024 });
      return timingSafeEqual(presented, rec.secretHash.hash);
    },
  };
}
