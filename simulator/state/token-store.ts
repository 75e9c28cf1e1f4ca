import { hash } from 'node:crypto';
import type { AccessToken } from '../core/context.ts';
import type { Clock } from '../lib/clock.ts';
import { newId } from '../lib/ids.ts';
import { memoryOnly, type Persistence } from './persistence/persistence.ts';

const NS = 'tokens';

export type { AccessToken };

export type TokenGrant = Omit<AccessToken, 'issuedAt' | 'expiresAt'> & { ttlSeconds?: number };

/**
 * Bearer tokens, kept by their SHA-256 so the raw token lives only with its holder. The OAuth
 * server and the start-up banner mint through `issue`; the auth middleware only calls `lookup`.
 * @example const { token } = store.issue({ clientId: 'c', tenants: ['t'], scopes: ['catalog:read'], environment: 'sandbox' });
 */
export interface TokenStore {
  issue(grant: TokenGrant): { token: string; record: AccessToken };
  /** The record, expired or not (auth decides), or undefined for an unknown token. */
  lookup(token: string): AccessToken | undefined;
  revoke(token: string): boolean;
  /** Keeps a record minted elsewhere (another replica) under its hash; a hash known already stays as it is. */
  put(tokenHash: string, record: AccessToken): void;
  /** `revoke` by the token's hash (a revocation made on another replica). */
  revokeHash(tokenHash: string): boolean;
  /** Drops every token of a client (used when a refresh family is revoked or state is reset). */
  revokeClient(clientId: string): void;
  /** Drops every token issued under one grant (refresh-token family); returns how many. */
  revokeFamily(family: string): number;
  clear(): void;
  /**
   * Calls `onRemoved` once when this record is revoked or dropped (live streams opened with it end then).
   * @example const stop = tokens.watch(ctx.access.token, () => source.close('token_revoked'));
   */
  watch(record: AccessToken, onRemoved: () => void): () => void;
}

// One-shot hash: the same digest without a Hash object per authenticated request.
export const hashToken = (token: string) => hash('sha256', token, 'base64url');

export function createTokenStore(
  clock: Clock,
  defaultTtlSeconds = 900,
  persistence: Persistence = memoryOnly,
): TokenStore {
  const byHash = new Map<string, AccessToken>(persistence.entries<AccessToken>(NS));
  // Only records someone watches (open streams) are here, so a removal costs one map lookup.
  const watchers = new Map<AccessToken, Set<() => void>>();
  const removed = (rec: AccessToken | undefined) => {
    if (!rec) return;
    const set = watchers.get(rec);
    if (!set) return;
    watchers.delete(rec);
    for (const fn of set) fn();
  };
  function sweep() {
    // Expired tokens stay answerable as "expired" for a while, then go, so memory stays bounded.
    const horizon = clock.now() - 24 * 3600_000;
    for (const [h, rec] of byHash) {
      if (rec.expiresAt < horizon) {
        byHash.delete(h);
        persistence.delete(NS, h);
        removed(rec);
      }
    }
  }
  function revokeHash(h: string): boolean {
    persistence.delete(NS, h);
    const rec = byHash.get(h);
    const had = byHash.delete(h);
    removed(rec);
    return had;
  }
  return {
    issue(grant) {
      if (byHash.size > 50_000) sweep();
      const { ttlSeconds = defaultTtlSeconds, ...rest } = grant;
      const issuedAt = clock.now();
      const record: AccessToken = { ...rest, issuedAt, expiresAt: issuedAt + ttlSeconds * 1000 };
      const token = newId('ncs_at', 32);
      byHash.set(hashToken(token), record);
      persistence.put(NS, hashToken(token), record);
      return { token, record };
    },
    lookup: (token) => byHash.get(hashToken(token)),
    put(h, record) {
      if (byHash.has(h)) return;
      byHash.set(h, record);
      persistence.put(NS, h, record);
    },
    revoke(token) {
      return revokeHash(hashToken(token));
    },
    revokeHash,
    revokeClient(clientId) {
      for (const [h, rec] of byHash) {
        if (rec.clientId === clientId) {
          byHash.delete(h);
          persistence.delete(NS, h);
          removed(rec);
        }
      }
    },
    clear() {
      const all = [...watchers.keys()];
      byHash.clear();
      persistence.deleteNamespace(NS);
      for (const rec of all) removed(rec);
    },
    watch(record, onRemoved) {
      const set = watchers.get(record) ?? new Set<() => void>();
      watchers.set(record, set);
      set.add(onRemoved);
      return () => {
        set.delete(onRemoved);
        if (set.size === 0 && watchers.get(record) === set) watchers.delete(record);
      };
    },
    revokeFamily(family) {
      let n = 0;
      for (const [h, rec] of byHash) {
        if (rec.family === family && byHash.delete(h)) {
          persistence.delete(NS, h);
          removed(rec);
          n++;
        }
      }
      return n;
    },
  };
}
