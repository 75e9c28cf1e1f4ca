import type { Environment } from '../contract/environment.ts';
import { ApiError } from '../core/api-error.ts';
import type { Reply } from '../core/reply.ts';
import { defineStep } from '../core/step.ts';
import type { Clock } from '../lib/clock.ts';
import type { ClientService } from '../services/client-service.ts';
import type { TokenService } from '../services/token-service.ts';
import { andThen } from '../state/ports/maybe-promise.ts';

export interface AuthDeps {
  tokens: Pick<TokenService, 'check'>;
  clients: Pick<ClientService, 'get'>;
  clock: Clock;
  /** The environment this deployment serves; tokens of another environment are refused. */
  environment: Environment;
}

const BEARER = /^bearer\s+(\S+)\s*$/i;
const HTTP_PADDING = /^[ \t]+|[ \t]+$/g;

/** A header value without HTTP's padding (space, tab); no regex run for the values that have none. */
function withoutPadding(value: string | undefined): string | undefined {
  if (!value) return value;
  const first = value.charCodeAt(0);
  const last = value.charCodeAt(value.length - 1);
  return first === 32 || first === 9 || last === 32 || last === 9 ? value.replace(HTTP_PADDING, '') : value;
}

/**
 * The token of an `Authorization: Bearer <token>` header (scheme case-insensitive), else undefined.
 * @example bearerToken('Bearer ncs_at_x') // 'ncs_at_x'
 */
export function bearerToken(header: string | undefined): string | undefined {
  return header === undefined ? undefined : BEARER.exec(header)?.[1];
}

// An access's expiry as a time: the last text parsed is remembered (every call of one access carries
// the same text; Date.parse of an ISO date was ~1,000 instructions on every authenticated call).
let expiryText: string | undefined;
let expiryMs = Number.NaN;
function expiryOf(text: string): number {
  if (text !== expiryText) {
    expiryMs = Date.parse(text);
    expiryText = text;
  }
  return expiryMs;
}

/** RFC 6750 3: a 401 names the scheme (HTTP requires a challenge); a bad token also says invalid_token. */
const CHALLENGE = { 'www-authenticate': 'Bearer realm="ncs"' };
const INVALID_TOKEN = { 'www-authenticate': 'Bearer realm="ncs", error="invalid_token"' };

/**
 * Bearer token + x-service-tenant for authenticated routes: 401 for a missing, unknown, expired or
 * foreign-environment token (or an expired access), 400 for a missing tenant header, 403 for a tenant
 * that is not released or a missing scope. Optional-auth routes take a token when one is sent.
 */
export function authStep(deps: AuthDeps) {
  return defineStep({
    name: 'auth',
    requires: ['route'],
    provides: ['access'],
    run(ctx, next) {
      const route = ctx.route;
      if (!route.auth && !route.optionalAuth) return next();
      const header = ctx.req.headers.authorization;
      if (header === undefined && route.optionalAuth) return next();
      if (header === undefined) {
        throw new ApiError('unauthorized', {
          detail: 'The Authorization header is missing.',
          hint: 'Send Authorization: Bearer <access token>.',
          headers: CHALLENGE,
        });
      }
      const token = bearerToken(header);
      if (!token)
        throw new ApiError('unauthorized', {
          detail: 'The Authorization header is not of the form Bearer <token>.',
          headers: CHALLENGE,
        });
      // Live, expired or unknown is the token service's judgement, on the sandbox clock.
      // Both paths answer next()'s promise: at once from memory, after the look-up otherwise.
      return andThen(deps.tokens.check(token), (checked) => {
        if (checked.kind === 'unknown')
          throw new ApiError('unauthorized', {
            detail: 'The access token is not recognised.',
            hint: 'Request a new access token from the authorization server.',
            headers: INVALID_TOKEN,
          });
        if (checked.kind === 'expired') {
          throw new ApiError('unauthorized', {
            detail: 'The access token has expired.',
            hint: 'Tokens are short-lived: request a new one (renew, do not extend).',
            headers: INVALID_TOKEN,
          });
        }
        const record = checked.record;
        if (record.environment !== deps.environment) {
          throw new ApiError('unauthorized', {
            detail: `The access token was issued for the ${record.environment} environment; this is ${deps.environment}.`,
            hint: `Request a token for the ${deps.environment} environment and check the base URL.`,
            headers: INVALID_TOKEN,
          });
        }
        return andThen(deps.clients.get(record.clientId), (client) => {
          if (!client)
            throw new ApiError('unauthorized', {
              detail: 'The access behind the token no longer exists.',
              headers: INVALID_TOKEN,
            });
          if (expiryOf(client.expiresAt) <= deps.clock.now()) {
            throw new ApiError('unauthorized', {
              detail: `The access ${client.id} expired at ${client.expiresAt}.`,
              hint: `Every access has an expiry date: ask its responsible person (${client.owner}) to renew it.`,
              headers: INVALID_TOKEN,
            });
          }
          // Only HTTP's own whitespace (space, tab) is padding: trim() also took no-break spaces, so
          // "\u00a0harbour-kitchens" was served as the tenant while faults armed for it (matched on
          // the header as sent) did not apply. Node and fetch already strip space and tab.
          const tenant = withoutPadding(ctx.req.headers['x-service-tenant']);
          if (!tenant) {
            throw new ApiError('invalid_request', {
              detail: 'header x-service-tenant is required.',
              hint: 'Send x-service-tenant: <tenant identifier> with every authenticated call.',
            });
          }
          if (!record.tenants.includes(tenant)) {
            throw new ApiError('forbidden', {
              detail: 'The access is not released for this tenant.',
              hint: 'Check the tenant releases of the access and the x-service-tenant header.',
            });
          }
          if (route.scope && !record.scopes.includes(route.scope)) {
            throw new ApiError('forbidden', {
              detail: `The access lacks the scope ${route.scope}.`,
              hint: `Request a token with the scope ${route.scope}.`,
              headers: { 'www-authenticate': `Bearer realm="ncs", error="insufficient_scope", scope="${route.scope}"` },
            });
          }
          ctx.access = { token: record, tenant };
          return next();
        });
      }) as Promise<Reply>;
    },
  });
}
