import type { Scope } from '../contract/scopes.ts';
import type { Clock } from '../lib/clock.ts';
import { newId } from '../lib/ids.ts';
import { hashToken } from '../state/token-store.ts';

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

export type CodeLookup =
  | { kind: 'fresh'; code: AuthorizationCode }
  | { kind: 'redeemed'; code: AuthorizationCode }
  | { kind: 'expired' }
  | { kind: 'unknown' };

/**
 * Authorization codes, kept by hash: single use, short-lived on the simulator clock, memory bounded.
 * @example const code = codes.issue({ ...grant }); codes.find(code).kind === 'fresh';
 */
export interface CodeStore {
  issue(grant: Omit<AuthorizationCode, 'expiresAt' | 'used' | 'grant'>): string;
  find(code: string): CodeLookup;
  /** Marks the code used (with the grant it produced, if any); from now on it only serves to detect a replay. */
  redeem(code: string, grant?: string): void;
  /** Keeps a code issued on another replica (shared sandbox), by its hash. */
  put(codeHash: string, record: AuthorizationCode): void;
  /** `redeem` by the code's hash (a redemption made on another replica). */
  redeemHash(codeHash: string, grant?: string): void;
  clear(): void;
}

/** Used codes are remembered this long past expiry so a replay is recognised and its grant revoked. */
const REPLAY_MEMORY_MS = 10 * 60_000;
const MAX_CODES = 20_000;

export function createCodeStore(clock: Clock, ttlSeconds = 60): CodeStore {
  const byHash = new Map<string, AuthorizationCode>();
  function sweep() {
    const now = clock.now();
    for (const [h, c] of byHash) if (c.expiresAt + REPLAY_MEMORY_MS < now) byHash.delete(h);
    // Still full (a flood of unredeemed codes): drop the oldest; Maps iterate in insertion order.
    for (const h of byHash.keys()) {
      if (byHash.size < MAX_CODES) break;
      byHash.delete(h);
    }
  }
  function redeemHash(h: string, grant?: string) {
    const rec = byHash.get(h);
    if (!rec) return;
    rec.used = true;
    if (grant !== undefined) rec.grant = grant;
  }
  return {
    issue(grant) {
      if (byHash.size >= MAX_CODES) sweep();
      const code = newId('ncs_ac', 32);
      byHash.set(hashToken(code), { ...grant, expiresAt: clock.now() + ttlSeconds * 1000 });
      return code;
    },
    find(code) {
      const rec = byHash.get(hashToken(code));
      if (!rec) return { kind: 'unknown' };
      if (rec.used) return { kind: 'redeemed', code: rec };
      if (rec.expiresAt <= clock.now()) return { kind: 'expired' };
      return { kind: 'fresh', code: rec };
    },
    redeem(code, grant) {
      redeemHash(hashToken(code), grant);
    },
    put(h, record) {
      if (!byHash.has(h)) byHash.set(h, { ...record });
    },
    redeemHash,
    clear: () => byHash.clear(),
  };
}
