// The Router: BodyHandler, Service-Version, route matching, the JWT auth handler with the tenant check and
// rate limit, the idempotency handler, the success envelope, and the failure handler that maps every
// exception to the failure envelope (an unknown exception is a 500 `internal` with no internal detail).
import type { IncomingMessage, ServerResponse } from 'node:http';
import { missingTenant, REALM_PATH, TOKEN_PATH } from './auth.ts';
import { IdempotencyStore } from './idempotency.ts';
import { match } from './routes.ts';
import type { App } from './state.ts';
import type { RoutingContext } from './types.ts';
import {
  API,
  badRequest,
  CURRENT_VERSION,
  HttpException,
  isoNow,
  parseJson,
  readBody,
  uuid,
  VERSIONS,
} from './util.ts';

function meta(ctx: RoutingContext, replayed?: boolean): Record<string, unknown> {
  const m: Record<string, unknown> = { requestId: ctx.requestId, version: ctx.version, at: isoNow() };
  if (ctx.idempotencyKey !== undefined) {
    m.idempotencyKey = ctx.idempotencyKey;
    m.replayed = replayed ?? false;
  }
  return m;
}

function sendJson(ctx: RoutingContext, status: number, body: unknown, extra: Record<string, string> = {}): void {
  if (ctx.res.headersSent) {
    ctx.res.end();
    return;
  }
  ctx.res.writeHead(status, { ...ctx.headers, ...extra, 'content-type': 'application/json; charset=utf-8' });
  ctx.res.end(JSON.stringify(body));
}

function failureHandler(ctx: RoutingContext, err: unknown): void {
  const e =
    err instanceof HttpException
      ? err
      : new HttpException(
          500,
          'internal',
          'Internal Server Error',
          undefined,
          'Note the request identifier and inform support',
        );
  const error: Record<string, unknown> = { code: e.code, message: e.message };
  if (e.detail) error.detail = e.detail;
  if (e.hint) error.hint = e.hint;
  const extra: Record<string, string> = { ...e.headers };
  if (e.statusCode === 401) extra['WWW-Authenticate'] = 'Bearer realm="almond"';
  sendJson(ctx, e.statusCode, { ok: false, error, meta: meta(ctx) }, extra);
}

export function createRouter(app: App) {
  const inFlight = new Map<string, Promise<void>>();

  async function dispatch(ctx: RoutingContext): Promise<void> {
    ctx.rawBody = await readBody(ctx.req);
    if (ctx.path === TOKEN_PATH && ctx.method === 'POST') return app.realm.token(ctx.req, ctx.res, ctx.rawBody);
    if (ctx.method === 'GET' && ctx.path === `${REALM_PATH}/.well-known/openid-configuration`) {
      ctx.res.writeHead(200, { 'content-type': 'application/json' });
      ctx.res.end(JSON.stringify(app.realm.metadata(ctx.req)));
      return;
    }
    const sv = ctx.req.headers['service-version'];
    if (typeof sv === 'string' && sv.trim() !== '') {
      if (VERSIONS.includes(sv.trim())) ctx.version = sv.trim();
      else if (app.settings.unknownVersion === 'reject')
        throw badRequest(`Unsupported Service-Version ${sv.trim()}: one of ${VERSIONS.join(', ')}`);
    }
    ctx.headers['Service-Version'] = ctx.version;
    if (ctx.path !== API && !ctx.path.startsWith(`${API}/`))
      throw new HttpException(404, 'not_found', 'Not Found', `No route for ${ctx.path}`);
    const found = match(ctx.method, ctx.path.slice(API.length));
    if (found === undefined)
      throw new HttpException(404, 'not_found', 'Not Found', `No route for ${ctx.method} ${ctx.path}`);
    if (found === 'method')
      throw new HttpException(404, 'not_found', 'Method Not Allowed', `No ${ctx.method} route for ${ctx.path}`);
    const { route, params } = found;
    ctx.params = params;
    if (route.auth) {
      ctx.clientId = app.realm.verify(ctx.req.headers.authorization);
      const tenant = ctx.req.headers['x-service-tenant'];
      const counted = typeof tenant === 'string' && tenant !== '' ? tenant : '-';
      app.limiter.consume(ctx.clientId, counted, ctx.headers);
      if (counted === '-') throw missingTenant();
      app.realm.release(ctx.clientId, counted);
      ctx.tenant = counted;
    }
    const key = ctx.req.headers['idempotency-key'];
    if (route.key === 'required' && (typeof key !== 'string' || key === ''))
      throw new HttpException(
        428,
        'idempotency_required',
        'Precondition Required',
        'Header Idempotency-Key is required for this call',
        'Send the key',
      );
    if (route.key !== 'none' && typeof key === 'string' && key !== '') {
      IdempotencyStore.validate(key);
      ctx.idempotencyKey = key;
    }
    if (['POST', 'PUT', 'PATCH', 'DELETE'].includes(ctx.method)) ctx.body = parseJson(ctx.rawBody);
    if (ctx.idempotencyKey === undefined) {
      const reply = await route.handler(ctx, app);
      if (reply) sendJson(ctx, reply.status ?? 200, { ok: true, data: reply.data, meta: meta(ctx) });
      return;
    }
    const scope = `${ctx.clientId}\u0000${ctx.tenant}`;
    const lock = `${scope}\u0000${ctx.idempotencyKey}`;
    const fingerprint = IdempotencyStore.fingerprint(ctx.method, ctx.path, ctx.body);
    for (let pending = inFlight.get(lock); pending; pending = inFlight.get(lock)) await pending.catch(() => undefined);
    const stored = app.idempotency.lookup(scope, ctx.idempotencyKey, fingerprint);
    if (stored) {
      sendJson(ctx, stored.status ?? 200, { ok: true, data: stored.replay ?? stored.data, meta: meta(ctx, true) });
      return;
    }
    let release = () => {};
    inFlight.set(lock, new Promise<void>((resolve) => (release = resolve)));
    try {
      const reply = await route.handler(ctx, app);
      if (!reply) return;
      app.idempotency.store(scope, ctx.idempotencyKey, fingerprint, reply);
      sendJson(ctx, reply.status ?? 200, { ok: true, data: reply.data, meta: meta(ctx, false) });
    } finally {
      inFlight.delete(lock);
      release();
    }
  }

  return (req: IncomingMessage, res: ServerResponse): void => {
    const requestId = uuid();
    const url = new URL(req.url ?? '/', 'http://localhost');
    const path = url.pathname.length > 1 ? url.pathname.replace(/\/+$/, '') : url.pathname;
    const ctx: RoutingContext = {
      req,
      res,
      method: req.method ?? 'GET',
      path,
      params: {},
      query: url.searchParams,
      rawBody: '',
      body: undefined,
      requestId,
      version: CURRENT_VERSION,
      headers: { 'X-Request-Id': requestId },
    };
    dispatch(ctx).catch((err: unknown) => failureHandler(ctx, err));
  };
}
