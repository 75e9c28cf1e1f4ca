// The OAuth server's codes and refresh families in a shared sandbox: applied on the replica that made
// the change at once and shared by hash (a code made on one replica is redeemed on another; a refresh
// token rotates wherever it is presented; a spent one revokes the grant everywhere).
import type { AuthorizationCode } from '../services/code-service.ts';
import type { AuthServerDeps } from '../auth-server/deps.ts';
import type { RefreshGrant } from '../services/refresh-family-service.ts';
import { andThen } from '../state/ports/maybe-promise.ts';
import { hashToken } from '../services/secret-hash.ts';
import { type FamilyTrail, familyTrails } from './shared-families.ts';

type AuthStores = Pick<AuthServerDeps, 'codes' | 'families'>;

/**
 * `wrap` goes into createAuthServerMount (`wrapStores`); `ops` apply what other replicas shared;
 * `trails` is what a snapshot keeps of the families (`restore` them before the mount is built).
 * @example const auth = shareAuthStores((op, args) => log.share(op, args, clock.now()), clock);
 */
export function shareAuthStores(
  share: (op: string, args: unknown[]) => void,
  clock: { now(): number; during<T>(at: number, fn: () => T): T },
) {
  let auth: AuthStores | undefined;
  let wrapped: AuthStores | undefined;
  const trails = familyTrails(() => clock.now());
  let restoring: FamilyTrail[] | undefined;
  const wrap = (stores: AuthStores): AuthStores => {
    const { codes, families } = stores;
    auth = stores;
    if (restoring) trails.restore(families, restoring, clock.during);
    restoring = undefined;
    wrapped = {
      codes: {
        ...codes,
        issue(grant: Parameters<typeof codes.issue>[0]) {
          return andThen(codes.issue(grant), (code) =>
            andThen(codes.find(code), (found) => {
              if (found.kind === 'fresh') share('codes.put', [hashToken(code), found.code]);
              return code;
            }),
          );
        },
        redeem(code: string, grant?: string) {
          return andThen(codes.redeem(code, grant), () => {
            share('codes.redeem', [hashToken(code), grant]);
          });
        },
      },
      families: {
        ...families,
        start(grant: RefreshGrant) {
          return andThen(families.start(grant), (r) => {
            trails.started(r.family, grant, hashToken(r.refreshToken));
            share('families.adopt', [r.family, grant, hashToken(r.refreshToken)]);
            return r;
          });
        },
        rotate(refreshToken: string, clientId: string, check?: (grant: RefreshGrant) => void) {
          return andThen(families.rotate(refreshToken, clientId, check), (r) => {
            if (r.kind === 'rotated') {
              trails.rotated(r.family, hashToken(r.refreshToken));
              share('families.rotate', [hashToken(refreshToken), r.family, hashToken(r.refreshToken)]);
            }
            if (r.kind === 'reused') {
              trails.revoked(r.family);
              share('families.revoke', [r.family]);
            }
            return r;
          });
        },
        revokeByToken(refreshToken: string, clientId: string) {
          return andThen(families.revokeByToken(refreshToken, clientId), (family) => {
            if (family) {
              trails.revoked(family);
              share('families.revoke', [family]);
            }
            return family;
          });
        },
        revokeFamily(family: string) {
          return andThen(families.revokeFamily(family), () => {
            trails.revoked(family);
            share('families.revoke', [family]);
          });
        },
      },
    };
    return wrapped;
  };
  /** Revokes a refresh family here and on every replica (shared-spend.ts: a code or token spent twice). */
  const revokeFamily = (family: string) => wrapped?.families.revokeFamily(family);
  const ops = {
    'codes.put': (h: string, record: AuthorizationCode) => auth?.codes.put(h, record),
    'codes.redeem': (h: string, grant?: string) => auth?.codes.redeemHash(h, grant),
    'families.adopt': (family: string, grant: RefreshGrant, h: string) => {
      trails.started(family, grant, h);
      auth?.families.adopt(family, grant, h);
    },
    'families.rotate': (spent: string, family: string, next: string) => {
      trails.rotated(family, next);
      auth?.families.applyRotation(spent, family, next);
    },
    'families.revoke': (family: string) => {
      trails.revoked(family);
      auth?.families.revokeFamily(family);
    },
  };
  const restore = (dumped: FamilyTrail[]) => {
    if (auth) trails.restore(auth.families, dumped, clock.during);
    else restoring = dumped;
  };
  return { wrap, ops, revokeFamily, trails: { dump: trails.dump, restore } };
}
