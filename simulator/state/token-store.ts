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

/** Bounds of the token store (see README, Reliability: "tokens a client can pile up"). */
export const TOKEN_DEFAULTS = {
  /** Tokens kept per client, live or expired; past it the client's oldest token is dropped (GitHub does the same). */
  maxPerClient: 10_000,
  /** No sweep for expired tokens below this many in all. */
  sweepFloor: 50_000,
} as const;

export function createTokenStore(
  clock: Clock,
  defaultTtlSeconds = 900,
  persistence: Persistence = memoryOnly,
  maxPerClient: number = TOKEN_DEFAULTS.maxPerClient,
): TokenStore {
  const byHash = new Map<string, AccessToken>(persistence.entries<AccessToken>(NS));
  // Hashes of each client's tokens in issue order: the oldest is the first to go past maxPerClient.
  // Without this bound one client with its secret could mint tokens until the process runs out of memory.
  const byClient = new Map<string, Set<string>>();
  const track = (h: string, rec: AccessToken) => {
    const set = byClient.get(rec.clientId) ?? new Set<string>();
    byClient.set(rec.clientId, set);
    set.add(h);
    for (const oldest of set) {
      if (set.size <= maxPerClient) break;
      drop(oldest);
    }
  };
  const untrack = (h: string, rec: AccessToken | undefined) => {
    const set = rec && byClient.get(rec.clientId);
    if (!set) return;
    set.delete(h);
    if (set.size === 0) byClient.delete(rec.clientId);
  };
  const drop = (h: string) => {
    const rec = byHash.get(h);
    byHash.delete(h);
    persistence.delete(NS, h);
    untrack(h, rec);
    removed(rec);
  };
  // A sweep walks every token: run it only when the store has grown past twice its size after the last
  // one, so issuing stays O(1) amortised (a sweep on every issue past 50,000 made each token cost 50 ms).
  let sweepAt: number = TOKEN_DEFAULTS.sweepFloor;
  // Only records someone watches (open streams) are here, so a removal costs one map lookup.
  const watchers = new Map<AccessToken, Set<() => void>>();
  const removed = (rec: AccessToken | undefined) => {
    if (!rec) return;
    const set = watchers.get(rec);
    if (!set) return;
    watchers.delete(rec);
    for (const fn of set) fn();
  };
  for (const [h, rec] of byHash) track(h, rec);
  function sweep() {
    // Expired tokens stay answerable as "expired" for a while, then go, so memory stays bounded.
    const horizon = clock.now() - 24 * 3600_000;
    for (const [h, rec] of byHash) if (rec.expiresAt < horizon) drop(h);
    sweepAt = Math.max(TOKEN_DEFAULTS.sweepFloor, byHash.size * 2);
  }
  function revokeHash(h: string): boolean {
    const had = byHash.has(h);
    if (had) drop(h);
    else persistence.delete(NS, h);
    return had;
  }
  return {
    issue(grant) {
      if (byHash.size > sweepAt) sweep();
      const { ttlSeconds = defaultTtlSeconds, ...rest } = grant;
      const issuedAt = clock.now();
      const record: AccessToken = { ...rest, issuedAt, expiresAt: issuedAt + ttlSeconds * 1000 };
      const token = newId('ncs_at', 32);
      const h = hashToken(token);
      byHash.set(h, record);
      persistence.put(NS, h, record);
      track(h, record);
      return { token, record };
    },
    lookup: (token) => byHash.get(hashToken(token)),
    put(h, record) {
      if (byHash.has(h)) return;
      byHash.set(h, record);
      persistence.put(NS, h, record);
      track(h, record);
    },
    revoke(token) {
      return revokeHash(hashToken(token));
    },
    revokeHash,
    revokeClient(clientId) {
      for (const h of [...(byClient.get(clientId) ?? [])]) drop(h);
    },
    clear() {
      const all = [...watchers.keys()];
      byHash.clear();
      byClient.clear();
      sweepAt = TOKEN_DEFAULTS.sweepFloor;
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
        if (rec.family === family) {
          drop(h);
          n++;
        }
      }
      return n;
    },
  };
}
