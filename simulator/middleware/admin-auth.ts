import { createHash, timingSafeEqual } from 'node:crypto';
import { ApiError } from '../core/api-error.ts';
import { defineStep } from '../core/step.ts';
import type { TokenService } from '../services/token-service.ts';
import { bearerToken } from './auth.ts';

export interface AdminAuthDeps {
  adminToken: string;
  /** Tells a tenant token (403) from an unknown one (401). */
  tokens: Pick<TokenService, 'lookup'>;
}

const digest = (s: string) => createHash('sha256').update(s).digest();
const HINT = 'Use the admin token printed by ncs serve.';

/**
 * The control plane's guard on routes with `auth`: the admin token as a bearer token (compared in
 * constant time), 403 for a tenant token, 401 for none or any other. No tenant header is involved.
 * @example compose([routeMatchStep(router), adminAuthStep({ adminToken, tokens })], terminal);
 */
export function adminAuthStep(deps: AdminAuthDeps) {
  const admin = digest(deps.adminToken);
  return defineStep({
    name: 'admin-auth',
    requires: ['route'],
    async run(ctx, next) {
      if (!ctx.route.auth) return next();
      const token = bearerToken(ctx.req.headers.authorization);
      if (!token)
        throw new ApiError('unauthorized', {
          detail: 'The control plane needs the admin token.',
          hint: 'Send Authorization: Bearer <admin token printed by ncs serve>.',
        });
      if (timingSafeEqual(digest(token), admin)) return next();
      if (await deps.tokens.lookup(token))
        throw new ApiError('forbidden', { detail: 'Tenant tokens cannot use the control plane.', hint: HINT });
      throw new ApiError('unauthorized', { detail: 'The admin token is not recognised.', hint: HINT });
    },
  });
}
