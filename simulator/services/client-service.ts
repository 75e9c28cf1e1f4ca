import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import type { FixtureClient } from '../contract/fixtures.ts';
import { andThen, type MaybePromise } from '../state/ports/maybe-promise.ts';
import type { ClientRecord, ClientRepository } from '../state/ports/clients.ts';

export type { ClientRecord };

/**
 * The clients declared in the fixtures and their rules over a repository port: each secret kept only
 * as a keyed hash, a presented secret checked in constant time. Answers at once from memory.
 * @example const clients = createClientService({ repository: createClientStore(), clients: fixtures.clients }); clients.verifySecret('harbour-backend', secret);
 */
export interface ClientService {
  get(id: string): MaybePromise<ClientRecord | undefined>;
  all(): MaybePromise<ClientRecord[]>;
  /** Constant-time check of a presented secret; false for unknown clients and public clients. */
  verifySecret(id: string, secret: string): MaybePromise<boolean>;
}

export interface ClientServiceDeps {
  repository: ClientRepository;
  /** The declared clients, secrets in plain (invented test data): kept hashed from here on. */
  clients: readonly FixtureClient[];
}

/** @example createClientService({ repository: createClientStore(), clients: fixtures.clients }) */
export function createClientService(deps: ClientServiceDeps): ClientService {
  const { repository: repo } = deps;
  // The secrets are invented test data: the hash only keeps them out of memory dumps, snapshots and
  // logs. An HMAC under a per-process key does that without a password KDF's cost, which was paid on
  // every start (one scrypt per declared client) and on every token request.
  const key = randomBytes(32);
  const hash = (secret: string) => createHmac('sha256', key).update(secret).digest();
  let loaded: MaybePromise<void> = undefined;
  for (const { secret, ...rest } of deps.clients) {
    const record: ClientRecord = { ...rest, ...(secret ? { secretHash: hash(secret) } : {}) };
    loaded = andThen(loaded, () => repo.insert(record));
  }
  // Reads wait for the clients to be kept (at once from memory).
  const after = <T>(read: () => MaybePromise<T>) => (loaded === undefined ? read() : andThen(loaded, read));
  return {
    get: (id) => after(() => repo.get(id)),
    all: () => after(() => repo.all()),
    verifySecret: (id, secret) =>
      after(() =>
        andThen(repo.get(id), (rec) => rec?.secretHash !== undefined && timingSafeEqual(hash(secret), rec.secretHash)),
      ),
  };
}
