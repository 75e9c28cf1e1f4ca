// The Worker's fetch handler: version negotiation, rate limit, authentication, tenant, idempotency, route.
// Order of refusals: 429 (counted per access, tenant, environment) > 401 > 403 > 428 > 400 > the route's own.
import { createHash } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Body, Route } from './http-kit.ts';
import {
  ApiError,
  BASE,
  type Ctx,
  CURRENT_VERSION,
  canonical,
  matchPath,
  newRayId,
  parseObject,
  readBody,
  sendError,
  sendOk,
  VERSIONS,
} from './http-kit.ts';
import { KEY_TTL_MS } from './routes-catalog.ts';
import { routesOf } from './routes-table.ts';
import { KEY_PATTERN, onlyDeclaredQuery } from './validate.ts';
import { TENANTS, type World } from './world.ts';

function firstHeader(req: IncomingMessage, name: string): string | undefined {
  const v = req.headers[name];
  return Array.isArray(v) ? v[0] : v;
}

export async function dispatch(w: World, req: IncomingMessage, res: ServerResponse): Promise<void> {
  const url = new URL(req.url ?? '/', 'http://willow.invalid');
  let path = url.pathname;
  if (path.length > BASE.length && path.endsWith('/')) path = path.slice(0, -1);
  const ctx: Ctx = {
    req,
    res,
    method: req.method ?? 'GET',
    path,
    query: url.searchParams,
    origin: `http://${req.headers.host ?? '127.0.0.1'}`,
    requestId: newRayId(),
    version: CURRENT_VERSION,
    params: {},
    tenant: '',
    clientId: '',
    utcOffset: w.opts.utcOffsetMinutes,
  };
  res.setHeader('X-Request-Id', ctx.requestId);
  res.setHeader('cf-ray', ctx.requestId);
  try {
    const { route, params } = findRoute(w, ctx);
    ctx.params = params;
    // Counted first, so every answer of an authenticated route (a refused version too) reports the window.
    if (route.auth) count(w, ctx);
    negotiateVersion(w, ctx);
    // strictQuery: schema validation at the edge, before the Worker authenticates.
    if (w.opts.strictQuery) onlyDeclaredQuery(`${route.method} ${route.path}`, ctx.query);
    // validateFirst: the request is checked against the description (key, body) before the Worker authenticates.
    const late = route.auth && w.opts.validateFirst && !route.raw;
    if (route.auth && !late) authenticate(w, ctx);
    if (route.since !== undefined && ctx.version < route.since) {
      throw new ApiError(
        404,
        'not_found',
        `This route does not exist in version ${ctx.version}.`,
        `Send Service-Version: ${route.since} or later.`,
      );
    }
    if (route.raw) {
      route.run(ctx, w, undefined);
      return;
    }
    await runRoute(w, ctx, route, late);
  } catch (err) {
    if (err instanceof ApiError) sendError(ctx, err);
    else {
      // No internals in the answer: the ray id is what support needs.
      console.error(`[willow] ${ctx.requestId}`, err);
      sendError(
        ctx,
        new ApiError(
          500,
          'internal',
          'The service failed to answer.',
          `Quote the request id ${ctx.requestId} to support.`,
        ),
      );
    }
  }
}

function negotiateVersion(w: World, ctx: Ctx): void {
  const asked = firstHeader(ctx.req, 'service-version')?.trim();
  if (asked === undefined || asked === '') {
    if (w.opts.requireVersion)
      throw new ApiError(
        400,
        'invalid_request',
        'The Service-Version header is required.',
        `Send Service-Version: ${CURRENT_VERSION}.`,
      );
  } else if (VERSIONS.includes(asked)) ctx.version = asked;
  else if (w.opts.strictVersion) {
    throw new ApiError(
      400,
      'invalid_request',
      'Unknown Service-Version.',
      `Published versions: ${VERSIONS.join(', ')}.`,
    );
  } else ctx.res.setHeader('Service-Version-Warning', `unknown version, answered as ${CURRENT_VERSION}`);
  ctx.res.setHeader('Service-Version', ctx.version);
}

function findRoute(w: World, ctx: Ctx): { route: Route; params: Record<string, string> } {
  if (ctx.path === BASE || ctx.path.startsWith(`${BASE}/`)) {
    const rel = ctx.path.slice(BASE.length);
    for (const route of routesOf(w)) {
      if (route.method !== ctx.method) continue;
      const params = matchPath(route.path, rel);
      if (params !== undefined) return { route, params };
    }
  }
  throw new ApiError(404, 'not_found', 'No such route.', 'The routes are listed at GET /api/public/v1.');
}

