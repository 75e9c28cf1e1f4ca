// Dispatch: public documents (cached by "Varnish"), then authentication, rate counting, the Service-Version
// header and the route. Unknown paths and methods answer 404 not_found (405 is no interface status).
import type { IncomingMessage, ServerResponse } from 'node:http';
import { authenticate, metadata, TOKEN_PATH, tokenEndpoint } from './auth.ts';
import { API, VERSION, VERSIONS } from './catalog.ts';
import { checkCapability, listCapabilities, listConnectors, listProviders } from './catalog-routes.ts';
import { createConnectionRoute, getConnection, issueKey, listConnections } from './connection-routes.ts';
import { ApiError, baseHeaders, type Ctx, fail, newCtx, ok } from './http-util.ts';
import { buildOpenApi } from './openapi.ts';
import { ROUTES } from './routes-table.ts';
import type { State } from './state.ts';
import { auditLog, createWebhook, deleteWebhook, listDeliveries, retryDelivery } from './webhook-routes.ts';
import { toYaml } from './yaml.ts';

const CACHED_AT = Date.now();
const DOC = JSON.stringify(buildOpenApi());
const YAML = toYaml(buildOpenApi());

function describe(ctx: Ctx) {
  ok(
    ctx,
    {
      service: 'Network Connections Service',
      surface: 'public',
      version: VERSION,
      versions: VERSIONS,
      authentication: {
        type: 'oauth2',
        flows: ['client_credentials'],
        tokenEndpoint: `${ctx.origin}${TOKEN_PATH}`,
        metadata: `${ctx.origin}/.well-known/oauth-authorization-server`,
        tenantHeader: 'x-service-tenant',
        tokenFormat: 'JWT (HS256)',
      },
      idempotency: {
        header: 'Idempotency-Key',
        pattern: '^[A-Za-z0-9._:-]{8,128}$',
        requiredOn: ROUTES.filter((r) => r.key).map((r) => `${r.method} ${API}${r.path === '/' ? '' : r.path}`),
        retention: 'PT24H',
      },
      webhooks: {
        events: ['connection.provisioned', 'connection.activated', 'order.created', 'order.paid'],
        signatureHeader: 'Webhook-Signature',
        deliveryIdHeader: 'Webhook-Id',
      },
      documents: { json: `${API}/openapi/${VERSION}.json`, yaml: `${API}/openapi/${VERSION}.yaml` },
      routes: ROUTES.map((r) => ({
        method: r.method,
        path: r.path === '/' ? API : `${API}${r.path}`,
        purpose: r.purpose,
        auth: r.auth,
      })),
    },
    {},
    { 'cache-control': 'public, max-age=60' },
  );
}

function document(ctx: Ctx, body: string, type: string) {
  const age = Math.floor((Date.now() - CACHED_AT) / 1000);
  ctx.res.writeHead(200, {
    'content-type': type,
    'cache-control': 'public, max-age=300, s-maxage=3600',
    ...baseHeaders(ctx, age),
    'x-cache': 'HIT',
    'content-length': String(Buffer.byteLength(body)),
  });
  ctx.res.end(body);
}

function match(method: string, rel: string): { route?: (typeof ROUTES)[number]; id?: string; pathKnown: boolean } {
  let pathKnown = false;
  for (const r of ROUTES) {
    const re = new RegExp(`^${r.path.replace(/\{\w+\}/g, '([^/]+)')}$`);
    const m = re.exec(rel);
    if (!m) continue;
    pathKnown = true;
    if (r.method === method) return { route: r, id: m[1] ? decodeURIComponent(m[1]) : undefined, pathKnown };
  }
  return { pathKnown };
}

