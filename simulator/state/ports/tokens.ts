import type { AccessToken } from '../../core/context.ts';
import type { MaybePromise } from './maybe-promise.ts';

export type { AccessToken };

/** A token as stored: the SHA-256 of the raw token (the key) and its record. */
export interface StoredToken {
  hash: string;
  record: AccessToken;
}

/**
 * Where access tokens are kept, by hash, with each client's tokens in issue order. It knows no rule:
 * the lifetime, the cap per client, hashing, when to sweep and what is expired, the watches of live
 * streams are the token service's (services/token-service.ts). Every method may answer with a promise
 * (a store across the network); the memory repository answers at once. Records answered are the ones
 * kept (never change them): the token service's watches know a record by identity.
 * @example andThen(repository.find(hash), (record) => record?.clientId)
 */
export interface TokenRepository {
  /** Keeps a record under its hash; false (and nothing changes) when the hash is known already. */
  insert(hash: string, record: AccessToken): MaybePromise<boolean>;
  find(hash: string): MaybePromise<AccessToken | undefined>;
  /** Removes one token; answers what it removed. */
  remove(hash: string): MaybePromise<StoredToken | undefined>;
  /** Removes every token of a client. */
  removeClient(clientId: string): MaybePromise<StoredToken[]>;
  /** Removes every token issued under one grant (refresh-token family). */
  removeFamily(family: string): MaybePromise<StoredToken[]>;
  /** Removes a client's oldest tokens until it has at most `keep`. */
  trimClient(clientId: string, keep: number): MaybePromise<StoredToken[]>;
  /** Removes every token that expired before `horizon` (ms). */
  removeExpiredBefore(horizon: number): MaybePromise<StoredToken[]>;
  size(): MaybePromise<number>;
  clear(): MaybePromise<void>;
}
