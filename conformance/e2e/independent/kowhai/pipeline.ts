// The request pipeline in Express's order: requestId and x-powered-by, the token endpoint, Service-Version,
// the public router, then authenticate + rateLimit + the private router, idempotency, the handler, and the
// error handler writing the failure envelope (404 for no route).
import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { openStream } from './events.ts';
import { fail, HttpError, jsonBody, ok, parseQs, sendJson } from './http.ts';
import { openApiDocument, toYaml } from './openapi.ts';
import { type Route, selfDescription } from './routes.ts';
import type { App, Ctx } from './types.ts';
import { CURRENT_VERSION, PREFIX, VERSIONS } from './types.ts';

export interface Pipeline {
  app: App;
  routes: Route[];
  streams: Set<ServerResponse>;
}

function publicRoute(p: Pipeline, ctx: Ctx, route: Route) {
  const origin = `http://${ctx.req.headers.host ?? '127.0.0.1'}`;
  const tokenUrl = `${origin}${p.app.tokenPath}`;
  if (route.path === PREFIX) return ok(ctx, selfDescription(p.app, p.routes, origin));
  if (route.path.endsWith('/openapi.json'))
    return sendJson(ctx.req, ctx.res, 200, openApiDocument(p.routes, ctx.version, tokenUrl));
  if (route.path.endsWith('/info'))
    return ok(ctx, {
      service: 'kowhai',
      version: ctx.version,
      environment: 'sandbox',
      serverTime: new Date().toISOString(),
    });
  if (route.path.endsWith('/openapi/{file}')) {
    const m = /^(\d{4}-\d{2}-\d{2})\.(json|yaml)$/.exec(ctx.params.file ?? '');
    if (!m?.[1] || !VERSIONS.includes(m[1])) throw new HttpError(404, 'not_found', 'No such OpenAPI file.');
    const doc = openApiDocument(p.routes, m[1], tokenUrl);
    const body = m[2] === 'json' ? JSON.stringify(doc, null, 2) : `${toYaml(doc).slice(1)}\n`;
    ctx.res.writeHead(200, {
      'Content-Type': m[2] === 'json' ? 'application/json; charset=utf-8' : 'application/yaml; charset=utf-8',
      'Content-Disposition': `attachment; filename="kowhai-openapi-${m[1]}.${m[2]}"`,
    });
    ctx.res.end(body);
    return;
  }
  if (route.path.endsWith('/stream')) {
    let tenant: string | undefined;
    if (ctx.req.headers.authorization) tenant = p.app.oauth.authenticate(ctx.req).tenant;
    return openStream(ctx, tenant, p.streams);
  }
}

async function dispatch(p: Pipeline, ctx: Ctx): Promise<void> {
  const { app } = p;
  const tokenPath = new RegExp(`^${app.tokenPath}/?$`, 'i');
  if (tokenPath.test(ctx.path)) return app.oauth.token(ctx.req, ctx.res);
  const header = ctx.req.headers['service-version'];
  const asked = Array.isArray(header) ? header[0] : header;
  if (asked !== undefined && !VERSIONS.includes(asked)) {
    if (app.settings.unknownVersion === 'reject')
      throw new HttpError(
        400,
        'invalid_request',
        'Unknown Service-Version.',
        `headers.Service-Version: one of ${VERSIONS.join(', ')}`,
      );
  } else if (asked) ctx.version = asked;
  ctx.res.setHeader('Service-Version', ctx.version);
  const byPath = p.routes.filter((r) => r.regex.test(ctx.path));
  const route = byPath.find((r) => r.method === ctx.method);
  if (route) {
    const m = route.regex.exec(ctx.path);
    route.names.forEach((n, i) => {
      ctx.params[n] = decodeURIComponent(m?.[i + 1] ?? '');
    });
  }
  if (route && !route.auth) return publicRoute(p, ctx, route);
  if (!ctx.path.toLowerCase().startsWith(PREFIX))
    throw new HttpError(404, 'not_found', `Cannot ${ctx.method} ${ctx.path}`);
  const who = app.oauth.authenticate(ctx.req);
  ctx.clientId = who.clientId;
  ctx.tenant = who.tenant;
  app.limiter.hit(`${who.clientId}:${who.tenant}`, ctx.res);
  if (!route?.handler) throw new HttpError(404, 'not_found', `Cannot ${ctx.method} ${ctx.path}`);
  const key = app.idempotency.key(ctx, route.key === 'required');
  ctx.idempotencyKey = route.key === 'none' ? undefined : key;
  ctx.body = ctx.method === 'POST' ? await jsonBody(ctx.req) : undefined;
  if (ctx.idempotencyKey) {
    const replay = app.idempotency.lookup(ctx, route.path, ctx.idempotencyKey);
    if (replay) return ok(ctx, replay.data, { idempotencyKey: ctx.idempotencyKey, replayed: true });
  }
  const answer = route.handler(ctx);
  if (ctx.idempotencyKey) app.idempotency.save(ctx, route.path, ctx.idempotencyKey, answer);
  ok(ctx, answer.data, ctx.idempotencyKey ? { idempotencyKey: ctx.idempotencyKey, replayed: false } : {});
  answer.after?.();
}

export async function handle(p: Pipeline, req: IncomingMessage, res: ServerResponse): Promise<void> {
  const url = new URL(req.url ?? '/', 'http://localhost');
  const ctx: Ctx = {
    app: p.app,
    req,
    res,
    requestId: randomUUID(),
    version: CURRENT_VERSION,
    method: (req.method ?? 'GET').toUpperCase(),
    path: url.pathname.length > 1 ? url.pathname.replace(/\/$/, '') : url.pathname,
    query: parseQs(url.search),
    params: {},
    body: undefined,
    clientId: '',
    tenant: '',
  };
  res.setHeader('X-Powered-By', 'Express');
  res.setHeader('X-Request-Id', ctx.requestId);
  try {
    await dispatch(p, ctx);
  } catch (e) {
    if (res.headersSent) {
      res.end();
      return;
    }
    const err =
      e instanceof HttpError
        ? e
        : new HttpError(
            500,
            'internal',
            'Internal Server Error',
            undefined,
            'Quote the request identifier to support.',
          );
    fail(ctx, err);
  }
}
