import type { FixtureClient } from '../../contract/fixtures.ts';
import type { MaybePromise } from './maybe-promise.ts';

/** A declared OAuth client or service account; the secret is kept only as a keyed hash. */
export type ClientRecord = Omit<FixtureClient, 'secret'> & { secretHash?: Buffer };

/**
 * Where the declared clients are kept, by id. It knows no rule: hashing secrets and verifying a presented
 * one are the client service's (services/client-service.ts). Every method may answer with a promise.
 * @example andThen(repository.get('harbour-backend'), (client) => client?.type)
 */
export interface ClientRepository {
  /** Keeps a client (replacing one with the same id). */
  insert(record: ClientRecord): MaybePromise<void>;
  get(id: string): MaybePromise<ClientRecord | undefined>;
  /** Every client, in the order they were kept. */
  all(): MaybePromise<ClientRecord[]>;
  clear(): MaybePromise<void>;
}
