import type { Environment } from '../../contract/environment.ts';
import type { Scope } from '../../contract/scopes.ts';
import type { MaybePromise } from './maybe-promise.ts';

/** What a person consented to once: every refresh token of the family renews exactly this. */
export interface RefreshGrant {
  clientId: string;
  personId: string;
  tenants: string[];
  scopes: Scope[];
  environment: Environment;
}

/** One refresh token, kept by hash. */
export interface RefreshTokenRecord {
  family: string;
  expiresAt: number;
  used: boolean;
}

/** One family (grant): its consent, whether it was revoked, and its latest token hashes. */
export interface FamilyRecord {
  grant: RefreshGrant;
  revoked: boolean;
  /** Last moment any of its refresh tokens is valid; the family is forgotten a while after. */
  expiresAt: number;
  /** The hashes of its tokens still remembered, oldest first. */
  hashes: string[];
}

/**
 * Where refresh tokens and their families are kept. It knows no rule: rotation, reuse detection,
 * lifetimes, hashing, the bounds and when to sweep are the refresh-family service's
 * (services/refresh-family-service.ts). Every method may answer with a promise; the memory repository
 * answers at once (records answered: read, never change them).
 * @example andThen(repository.findToken(hash), (t) => t && repository.getFamily(t.family))
 */
export interface RefreshFamilyRepository {
  /** Starts a family without tokens; false (and nothing changes) when the id is known already. */
  insertFamily(id: string, grant: RefreshGrant): MaybePromise<boolean>;
  getFamily(id: string): MaybePromise<FamilyRecord | undefined>;
  findToken(hash: string): MaybePromise<RefreshTokenRecord | undefined>;
  /**
   * Adds a token to a family (the family's `expiresAt` becomes the token's); past `keepLatest` tokens the
   * family's oldest is forgotten. Nothing for an unknown family.
   */
  addToken(family: string, hash: string, expiresAt: number, keepLatest: number): MaybePromise<void>;
  /** Marks a token spent; nothing for an unknown hash. */
  markUsed(hash: string): MaybePromise<void>;
  /** Marks a family revoked; false for an unknown family. */
  revoke(family: string): MaybePromise<boolean>;
  familyCount(): MaybePromise<number>;
  /** Forgets the families (and their tokens) whose `expiresAt` is before `horizon` (ms). */
  forgetExpiredBefore(horizon: number): MaybePromise<void>;
  /** Forgets the oldest families until at most `keep` remain. */
  trimTo(keep: number): MaybePromise<void>;
  clear(): MaybePromise<void>;
}
