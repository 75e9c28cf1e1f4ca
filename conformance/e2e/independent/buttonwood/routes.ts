// The route DSL: pathPrefix("api" / "public" / "v1") { public routes ~ authenticated(tenant) { throttle { ... } } }.
// An unmatched path or method is rejected as not_found (Akka's 405 has no code in the interface's table).
import { auditLog } from './audit.ts';
import { authenticate, throttle } from './auth.ts';
import { type Ctx, notFound, ok, sendJson } from './http.ts';
import { issueKey } from './idempotency.ts';
import { openApiDocument } from './openapi.ts';
import { ROUTES } from './openapi-paths.ts';
import {
  checkCapability,
  createConnection,
  getConnection,
  listCapabilities,
  listConnections,
  listConnectors,
  listProviders,
} from './resources.ts';
import { type Store, VERSION, VERSIONS, WEBHOOK_EVENTS } from './state.ts';
import { stream } from './stream.ts';
import {
  DELIVERY_HEADER,
  deleteWebhook,
  deliveryLog,
  getWebhook,
  redeliver,
  registerWebhook,
  SIGNATURE_HEADER,
} from './webhooks.ts';
import { toYaml } from './yaml.ts';

const BASE = '/api/public/v1';

function selfDescription(store: Store, ctx: Ctx): void {
  const origin = `http://${ctx.req.headers.host}`;
  ok(ctx, {
    service: 'buttonwood-network-connections',
    surface: 'public',
    version: VERSION,
    versions: VERSIONS,
    authentication: {
      type: 'oauth2',
      flows: ['client_credentials'],
      tokenEndpoint: `${origin}/oauth2/token`,
      tenantHeader: 'x-service-tenant',
      tokenLifetimeSeconds: store.options.tokenTtlSec,
    },
    idempotency: { header: 'Idempotency-Key', pattern: '^[A-Za-z0-9._:-]{8,128}$', validitySeconds: 86400 },
    routes: ROUTES.map((r) => ({ method: r.method, path: `${BASE}${r.path}`, purpose: r.purpose, auth: r.auth })),
    webhooks: { events: WEBHOOK_EVENTS, signatureHeader: SIGNATURE_HEADER, deliveryIdHeader: DELIVERY_HEADER },
    openapi: Object.fromEntries(
      VERSIONS.map((v) => [v, { json: `${BASE}/openapi/${v}.json`, yaml: `${BASE}/openapi/${v}.yaml` }]),
    ),
  });
}

function openApiFile(ctx: Ctx, file: string): unknown {
  const m = /^([\d-]+)\.(json|yaml)$/.exec(file);
  if (!m?.[1] || !VERSIONS.includes(m[1])) throw notFound(`OpenAPI file ${file}`);
  const doc = openApiDocument(m[1]);
  if (m[2] === 'json') return sendJson(ctx, 200, doc);
  const text = `${toYaml(doc)}\n`;
  ctx.res.writeHead(200, {
    ...ctx.headers,
    'content-type': 'application/yaml',
    'content-disposition': `attachment; filename="buttonwood-${file}"`,
  });
  ctx.res.end(text);
}

export function route(store: Store, ctx: Ctx): unknown {
  const method = ctx.req.method ?? 'GET';
  const p = ctx.path.replace(/\/+$/, '');
  if (!p.startsWith(BASE)) throw notFound('Route');
  const rest = p.slice(BASE.length);
  const seg = rest.split('/').filter(Boolean).map(decodeURIComponent);
  if (method === 'GET' && rest === '') return selfDescription(store, ctx);
  if (method === 'GET' && rest === '/openapi.json') return sendJson(ctx, 200, openApiDocument(ctx.version));
  if (method === 'GET' && seg[0] === 'openapi' && seg.length === 2) return openApiFile(ctx, seg[1] as string);
  if (method === 'GET' && rest === '/info') {
    ok(ctx, {
      service: 'buttonwood-network-connections',
      version: VERSION,
      build: 'sbt-0.1.0',
      runtime: 'akka-http-10.5 (node port)',
    });
    return;
  }
  if (method === 'GET' && rest === '/stream') return stream(store, ctx);
  authenticate(store, ctx);
  throttle(store, ctx);
  // Segments 1 and 3 under connections/webhooks are ids (PathMatchers.Segment).
  const nested = ['connections', 'webhooks'].includes(seg[0] as string);
  const key = `${method} /${seg.map((s, i) => (nested && (i === 1 || i === 3) ? ':id' : s)).join('/')}`;
  const [, a, , b] = seg;
  switch (key) {
    case 'GET /providers':
      return listProviders(ctx);
    case 'GET /connectors':
      return listConnectors(ctx);
    case 'GET /capabilities':
      return listCapabilities(ctx);
    case 'POST /capabilities':
      return checkCapability(ctx);
    case 'GET /connections':
      return listConnections(store, ctx);
    case 'POST /connections':
      return createConnection(store, ctx);
    case 'GET /connections/:id':
      return getConnection(store, ctx, a as string);
    case 'POST /idempotency-keys':
      return issueKey(store, ctx);
    case 'POST /webhooks':
      return registerWebhook(store, ctx);
    case 'GET /webhooks/:id':
      return getWebhook(store, ctx, a as string);
    case 'DELETE /webhooks/:id':
      return deleteWebhook(store, ctx, a as string);
    case 'GET /webhooks/:id/delivery-attempts':
      return deliveryLog(store, ctx, a as string);
    case 'POST /webhooks/:id/delivery-attempts/:id/retry':
      return redeliver(store, ctx, a as string, b as string);
    case 'GET /audit-log':
      return auditLog(store, ctx);
    default:
      throw notFound('Route');
  }
}
