// The route table and the request pipeline: route match, then auth (401/400/403), rate limit (429),
// then the handler (idempotency key, body, validation). Unknown routes answer 404 not_found.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { authenticate, metadata, tokenEndpoint } from './auth.ts';
import * as h from './handlers.ts';
import { ApiError, BASE, type Ctx, fail, internal, newCtx, notFound, ok, readRaw } from './http-kit.ts';
import { openapiDocument } from './openapi.ts';
import type { State } from './state.ts';
import * as w from './webhook-routes.ts';
import { toYaml } from './yaml.ts';

export interface Route {
  method: string;
  path: string;
  auth: boolean;
  purpose: string;
  run: (s: State, ctx: Ctx, id: string) => void;
}

export const ROUTES: Route[] = [
  {
    method: 'GET',
    path: '',
    auth: false,
    purpose: 'self-description',
    run: (s, ctx) => ok(ctx, selfDescription(s, ctx)),
  },
  {
    method: 'GET',
    path: '/openapi.json',
    auth: false,
    purpose: 'OpenAPI 3.1 document',
    run: (_s, ctx) => raw(ctx, 'application/json', JSON.stringify(openapiDocument())),
  },
  {
    method: 'GET',
    path: '/openapi.yaml',
    auth: false,
    purpose: 'OpenAPI 3.1 document as YAML',
    run: (_s, ctx) => raw(ctx, 'application/yaml', toYaml(openapiDocument())),
  },
  {
    method: 'GET',
    path: '/stream',
    auth: false,
    purpose: 'status stream (Server-Sent Events)',
    run: (s, ctx) => s.stream.open(ctx),
  },
  { method: 'GET', path: '/info', auth: true, purpose: 'the access and tenant of the call', run: h.info },
  { method: 'GET', path: '/providers', auth: true, purpose: 'list providers', run: h.listProviders },
  { method: 'GET', path: '/connectors', auth: true, purpose: 'list connectors', run: h.listConnectors },
  { method: 'GET', path: '/capabilities', auth: true, purpose: 'capability catalog', run: h.listCapabilities },
  {
    method: 'POST',
    path: '/capabilities',
    auth: true,
    purpose: 'check a capability of a connector',
    run: h.checkCapability,
  },
  { method: 'GET', path: '/connections', auth: true, purpose: 'connections of the tenant', run: h.listConnections },
  { method: 'POST', path: '/connections', auth: true, purpose: 'create a connection', run: h.createConnection },
  {
    method: 'POST',
    path: '/idempotency-keys',
    auth: true,
    purpose: 'generate an idempotency key',
    run: h.createIdempotencyKey,
  },
  { method: 'GET', path: '/webhooks', auth: true, purpose: 'list webhook receivers', run: w.listWebhooks },
  { method: 'POST', path: '/webhooks', auth: true, purpose: 'create a webhook receiver', run: w.registerWebhook },
  { method: 'GET', path: '/webhooks/{id}', auth: true, purpose: 'one webhook receiver', run: w.getWebhook },
  { method: 'DELETE', path: '/webhooks/{id}', auth: true, purpose: 'remove a webhook receiver', run: w.deleteWebhook },
  {
    method: 'GET',
    path: '/webhook-deliveries',
    auth: true,
    purpose: 'delivery log (filter webhook_id=eq.<id>)',
    run: w.listDeliveries,
  },
  {
    method: 'POST',
    path: '/webhook-deliveries/{id}/retry',
    auth: true,
    purpose: 'trigger a logged delivery again',
    run: w.retryDelivery,
  },
  {
    method: 'GET',
    path: '/audit-log',
    auth: true,
    purpose: 'audit log with Merkle proof',
    run: (s, ctx) => ok(ctx, s.audit.page(ctx.access?.tenant ?? '', ctx.url.searchParams)),
  },
];

function raw(ctx: Ctx, type: string, body: string): void {
  ctx.res.writeHead(200, {
    'content-type': `${type}; charset=utf-8`,
    'x-request-id': ctx.requestId,
    'cache-control': 'public, max-age=300',
  });
  ctx.res.end(body);
}

