// Single use of authorization codes and refresh tokens across replicas. Each replica decides on its
// own state first (a code or token spent before the call is refused there, as on one process); two
// presentations of the same one on two replicas at once both pass that check, so a successful answer
// is released only after its replica spent the code or token in Redis (SET NX on its hash). The
// replica that loses answers invalid_grant and revokes what its answer issued, with the whole grant:
// the reuse rule of the authorization server (a code or refresh token that comes back revokes what it
// produced), applied everywhere through the log.
import { formParams } from '../auth-server/params.ts';
import { OAuthError, oauthErrorResponse } from '../auth-server/oauth-error.ts';
import type { PlainRequest, PlainResponse } from '../core/types.ts';
import { newId } from '../lib/ids.ts';
import type { MaybePromise } from '../state/ports/maybe-promise.ts';
import type { RedisEngine } from '../state/redis/redis-engine.ts';
import { hashToken } from '../services/secret-hash.ts';

/** A spent mark outlives every code (60 s) and refresh token (24 h by default) it could stand for. */
const SPENT_MS = 48 * 3600_000;

/**
 * `settle(req, res)` answers `res`, or invalid_grant when another replica spent the same code or
 * refresh token first (then `revokeGrant` revokes the family the lost answer belonged to).
 * @example const single = spendOnce(engine, (token) => andThen(state.tokens.lookup(token), (r) => r?.family), revoke); res = await single.settle(req, res);
 */
export function spendOnce(
  engine: RedisEngine,
  familyOf: (accessToken: string) => MaybePromise<string | undefined>,
  revokeGrant: (family: string) => MaybePromise<void>,
) {
  return {
    async settle(req: PlainRequest, res: PlainResponse): Promise<PlainResponse> {
      if (res.status !== 200 || req.method !== 'POST' || !req.path.endsWith('/oauth/token')) return res;
      const params = formParams(req);
      const secret =
        params.grant_type === 'authorization_code'
          ? params.code
          : params.grant_type === 'refresh_token'
            ? params.refresh_token
            : undefined;
      if (!secret) return res;
      const key = `${engine.prefix}spent:${hashToken(secret)}`;
      if ((await engine.command(['SET', key, engine.replicaId, 'NX', 'PX', SPENT_MS])) === 'OK') return res;
      const issued = JSON.parse(res.body ?? '{}') as { access_token?: string };
      const family = issued.access_token ? await familyOf(issued.access_token) : undefined;
      if (family) await revokeGrant(family);
      const what = params.grant_type === 'authorization_code' ? 'authorization code' : 'refresh token';
      return oauthErrorResponse(
        new OAuthError(
          'invalid_grant',
          `The ${what} was used at the same moment on another replica of this sandbox; each is valid once. The grant and its tokens are revoked; start the sign-in again.`,
        ),
        res.headers['x-request-id'] ?? newId('req', 16),
      );
    },
  };
}
