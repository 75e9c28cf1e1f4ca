// The gateway policies (what APIM and the NestJS guards do before a controller runs): rate limiting
// by key, the version, the Entra ID token, the tenant and the app role.
import type { Deps } from './deps.ts';
import { ApiError, type Ctx } from './http-kit.ts';
import type { Route } from './routes.ts';
import { VERSIONS } from './util.ts';

/** APIM-style rate-limit-by-key: a fixed window per access (client), tenant and environment. */
export interface RateLimiter {
  /** Counts one call; returns the headers to send and whether the call is over the limit. */
  take(key: string): { headers: Record<string, string>; limited: boolean };
}

export function createRateLimiter(limit: number, windowMs: number): RateLimiter {
  const windows = new Map<string, { start: number; count: number }>();
  return {
    take(key) {
      const now = Date.now();
      let w = windows.get(key);
      if (!w || now - w.start >= windowMs) {
        w = { start: now, count: 0 };
        windows.set(key, w);
      }
      w.count += 1;
      const limited = w.count > limit;
      const headers: Record<string, string> = {
        'x-ratelimit-limit': String(limit),
        'x-ratelimit-remaining': String(Math.max(0, limit - w.count)),
      };
      if (limited) headers['retry-after'] = String(Math.max(1, Math.ceil((w.start + windowMs - now) / 1000)));
      return { headers, limited };
    },
  };
}

const ROLE = { read: 'Network.Read', write: 'Connections.ReadWrite' } as const;

export function pickVersion(ctx: Ctx, required: boolean, route?: Route): void {
  const header = ctx.req.headers['service-version'];
  const query = ctx.url.searchParams.get('api-version');
  const h = typeof header === 'string' ? header.trim() : undefined;
  if (h !== undefined && query !== null && h !== query) {
    throw new ApiError('invalid_request', 'Service-Version and api-version disagree.', {
      target: 'Service-Version',
      hint: 'Send one of them.',
    });
  }
  const v = h ?? query ?? undefined;
  if (v === undefined) {
    if (required && route && route.access !== 'public') {
      throw new ApiError('invalid_request', 'The Service-Version header is required.', {
        target: 'Service-Version',
        hint: `Supported versions: ${VERSIONS.join(', ')}.`,
      });
    }
    return;
  }
  if (!(VERSIONS as readonly string[]).includes(v)) {
    throw new ApiError('invalid_request', 'The requested service version is not supported.', {
      target: 'Service-Version',
      hint: `Supported versions: ${VERSIONS.join(', ')}.`,
    });
  }
  if (route?.since && v < route.since)
    throw new ApiError('not_found', `This operation exists since version ${route.since}.`);
  ctx.version = v;
}

/** The gateway counts every call to an authenticated operation first, whatever happens to it next. */
export function countCall(ctx: Ctx, deps: Deps, limiter: RateLimiter): void {
  const principal = deps.authority.validate(ctx.req.headers.authorization);
  ctx.principal = principal;
  const tenantHeader = ctx.req.headers['x-service-tenant'];
  const tenant = typeof tenantHeader === 'string' ? tenantHeader.trim().toLowerCase() : '';
  const who = principal?.clientId ?? `anonymous:${ctx.req.socket.remoteAddress ?? ''}`;
  const rate = limiter.take(`${who}|${tenant}|sandbox`);
  Object.assign(ctx.extraHeaders, rate.headers);
  if (rate.limited)
    throw new ApiError('rate_limited', 'Too many calls in a short time.', {
      hint: 'Wait for Retry-After seconds, then retry with growing intervals.',
    });
}

export function guard(ctx: Ctx, route: Route, missingTenantForbidden: boolean): { tenant: string; clientId: string } {
  const principal = ctx.principal;
  const tenantHeader = ctx.req.headers['x-service-tenant'];
  const tenant = typeof tenantHeader === 'string' ? tenantHeader.trim() : '';
  if (!principal) {
    ctx.extraHeaders['www-authenticate'] = 'Bearer error="invalid_token"';
    throw new ApiError('unauthorized', 'The access token is missing, invalid or expired.', {
      hint: 'Request a new access token and check the environment.',
    });
  }
  if (tenant === '') {
    const code = missingTenantForbidden ? 'forbidden' : 'invalid_request';
    throw new ApiError(code, 'The x-service-tenant header is required.', { target: 'x-service-tenant' });
  }
  if (!principal.tenants.includes(tenant))
    throw new ApiError('forbidden', 'This access is not released for the tenant.', {
      hint: 'Check the permissions of the access.',
    });
  const role = route.access === 'write' ? ROLE.write : ROLE.read;
  if (!principal.roles.includes(role))
    throw new ApiError('forbidden', `The access lacks the role ${role}.`, {
      hint: 'Check the permissions of the access.',
    });
  return { tenant, clientId: principal.clientId };
}
