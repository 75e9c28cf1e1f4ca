import type { Clock } from '../lib/clock.ts';
import { newId } from '../lib/ids.ts';
import { andThen, type MaybePromise } from '../state/ports/maybe-promise.ts';
import type { RefreshFamilyRepository, RefreshGrant } from '../state/ports/refresh-families.ts';
import { hashToken } from './secret-hash.ts';
import type { TokenService } from './token-service.ts';

export type { RefreshGrant };

export type RotateResult =
  | { kind: 'rotated'; family: string; grant: RefreshGrant; refreshToken: string }
  | { kind: 'reused'; family: string }
  | { kind: 'revoked' }
  | { kind: 'expired' }
  | { kind: 'other-client' }
  | { kind: 'unknown' };

/** A family is forgotten this long after its last token expired. */
const FORGET_AFTER_MS = 24 * 3600_000;
/** Families kept at most (the oldest are forgotten first). */
export const MAX_FAMILIES = 20_000;
/** A long-lived grant rotates without end: only its latest tokens are remembered for replay detection. */
export const MAX_REMEMBERED_PER_FAMILY = 64;

/**
 * Refresh tokens grouped in families (one family per authorization code), over a repository port. Each
 * use rotates: the presented token is spent and a new one issued. A spent token presented again means it
 * leaked, so the whole family is revoked (OAuth 2.1 4.3.1), with every access token issued under it.
 * Tokens are kept by hash, valid `ttlSeconds` on the sandbox clock; memory is bounded.
 * @example const { family, refreshToken } = families.start(grant); families.rotate(refreshToken, grant.clientId);
 */
export interface RefreshFamilyService {
  start(grant: RefreshGrant): MaybePromise<{ family: string; refreshToken: string }>;
  /** `check` runs before the token is spent: when it throws, nothing changes. */
  rotate(refreshToken: string, clientId: string, check?: (grant: RefreshGrant) => void): MaybePromise<RotateResult>;
  /** Revokes the family of a refresh token held by `clientId`; answers the family id when it did. */
  revokeByToken(refreshToken: string, clientId: string): MaybePromise<string | undefined>;
  /**
   * Revokes a family and the access tokens issued under it (`withAccessTokens` false: the family only,
   * for a replica restoring a snapshot whose tokens are restored already).
   */
  revokeFamily(family: string, withAccessTokens?: boolean): MaybePromise<void>;
  /** A family started on another replica (shared sandbox): its grant and first refresh token, by hash. */
  adopt(family: string, grant: RefreshGrant, tokenHash: string): MaybePromise<void>;
  /** A rotation made on another replica: the spent token's hash and its successor's. */
  applyRotation(spentHash: string, family: string, nextHash: string): MaybePromise<void>;
  clear(): MaybePromise<void>;
}

export interface RefreshFamilyServiceDeps {
  repository: RefreshFamilyRepository;
  clock: Clock;
  /** Lifetime of each refresh token (default 86,400 s). */
  ttlSeconds?: number;
  /** The access tokens a revoked family takes with it. */
  accessTokens?: Pick<TokenService, 'revokeFamily'>;
}

/** @example const families = createRefreshFamilyService({ repository: createRefreshFamilyStore(), clock, accessTokens: state.tokens }); */
export function createRefreshFamilyService(deps: RefreshFamilyServiceDeps): RefreshFamilyService {
  const { repository: repo, clock } = deps;
  const ttlMs = (deps.ttlSeconds ?? 86_400) * 1000;
  const remember = (family: string, hash: string) =>
    repo.addToken(family, hash, clock.now() + ttlMs, MAX_REMEMBERED_PER_FAMILY);
  const mint = (family: string) => {
    const token = newId('ncs_rt', 32);
    return andThen(remember(family, hashToken(token)), () => token);
  };
  const sweep = () =>
    andThen(repo.forgetExpiredBefore(clock.now() - FORGET_AFTER_MS), () => repo.trimTo(MAX_FAMILIES - 1));
  const revokeFamily = (family: string, withAccessTokens = true) =>
    andThen(repo.revoke(family), () => {
      if (withAccessTokens && deps.accessTokens)
        return andThen(deps.accessTokens.revokeFamily(family), () => undefined);
    });
  /** The token's record and its family, when both are known. */
  const held = (refreshToken: string) =>
    andThen(repo.findToken(hashToken(refreshToken)), (token) =>
      token ? andThen(repo.getFamily(token.family), (family) => (family ? { token, family } : undefined)) : undefined,
    );
  return {
    start(grant) {
      return andThen(
        andThen(repo.familyCount(), (n) => (n >= MAX_FAMILIES ? sweep() : undefined)),
        () => {
          const family = newId('grant', 12);
          return andThen(repo.insertFamily(family, grant), () =>
            andThen(mint(family), (refreshToken) => ({ family, refreshToken })),
          );
        },
      );
    },
    rotate(refreshToken, clientId, check) {
      return andThen(held(refreshToken), (found): MaybePromise<RotateResult> => {
        if (!found) return { kind: 'unknown' };
        const { token, family } = found;
        // Bound to its client: another client's attempt neither spends nor revokes anything.
        if (family.grant.clientId !== clientId) return { kind: 'other-client' };
        if (family.revoked) return { kind: 'revoked' };
        if (token.used) return andThen(revokeFamily(token.family), () => ({ kind: 'reused', family: token.family }));
        if (token.expiresAt <= clock.now()) return { kind: 'expired' };
        check?.(family.grant);
        return andThen(repo.markUsed(hashToken(refreshToken)), () =>
          andThen(mint(token.family), (next) => ({
            kind: 'rotated',
            family: token.family,
            grant: family.grant,
            refreshToken: next,
          })),
        );
      });
    },
    revokeByToken(refreshToken, clientId) {
      return andThen(held(refreshToken), (found) => {
        if (!found || found.family.grant.clientId !== clientId) return undefined;
        return andThen(revokeFamily(found.token.family), () => found.token.family);
      });
    },
    revokeFamily,
    adopt(family, grant, tokenHash) {
      return andThen(repo.insertFamily(family, grant), (inserted) =>
        inserted ? remember(family, tokenHash) : undefined,
      );
    },
    applyRotation(spentHash, family, nextHash) {
      return andThen(repo.getFamily(family), (fam) =>
        andThen(repo.findToken(nextHash), (known) => {
          if (!fam || known) return;
          return andThen(repo.markUsed(spentHash), () => remember(family, nextHash));
        }),
      );
    },
    clear: () => repo.clear(),
  };
}
