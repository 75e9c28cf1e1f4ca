// One request through tamarack: HAProxy (unique id, stick-table rate limit) then Play (version pinning,
// routing, the auth filter with token introspection, tenant and scope checks, the Idempotency-Key filter).
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { App } from './app.ts';
import { ApiError, BASE, type Ctx, CURRENT_VERSION, fail, PUBLISHED_VERSIONS, uniqueId } from './http-kit.ts';
import type { Introspection } from './oauth.ts';
import { match } from './routes.ts';
import { idempotencyKey } from './validate.ts';

const one = (v: string | string[] | undefined): string | undefined => (Array.isArray(v) ? v[0] : v);

/**
 * Service-Version pins a date, Stripe-like: a published version is answered as itself, any later valid
 * date as the newest version published on or before it; a date before the first version or no date: 400.
 */
export function resolveVersion(value: string | undefined, required: boolean): string {
  if (value === undefined || value.trim() === '') {
    if (required) throw new ApiError('invalid_request', 'Service-Version: header required (e.g. 2026-07-01).');
    return CURRENT_VERSION;
  }
  const v = value.trim();
  const date = /^\d{4}-\d{2}-\d{2}$/.test(v) ? new Date(`${v}T00:00:00Z`) : undefined;
  if (!date || Number.isNaN(date.getTime()) || date.toISOString().slice(0, 10) !== v) {
    throw new ApiError('invalid_request', 'Service-Version: expected a version date such as 2026-07-01.');
  }
  const pinned = PUBLISHED_VERSIONS.filter((p) => p <= v).at(-1);
  if (!pinned)
    throw new ApiError(
      'invalid_request',
      'Service-Version: no interface version was published on or before this date.',
    );
  return pinned;
}

export async function handle(app: App, req: IncomingMessage, res: ServerResponse): Promise<void> {
  const url = new URL(req.url ?? '/', 'http://tamarack.invalid');
  const ctx: Ctx = {
    req,
    res,
    method: req.method ?? 'GET',
    path: url.pathname,
    query: url.searchParams,
    requestId: uniqueId(),
    version: CURRENT_VERSION,
    headers: {},
    remote: req.socket.remoteAddress ?? 'unknown',
  };
  try {
    if (await app.oauth.handle(req, res, url.pathname)) return;
    if (ctx.path !== BASE && !ctx.path.startsWith(`${BASE}/`))
      throw new ApiError('not_found', 'No such path; the interface lives under /api/public/v1.');
    // HAProxy counts a call to an authenticated route before Play looks at anything, even a bad version.
    let versionError: unknown;
    try {
      ctx.version = resolveVersion(one(req.headers['service-version']), app.store.options.serviceVersionRequired);
      ctx.headers['service-version'] = ctx.version;
    } catch (err) {
      versionError = err;
    }
    const sub = ctx.path === `${BASE}/` ? '' : ctx.path.slice(BASE.length);
    const { route, params } = match(ctx.method, sub);
    const found = route?.auth ? countCall(app, ctx) : undefined;
    if (versionError) throw versionError;
    if (!route || (route.since !== undefined && route.since > ctx.version)) {
      throw new ApiError(
        'not_found',
        route ? `This route exists from version ${route.since} on.` : 'No such route or method.',
      );
    }
    if (found) authenticate(app, ctx, found, route.scope);
    if (route.key) ctx.idempotencyKey = idempotencyKey(req.headers['idempotency-key']);
    await route.handler(ctx, app, params);
  } catch (err) {
    if (res.headersSent) {
      res.end();
      return;
    }
    if (err instanceof ApiError)
      fail(
        ctx,
        err,
        err.code === 'unauthorized'
          ? { 'www-authenticate': 'Bearer realm="tamarack", error="invalid_token"' }
          : undefined,
      );
    else fail(ctx, new ApiError('internal', 'Quote the requestId to support.'));
  }
}

/** The HAProxy stick-table: per access (its token introspected by the Lua filter), tenant and environment. */
function countCall(app: App, ctx: Ctx): Introspection {
  const auth = one(ctx.req.headers.authorization);
  const token = auth === undefined ? undefined : /^Bearer\s+(\S+)\s*$/i.exec(auth)?.[1];
  const found = token === undefined ? { active: false } : app.oauth.introspect(token);
  const tenant = one(ctx.req.headers['x-service-tenant'])?.trim();
  const who = found.active && found.clientId !== undefined ? `client:${found.clientId}` : `address:${ctx.remote}`;
  const rate = app.limiter.hit(`${who}|${tenant ?? ''}|sandbox`);
  Object.assign(ctx.headers, rate.headers);
  if (rate.limited)
    throw new ApiError(
      'rate_limited',
      'The limit of this access, tenant and environment is used up for the current window.',
    );
  return found;
}

/** Play's auth filter: an active token, a tenant the access is released for, the route's scope. */
function authenticate(app: App, ctx: Ctx, found: Introspection, scope: string | undefined): void {
  const tenant = one(ctx.req.headers['x-service-tenant'])?.trim();
  if (!found.active || found.clientId === undefined) {
    throw new ApiError('unauthorized', 'The bearer token is missing, malformed, expired or revoked.');
  }
  const client = app.store.clients.get(found.clientId);
  if (tenant === undefined || tenant === '') throw new ApiError('forbidden', 'No tenant named: send x-service-tenant.');
  if (!client?.tenants.includes(tenant))
    throw new ApiError('forbidden', 'This access is not released for the tenant named in x-service-tenant.');
  if (scope && !found.scopes?.includes(scope)) throw new ApiError('forbidden', `The token lacks the scope ${scope}.`);
  ctx.clientId = found.clientId;
  ctx.scopes = found.scopes;
  ctx.tenant = tenant;
}
