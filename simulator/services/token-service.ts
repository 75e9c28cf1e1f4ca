import type { Clock } from '../lib/clock.ts';
import { newId } from '../lib/ids.ts';
import { andThen, type MaybePromise } from '../state/ports/maybe-promise.ts';
import type { AccessToken, StoredToken, TokenRepository } from '../state/ports/tokens.ts';
import { hashToken } from './secret-hash.ts';

export type { AccessToken };

/** What a token is issued for; `ttlSeconds` overrides the service's default lifetime. */
export type TokenGrant = Omit<AccessToken, 'issuedAt' | 'expiresAt'> & { ttlSeconds?: number };

/** Bounds of the tokens kept (see README, Reliability: "tokens a client can pile up"). */
export const TOKEN_DEFAULTS = {
  /** Tokens kept per client, live or expired; past it the client's oldest token is dropped (GitHub does the same). */
  maxPerClient: 10_000,
  /** No sweep for expired tokens below this many in all. */
  sweepFloor: 50_000,
} as const;

/** Expired tokens stay answerable as "expired" this long, then a sweep drops them. */
const EXPIRED_KEPT_MS = 24 * 3600_000;

/** A presented token judged on the sandbox clock. */
export type TokenCheck =
  | { kind: 'live'; record: AccessToken }
  | { kind: 'expired'; record: AccessToken }
  | { kind: 'unknown' };

/**
 * Bearer tokens and their rules over a repository port: unguessable tokens kept only by their SHA-256,
 * a lifetime on the sandbox clock, at most `maxPerClient` per client (the oldest go), expired ones swept
 * past a floor, revocation of one token, a client's or a whole grant's, and watches that end live streams
 * when their token goes. Each method answers at once when the repository does (memory).
 * @example const { token } = tokens.issue({ clientId: 'c', tenants: ['t'], scopes: ['catalog:read'], environment: 'sandbox' });
 */
export interface TokenService {
  issue(grant: TokenGrant): MaybePromise<{ token: string; record: AccessToken }>;
  /** The record, expired or not, or undefined for an unknown token. */
  lookup(token: string): MaybePromise<AccessToken | undefined>;
  /** Whether a presented token is live, expired (on the sandbox clock) or unknown. */
  check(token: string): MaybePromise<TokenCheck>;
  revoke(token: string): MaybePromise<boolean>;
  /** Keeps a record minted elsewhere (another replica) under its hash; a hash known already stays as it is. */
  put(tokenHash: string, record: AccessToken): MaybePromise<void>;
  /** `revoke` by the token's hash (a revocation made on another replica). */
  revokeHash(tokenHash: string): MaybePromise<boolean>;
  /** Drops every token of a client. */
  revokeClient(clientId: string): MaybePromise<void>;
  /** Drops every token issued under one grant (refresh-token family); answers how many. */
  revokeFamily(family: string): MaybePromise<number>;
  clear(): MaybePromise<void>;
  /**
   * Calls `onRemoved` once when this record is revoked or dropped (live streams opened with it end then).
   * In-process: a stream is held by this process, whatever the repository.
   * @example const stop = tokens.watch(ctx.access.token, () => source.close('token_revoked'));
   */
  watch(record: AccessToken, onRemoved: () => void): () => void;
}

export interface TokenServiceDeps {
  repository: TokenRepository;
  clock: Clock;
  /** Lifetime of a token when the grant names none (default 900 s). */
  defaultTtlSeconds?: number;
  /** Default TOKEN_DEFAULTS.maxPerClient. */
  maxPerClient?: number;
  /** Default TOKEN_DEFAULTS.sweepFloor. */
  sweepFloor?: number;
}

/** @example const tokens = createTokenService({ repository: createTokenStore(), clock }); */
export function createTokenService(deps: TokenServiceDeps): TokenService {
  const { repository: repo, clock } = deps;
  const defaultTtlSeconds = deps.defaultTtlSeconds ?? 900;
  // Without a bound one client with its secret could mint tokens until the process runs out of memory.
  const maxPerClient = deps.maxPerClient ?? TOKEN_DEFAULTS.maxPerClient;
  // A sweep walks every token: run it only when the store has grown past twice its size after the last
  // one, so issuing stays O(1) amortised (a sweep on every issue past 50,000 made each token cost 50 ms).
  const sweepFloor = deps.sweepFloor ?? TOKEN_DEFAULTS.sweepFloor;
  let sweepAt = sweepFloor;
  // Only records someone watches (open streams) are here, so a removal costs one map lookup.
  const watchers = new Map<AccessToken, Set<() => void>>();
  const ended = (rec: AccessToken) => {
    const set = watchers.get(rec);
    if (!set) return;
    watchers.delete(rec);
    for (const fn of set) fn();
  };
  const removed = (gone: StoredToken[]) => {
    if (watchers.size > 0) for (const t of gone) ended(t.record);
    return gone.length;
  };
  const keep = (hash: string, record: AccessToken) =>
    andThen(repo.insert(hash, record), (inserted) =>
      inserted ? andThen(repo.trimClient(record.clientId, maxPerClient), removed) : 0,
    );
  const sweep = () =>
    andThen(repo.removeExpiredBefore(clock.now() - EXPIRED_KEPT_MS), (gone) => {
      removed(gone);
      return andThen(repo.size(), (n) => {
        sweepAt = Math.max(sweepFloor, n * 2);
      });
    });
  const revokeHash = (hash: string) =>
    andThen(repo.remove(hash), (gone) => {
      if (gone) removed([gone]);
      return gone !== undefined;
    });
  return {
    issue(grant) {
      return andThen(
        andThen(repo.size(), (n) => (n > sweepAt ? sweep() : undefined)),
        () => {
          const { ttlSeconds = defaultTtlSeconds, ...rest } = grant;
          const issuedAt = clock.now();
          const record: AccessToken = { ...rest, issuedAt, expiresAt: issuedAt + ttlSeconds * 1000 };
          const token = newId('ncs_at', 32);
          return andThen(keep(hashToken(token), record), () => ({ token, record }));
        },
      );
    },
    lookup: (token) => repo.find(hashToken(token)),
    check: (token) =>
      andThen(repo.find(hashToken(token)), (record): TokenCheck => {
        if (!record) return { kind: 'unknown' };
        return record.expiresAt <= clock.now() ? { kind: 'expired', record } : { kind: 'live', record };
      }),
    revoke: (token) => revokeHash(hashToken(token)),
    put: (hash, record) => andThen(keep(hash, record), () => undefined),
    revokeHash,
    revokeClient: (clientId) =>
      andThen(repo.removeClient(clientId), (gone) => {
        removed(gone);
      }),
    revokeFamily: (family) => andThen(repo.removeFamily(family), removed),
    clear() {
      const watched = [...watchers.keys()];
      return andThen(repo.clear(), () => {
        sweepAt = sweepFloor;
        for (const rec of watched) ended(rec);
      });
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
  };
}
