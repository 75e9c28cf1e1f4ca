import type { Scope } from '../../contract/scopes.ts';
import type { MaybePromise } from './maybe-promise.ts';

/** What an authorization code stands for: one consent, bound to client, redirect URI and PKCE challenge. */
export interface AuthorizationCode {
  clientId: string;
  redirectUri: string;
  /** Whether the authorization request named redirect_uri (then the token request must repeat it). */
  redirectUriSent: boolean;
  personId: string;
  tenants: string[];
  scopes: Scope[];
  /** S256 challenge (base64url SHA-256 of the verifier), when PKCE was used. */
  codeChallenge?: string;
  expiresAt: number;
  /** Set at the first token request with this code, successful or not: codes are single-use. */
  used?: boolean;
  /** The grant (refresh family) the code produced; revoked if the code comes back (RFC 6749 4.1.2). */
  grant?: string;
}

/**
 * Where authorization codes are kept, by hash, oldest first. It knows no rule: the lifetime, single use,
 * hashing, when and what to sweep are the code service's (services/code-service.ts). Every method may
 * answer with a promise; the memory repository answers at once (records answered: read, never change).
 * @example andThen(repository.find(hash), (code) => code?.used)
 */
export interface AuthorizationCodeRepository {
  /** Keeps a code under its hash; false (and nothing changes) when the hash is known already. */
  insert(hash: string, code: AuthorizationCode): MaybePromise<boolean>;
  find(hash: string): MaybePromise<AuthorizationCode | undefined>;
  /** Marks a code used, with the grant it produced when given; nothing for an unknown hash. */
  markUsed(hash: string, grant?: string): MaybePromise<void>;
  size(): MaybePromise<number>;
  /** Removes the codes whose `expiresAt` is before `horizon` (ms). */
  removeExpiredBefore(horizon: number): MaybePromise<void>;
  /** Removes the oldest codes until at most `keep` remain. */
  trimTo(keep: number): MaybePromise<void>;
  clear(): MaybePromise<void>;
}
