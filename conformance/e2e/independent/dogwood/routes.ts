// The route table (controllers), the request pipeline (Kong auth + rate limit, Nest version routing,
// guards, interceptors) and the exception filter that reshapes everything into the failure envelope.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { listAudit } from './audit.ts';
import { METADATA_PATH, TOKEN_PATH } from './auth.ts';
import { download, origin, selfDescription } from './discovery.ts';
import * as h from './handlers.ts';
import { buildOpenApi } from './openapi.ts';
import type { App, Route } from './state.ts';
import { serveStream } from './stream.ts';
import {
  ApiError,
  BASE,
  type Ctx,
  CURRENT_VERSION,
  fail,
  newRequestId,
  notFound,
  ok,
  sendJson,
  VERSIONS,
} from './util.ts';
import * as w from './webhook-routes.ts';

export const ROUTES: Route[] = [
  {
    method: 'GET',
    path: BASE,
    purpose: 'self-description',
    auth: false,
    handle: (_a, ctx) => selfDescription(ctx, ROUTES),
  },
  {
    method: 'GET',
    path: `${BASE}/openapi.json`,
    purpose: 'OpenAPI 3.1 document',
    auth: false,
    handle: (_a, ctx) => void sendJson(ctx.res, 200, buildOpenApi(ROUTES, origin(ctx))),
  },
  {
    method: 'GET',
    path: `${BASE}/openapi/{file}`,
    purpose: 'OpenAPI document per version as a download (<version>.json or <version>.yaml)',
    auth: false,
    handle: (_a, ctx, p) => download(ctx, p.file ?? '', ROUTES),
  },
  {
    method: 'GET',
    path: `${BASE}/info`,
    purpose: 'the calling access: tenant, client, environment',
    auth: true,
    handle: h.info,
  },
  { method: 'GET', path: `${BASE}/providers`, purpose: 'list providers', auth: true, handle: h.listProviders },
  { method: 'GET', path: `${BASE}/connectors`, purpose: 'list connectors', auth: true, handle: h.listConnectors },
  {
    method: 'GET',
    path: `${BASE}/capabilities`,
    purpose: 'capability catalog',
    auth: true,
    handle: h.listCapabilities,
  },
  {
    method: 'POST',
    path: `${BASE}/capabilities`,
    purpose: 'check a capability of a connector',
    auth: true,
    handle: h.checkCapability,
  },
  {
    method: 'GET',
    path: `${BASE}/connections`,
    purpose: 'connections of the tenant',
    auth: true,
    handle: h.listConnections,
  },
  {
    method: 'POST',
    path: `${BASE}/connections`,
    purpose: 'create a connection',
    auth: true,
    key: true,
    handle: h.createConnection,
  },
  {
    method: 'POST',
    path: `${BASE}/idempotency-keys`,
    purpose: 'generate an idempotency key',
    auth: true,
    handle: h.createIdempotencyKey,
  },
  {
    method: 'GET',
    path: `${BASE}/stream`,
    purpose: 'status stream (Server-Sent Events)',
    auth: false,
    handle: (a, ctx) => serveStream(a.state, ctx, () => undefined),
  },
  {
    method: 'POST',
    path: `${BASE}/webhooks`,
    purpose: 'create a webhook receiver',
    auth: true,
    key: true,
    handle: w.createWebhook,
  },
  {
    method: 'GET',
    path: `${BASE}/webhooks`,
    purpose: 'webhook receivers of the tenant',
    auth: true,
    handle: w.listWebhooks,
  },
  {
    method: 'GET',
    path: `${BASE}/webhooks/{webhookId}`,
    purpose: 'one webhook receiver',
    auth: true,
    handle: w.getWebhook,
  },
  {
    method: 'DELETE',
    path: `${BASE}/webhooks/{webhookId}`,
    purpose: 'remove a webhook receiver',
    auth: true,
    key: true,
    handle: w.deleteWebhook,
  },
  {
    method: 'GET',
    path: `${BASE}/webhooks/{webhookId}/delivery-attempts`,
    purpose: 'delivery log of a receiver (page, pageSize)',
    auth: true,
    since: '2026-07-01',
    handle: w.listDeliveries,
  },
  {
    method: 'POST',
    path: `${BASE}/webhooks/{webhookId}/delivery-attempts/{attemptId}/resend`,
    purpose: 'trigger a logged delivery again',
    auth: true,
    key: true,
    since: '2026-07-01',
    handle: w.resendDelivery,
  },
  {
    method: 'GET',
    path: `${BASE}/audit-log`,
    purpose: 'audit log of the tenant with a hash-chain proof',
    auth: true,
    handle: (a, ctx) => listAudit(a.state, ctx),
  },
];