async function route(s: State, ctx: Ctx): Promise<void> {
  const sv = ctx.req.headers['service-version'];
  if (typeof sv === 'string' && sv !== '') {
    if (!VERSIONS.includes(sv))
      throw new ApiError('invalid_request', `Service-Version: unknown version "${sv}". Known: ${VERSIONS.join(', ')}.`);
    ctx.version = sv;
  } else if (s.opts.serviceVersionRequired) {
    throw new ApiError(
      'invalid_request',
      'Service-Version: This header is required.',
      `Send Service-Version: ${VERSION}.`,
    );
  }
  if (!ctx.path.startsWith(API)) throw new ApiError('not_found', `No route found for "${ctx.method} ${ctx.path}".`);
  const rel = ctx.path.slice(API.length) || '/';
  if (ctx.method === 'GET' && rel === `/openapi/${VERSION}.json`)
    return document(ctx, DOC, 'application/json; charset=utf-8');
  if (ctx.method === 'GET' && rel === `/openapi/${VERSION}.yaml`)
    return document(ctx, YAML, 'application/yaml; charset=utf-8');
  const { route: r, id, pathKnown } = match(ctx.method, rel);
  if (!r)
    throw new ApiError(
      'not_found',
      `No route found for "${ctx.method} ${ctx.path}"${pathKnown ? ': method not allowed' : ''}.`,
    );
  const streamWithToken = r.operationId === 'stream' && ctx.req.headers.authorization !== undefined;
  if (r.auth || streamWithToken) {
    authenticate(s.opts, ctx);
    s.limiter.hit(ctx, `${ctx.clientId}|${ctx.tenant}|sandbox`);
  } else {
    s.limiter.hit(ctx, `public|${ctx.req.socket.remoteAddress}`);
  }
  switch (r.operationId) {
    case 'describe':
      return describe(ctx);
    case 'openapi':
      return document(ctx, DOC, 'application/json; charset=utf-8');
    case 'info':
      return ok(ctx, {
        tenant: ctx.tenant,
        clientId: ctx.clientId,
        environment: 'sandbox',
        purpose: 'conformance and integration tests',
        owner: 'platform-team@yarrow.example',
        rateLimit: { limit: s.opts.rateLimit, windowSeconds: s.opts.windowMs / 1000 },
      });
    case 'listProviders':
      return listProviders(ctx);
    case 'listConnectors':
      return listConnectors(ctx);
    case 'listCapabilities':
      return listCapabilities(ctx);
    case 'checkCapability':
      return checkCapability(ctx, s.opts.unknownConnectorDecided);
    case 'listConnections':
      return listConnections(s, ctx);
    case 'createConnection':
      return createConnectionRoute(s, ctx);
    case 'getConnection':
      return getConnection(s, ctx, id ?? '');
    case 'issueIdempotencyKey':
      return issueKey(ctx);
    case 'stream':
      return s.hub.serve(ctx, ctx.tenant ? `tenant:${ctx.tenant}` : 'public');
    case 'createWebhook':
      return createWebhook(s, ctx);
    case 'deleteWebhook':
      return deleteWebhook(s, ctx, id ?? '');
    case 'listWebhookDeliveries':
      return listDeliveries(s, ctx);
    case 'retryWebhookDelivery':
      return retryDelivery(s, ctx, id ?? '');
    case 'auditLog':
      return auditLog(s, ctx);
  }
}

export function createHandler(s: State) {
  return async (req: IncomingMessage, res: ServerResponse) => {
    const url = req.url ?? '/';
    if (req.method === 'POST' && url.split('?')[0] === TOKEN_PATH) return tokenEndpoint(s.opts, req, res);
    if (req.method === 'GET' && url.startsWith('/.well-known/oauth-authorization-server')) {
      res.writeHead(200, { 'content-type': 'application/json', 'cache-control': 'public, max-age=3600' });
      return res.end(JSON.stringify(metadata(`http://${req.headers.host ?? '127.0.0.1'}`)));
    }
    const ctx = newCtx(req, res);
    try {
      await route(s, ctx);
    } catch (e) {
      if (res.headersSent) return void res.end();
      if (e instanceof ApiError) return fail(ctx, e, s.opts.violationsField);
      console.error('yarrow: internal error', e);
      fail(ctx, new ApiError('internal'));
    }
  };
}