function selfDescription(s: State, ctx: Ctx) {
  return {
    service: 'network-connections',
    surface: 'public',
    version: ctx.version,
    authentication: {
      scheme: 'bearer',
      flows: ['client_credentials', 'refresh_token'],
      tokenEndpoint: `${s.authOrigin}/auth/v1/token`,
      metadata: `${s.authOrigin}/.well-known/oauth-authorization-server`,
      tenantHeader: 'x-service-tenant',
      tokenLifetimeSeconds: s.auth.tokenTtlSec,
    },
    idempotency: {
      header: 'Idempotency-Key',
      pattern: '^[A-Za-z0-9._:-]{8,128}$',
      ttlSeconds: Math.round(s.idem.ttlMs / 1000),
      requiredOn: [
        'POST /connections',
        'POST /webhooks',
        'DELETE /webhooks/{id}',
        'POST /webhook-deliveries/{id}/retry',
      ],
    },
    webhooks: {
      events: ['connection.created', 'connection.activated', 'order.created', 'order.paid'],
      signatureHeader: 'Webhook-Signature',
      deliveryIdHeader: 'Webhook-Id',
    },
    routes: ROUTES.map((r) => ({ method: r.method, path: `${BASE}${r.path}`, purpose: r.purpose, auth: r.auth })),
  };
}

/** The query parameters each route reads (PostgREST refuses a filter on an unknown column). */
const QUERY: Record<string, string[]> = {
  'GET /providers': ['category'],
  'GET /connectors': ['capability', 'providerId', 'category'],
  'GET /stream': ['cursor'],
  'GET /audit-log': ['limit', 'before'],
  'GET /webhook-deliveries': ['webhook_id', 'event', 'status'],
};

function strictQuery(ctx: Ctx, route: Route): void {
  const known = QUERY[`${route.method} ${route.path}`] ?? [];
  const unknown = [...ctx.url.searchParams.keys()].filter((k) => !known.includes(k));
  if (unknown.length)
    throw new ApiError(
      400,
      'invalid_request',
      'unknown query parameter',
      `not read by this endpoint: ${unknown.join(', ')}`,
    );
}

function match(path: string, method: string): { route?: Route; id: string; pathKnown: boolean } {
  if (!path.startsWith(BASE)) return { id: '', pathKnown: false };
  const rest = path.slice(BASE.length);
  let pathKnown = false;
  for (const r of ROUTES) {
    const re = new RegExp(`^${r.path.replace('{id}', '([A-Za-z0-9_-]{1,80})')}$`);
    const m = re.exec(rest);
    if (!m) continue;
    pathKnown = true;
    if (r.method === method || (method === 'HEAD' && r.method === 'GET' && !r.auth))
      return { route: r, id: m[1] ?? '', pathKnown };
  }
  return { id: '', pathKnown };
}

/** `role`: which server answers: the API, the authorization server, or both on one origin. */
export async function handle(
  s: State,
  req: IncomingMessage,
  res: ServerResponse,
  role: 'api' | 'auth' | 'both',
): Promise<void> {
  const ctx = newCtx(req, res);
  try {
    if (role === 'auth' && !ctx.path.startsWith('/auth/') && !ctx.path.startsWith('/.well-known/'))
      throw notFound('no such route');
    const authHere = role !== 'api';
    if (authHere && ctx.path === '/.well-known/oauth-authorization-server' && ctx.method === 'GET') {
      // RFC 8414 §3.3: the issuer is the address the metadata was fetched from (either base address).
      res.writeHead(200, { 'content-type': 'application/json' });
      return void res.end(JSON.stringify(metadata(`http://${req.headers.host ?? s.origin.slice(7)}`)));
    }
    if (authHere && ctx.path === '/auth/v1/token' && ctx.method === 'POST')
      return tokenEndpoint(s.auth, req, res, await readRaw(req), ctx.url);
    const { route, id, pathKnown } = match(ctx.path, ctx.method);
    if (!route)
      throw pathKnown
        ? new ApiError(404, 'not_found', `no route ${ctx.method} ${ctx.path}`)
        : notFound('no such route');
    if (s.options.strictQuery) strictQuery(ctx, route);
    if (route.auth) {
      ctx.access = authenticate(s.auth, req);
      const a = ctx.access;
      ctx.rateHeaders = s.limiter.take(`${a.clientId}|${a.tenant}|${a.environment}`);
    }
    ctx.raw = await readRaw(req);
    route.run(s, ctx, id);
  } catch (e) {
    if (e instanceof ApiError) return fail(ctx, e);
    internal(ctx);
  }
}