function count(w: World, ctx: Ctx): void {
  const v = w.auth.verify(firstHeader(ctx.req, 'authorization'));
  const tenant = firstHeader(ctx.req, 'x-service-tenant')?.trim() ?? '';
  // Counted before authentication (anonymous callers by address), like a rate-limit rule in front of a Worker.
  const access = v?.client.id ?? `anon:${ctx.req.socket.remoteAddress ?? '?'}`;
  const d = w.limiter.hit(access, tenant);
  w.limiter.apply(ctx.res, d);
  if (!d.allowed) {
    throw new ApiError(
      429,
      'rate_limited',
      'Too many calls in this window.',
      `Wait ${d.resetSeconds} s (Retry-After), then retry with growing intervals.`,
    );
  }
}

function authenticate(w: World, ctx: Ctx): void {
  const v = w.auth.verify(firstHeader(ctx.req, 'authorization'));
  const tenant = firstHeader(ctx.req, 'x-service-tenant')?.trim() ?? '';
  if (v === undefined) {
    ctx.res.setHeader('WWW-Authenticate', 'Bearer realm="willow", error="invalid_token"');
    throw new ApiError(
      401,
      'unauthorized',
      'A valid bearer token is required.',
      'Request a new access token at the token endpoint.',
    );
  }
  if (tenant === '') throw new ApiError(403, 'forbidden', 'No tenant named.', 'Send the x-service-tenant header.');
  const known = (Object.values(TENANTS) as string[]).includes(tenant);
  if (!known || !v.client.tenants.includes(tenant)) {
    throw new ApiError(
      403,
      'forbidden',
      'This access is not released for the tenant.',
      'Check the permissions of the access.',
    );
  }
  ctx.tenant = tenant;
  ctx.clientId = v.client.id;
}

async function runRoute(w: World, ctx: Ctx, route: Route, authLate: boolean): Promise<void> {
  const key = firstHeader(ctx.req, 'idempotency-key');
  if (route.key === 'required' && (key === undefined || key === '')) {
    throw new ApiError(
      428,
      'idempotency_required',
      'This call needs an Idempotency-Key header.',
      'Send a new key (8-128 of A-Z a-z 0-9 . _ : -) per operation.',
    );
  }
  const used = route.key === 'required' || (route.key === 'honoured' && !w.opts.keyOnlyWhereRequired);
  const keyed = used && key !== undefined;
  if (keyed && !KEY_PATTERN.test(key)) {
    throw new ApiError(
      400,
      'invalid_request',
      'The Idempotency-Key does not match ^[A-Za-z0-9._:-]{8,128}$.',
      'Use 8 to 128 letters, digits, dots, underscores, colons or hyphens.',
    );
  }
  const text = ctx.method === 'GET' ? '' : await readBody(ctx.req);
  const body: Body | undefined = route.check === undefined ? undefined : parseObject(text);
  const input = route.check === undefined || body === undefined ? undefined : route.check(ctx, w, body);
  if (authLate) authenticate(w, ctx);
  if (!keyed) {
    sendOk(ctx, route.run(ctx, w, input));
    return;
  }
  // From here on everything is synchronous: the tenant's object handles one call at a time.
  ctx.idempotencyKey = key;
  const t = w.tenant(ctx.tenant);
  // keyScopeClient: keys belong to the access (one store per client), the tenant is part of the fingerprint.
  const store = w.opts.keyScopeClient ? w.clientStore(ctx.clientId) : t;
  const scope = w.opts.keyScopeClient ? `${ctx.tenant}\n` : '';
  const fingerprint = createHash('sha256')
    .update(`${scope}${ctx.method} ${ctx.path}\n${w.opts.rawFingerprint ? text : canonical(body ?? null)}`)
    .digest('hex');
  const prior = store.idemGet(key);
  if (prior !== undefined) {
    if (prior.fingerprint !== fingerprint) {
      throw new ApiError(
        409,
        'idempotency_conflict',
        'This Idempotency-Key was used with different content.',
        'Use a new key for each new operation.',
      );
    }
    ctx.replayed = true;
    if (prior.status !== 200) {
      const e = prior.data as { code: string; message: string; hint?: string; detail?: string };
      throw new ApiError(prior.status, e.code, e.message, e.hint, e.detail);
    }
    sendOk(ctx, route.onReplay === undefined ? prior.data : route.onReplay(prior.data));
    return;
  }
  let result: unknown;
  try {
    result = route.run(ctx, w, input);
  } catch (err) {
    // storeRefusals: a refusal decided by the operation itself (404, 409) is the key's answer, like Stripe's.
    if (w.opts.storeRefusals && err instanceof ApiError && (err.status === 404 || err.status === 409)) {
      const data = { code: err.code, message: err.message, hint: err.hint, detail: err.detail };
      store.idempotency.set(key, { fingerprint, status: err.status, data, expiresAt: Date.now() + KEY_TTL_MS });
      ctx.replayed = false;
    }
    throw err;
  }
  // A snapshot: the stored answer keeps the state it was given with while the resource moves on.
  const data = structuredClone(result);
  store.idempotency.set(key, { fingerprint, status: 200, data, expiresAt: Date.now() + KEY_TTL_MS });
  ctx.replayed = false;
  sendOk(ctx, data);
}