const MATCHERS = ROUTES.map((r) => ({
  route: r,
  re: new RegExp(`^${r.path.replace(/\./g, '\\.').replace(/\{(\w+)\}/g, '(?<$1>[^/]+)')}$`),
}));

export async function dispatch(app: App, req: IncomingMessage, res: ServerResponse): Promise<void> {
  const url = new URL(req.url ?? '/', 'http://localhost');
  let path = url.pathname;
  if (path.length > 1 && path.endsWith('/')) path = path.slice(0, -1);
  const ctx: Ctx = { req, res, requestId: newRequestId(), version: CURRENT_VERSION, path, query: url.searchParams };
  res.setHeader('x-request-id', ctx.requestId);
  res.setHeader('via', 'kong/3.7.1');
  try {
    const method = req.method === 'HEAD' ? 'GET' : req.method;
    if (method === 'POST' && path === TOKEN_PATH) {
      const chunks: Buffer[] = [];
      for await (const c of req) chunks.push(c as Buffer);
      return await app.auth.token(req, res, Buffer.concat(chunks).toString('utf8'));
    }
    if (method === 'GET' && path === METADATA_PATH) return sendJson(res, 200, app.auth.metadata(origin(ctx)));
    let found: { route: Route; params: Record<string, string> } | undefined;
    for (const m of MATCHERS) {
      const hit = m.re.exec(path);
      if (hit && m.route.method === method) found = { route: m.route, params: { ...hit.groups } };
    }
    if (!found) throw notFound(`Cannot ${req.method} ${path}`);
    const { route, params } = found;
    const asked = req.headers['service-version'];
    if (typeof asked === 'string' && VERSIONS.includes(asked)) ctx.version = asked;
    if (!route.auth && app.state.opts.limitPublic) {
      const limits = app.limiter.take(`ip|${req.socket.remoteAddress}`);
      for (const [k, v] of Object.entries(limits)) res.setHeader(k, v);
    }
    if (route.auth) {
      app.auth.guard(ctx);
      const limits = app.limiter.take(`${ctx.clientId}|${ctx.tenant}|sandbox`);
      for (const [k, v] of Object.entries(limits)) res.setHeader(k, v);
      // Nest header versioning: an unknown version matches no handler (404); none means the default.
      if (typeof asked === 'string' && !VERSIONS.includes(asked))
        throw notFound(`Cannot ${req.method} ${path} (Service-Version ${asked})`);
      if (asked === undefined && app.state.opts.serviceVersionRequired) {
        throw new ApiError(
          400,
          'invalid_request',
          'Request incomplete or unsuitable',
          'header Service-Version missing',
          `Send Service-Version: ${CURRENT_VERSION}`,
        );
      }
      if (route.since && ctx.version < route.since)
        throw notFound(`Cannot ${req.method} ${path} in version ${ctx.version}`);
    }
    const data = await route.handle(app, ctx, params);
    if (data !== undefined) ok(ctx, data);
  } catch (e) {
    if (e instanceof ApiError) return fail(ctx, e);
    fail(
      ctx,
      new ApiError(
        500,
        'internal',
        'Fault on the service side',
        undefined,
        'Note the request identifier and inform support',
      ),
    );
  }
}
