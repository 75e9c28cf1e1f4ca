import type { Environment } from '../contract/environment.ts';
import type { Scope } from '../contract/scopes.ts';
import type { Clock } from '../lib/clock.ts';
import { newId } from '../lib/ids.ts';
import { hashToken } from '../state/token-store.ts';

/** What a person consented to once: every refresh token of the family renews exactly this. */
export interface RefreshGrant {
  clientId: string;
  personId: string;
  tenants: string[];
  scopes: Scope[];
  environment: Environment;
}

interface RefreshRecord {
  family: string;
  expiresAt: number;
  used: boolean;
}

interface Family {
  grant: RefreshGrant;
  revoked: boolean;
  /** Last moment any of its refresh tokens is valid; the family is forgotten a while after. */
  expiresAt: number;
  hashes: string[];
}

export type RotateResult =
  | { kind: 'rotated'; family: string; grant: RefreshGrant; refreshToken: string }
  | { kind: 'reused'; family: string }
  | { kind: 'revoked' }
  | { kind: 'expired' }
  | { kind: 'other-client' }
  | { kind: 'unknown' };

/**
 * Refresh tokens grouped in families (one family per authorization code). Each use rotates: the
 * presented token is spent and a new one issued. A spent token presented again means it leaked, so
 * the whole family is revoked (OAuth 2.1 4.3.1). Tokens are kept by hash; memory is bounded.
 * @example const { family, refreshToken } = families.start(grant); families.rotate(refreshToken, grant.clientId);
 */
export interface RefreshFamilies {
  start(grant: RefreshGrant): { family: string; refreshToken: string };
  /** `check` runs before the token is spent: when it throws, nothing changes. */
  rotate(refreshToken: string, clientId: string, check?: (grant: RefreshGrant) => void): RotateResult;
  /** Revokes the family of a refresh token held by `clientId`; returns the family id when it did. */
  revokeByToken(refreshToken: string, clientId: string): string | undefined;
  revokeFamily(family: string): void;
  clear(): void;
}

const FORGET_AFTER_MS = 24 * 3600_000;
const MAX_FAMILIES = 20_000;
const MAX_REMEMBERED_PER_FAMILY = 64;

export function createRefreshFamilies(clock: Clock, ttlSeconds = 86_400): RefreshFamilies {
  const tokens = new Map<string, RefreshRecord>();
  const families = new Map<string, Family>();

  function forget(id: string) {
    const fam = families.get(id);
    if (!fam) return;
    for (const h of fam.hashes) tokens.delete(h);
    families.delete(id);
  }
  function sweep() {
    const horizon = clock.now() - FORGET_AFTER_MS;
    for (const [id, fam] of families) if (fam.expiresAt < horizon) forget(id);
    for (const id of families.keys()) {
      if (families.size < MAX_FAMILIES) break;
      forget(id);
    }
  }
  function mint(familyId: string, fam: Family): string {
    const token = newId('ncs_rt', 32);
    const hash = hashToken(token);
    const expiresAt = clock.now() + ttlSeconds * 1000;
    tokens.set(hash, { family: familyId, expiresAt, used: false });
    fam.hashes.push(hash);
    // A long-lived grant rotates without end: only the latest spent tokens are remembered for replay detection.
    if (fam.hashes.length > MAX_REMEMBERED_PER_FAMILY) {
      const spent = fam.hashes.shift();
      if (spent !== undefined) tokens.delete(spent);
    }
    fam.expiresAt = expiresAt;
    return token;
  }
  function revokeFamily(id: string) {
    const fam = families.get(id);
    if (fam) fam.revoked = true;
  }

  return {
    start(grant) {
      if (families.size >= MAX_FAMILIES) sweep();
      const family = newId('grant', 12);
      const fam: Family = { grant, revoked: false, expiresAt: 0, hashes: [] };
      families.set(family, fam);
      return { family, refreshToken: mint(family, fam) };
    },
    rotate(refreshToken, clientId, check) {
      const rec = tokens.get(hashToken(refreshToken));
      const fam = rec && families.get(rec.family);
      if (!rec || !fam) return { kind: 'unknown' };
      // Bound to its client: another client's attempt neither spends nor revokes anything.
      if (fam.grant.clientId !== clientId) return { kind: 'other-client' };
      if (fam.revoked) return { kind: 'revoked' };
      if (rec.used) {
        revokeFamily(rec.family);
        return { kind: 'reused', family: rec.family };
      }
      if (rec.expiresAt <= clock.now()) return { kind: 'expired' };
      check?.(fam.grant);
      rec.used = true;
      return { kind: 'rotated', family: rec.family, grant: fam.grant, refreshToken: mint(rec.family, fam) };
    },
    revokeByToken(refreshToken, clientId) {
      const rec = tokens.get(hashToken(refreshToken));
      const fam = rec && families.get(rec.family);
      if (!rec || !fam || fam.grant.clientId !== clientId) return undefined;
      revokeFamily(rec.family);
      return rec.family;
    },
    revokeFamily,
    clear() {
      tokens.clear();
      families.clear();
    },
  };
}
