// The router (what RESTEasy Reactive's resource matching does): public routes, then the authenticated
// chain: JWT -> token bucket (per client, tenant, environment) -> tenant release -> resource method.

import { authenticate, authorizeTenant, TOKEN_PATH } from './auth.ts';
import * as h from './handlers.ts';
import { openApiDocument } from './openapi.ts';
import { OPERATIONS } from './openapi-operations.ts';
import type { State } from './state.ts';
import { WEBHOOK_EVENTS } from './state.ts';
import { ApiError, type Ctx, CURRENT_VERSION, KEY_PATTERN, notFound, PUBLISHED_VERSIONS, sendData } from './util.ts';
import * as wh from './webhooks.ts';
import { toYaml } from './yaml.ts';

const P = '/api/public/v1';

function describe(ctx: Ctx): void {
  const routes = OPERATIONS.filter((o) => !o.since || o.since <= ctx.version).map((o) => ({
    method: o.method.toUpperCase(),
    path: o.path,
    purpose: o.summary,
    auth: o.auth,
  }));
  sendData(ctx, {
    service: 'network-connections (hawthorn)',
    surface: 'public',
    version: ctx.version,
    versions: PUBLISHED_VERSIONS,
    authentication: {
      scheme: 'OAuth 2.1 client credentials, bearer JWT (HS256)',
      tokenEndpoint: `${ctx.origin}${TOKEN_PATH}`,
      metadata: `${ctx.origin}/.well-known/oauth-authorization-server`,
      clientAuthentication: ['client_secret_basic', 'client_secret_post'],
      tenantHeader: 'x-service-tenant',
    },
    idempotency: {
      header: 'Idempotency-Key',
      pattern: KEY_PATTERN.source,
      validity: 'PT24H',
      issue: `POST ${P}/idempotency-keys`,
    },
    openapi: { json: `${P}/openapi/${ctx.version}.json`, yaml: `${P}/openapi/${ctx.version}.yaml` },
    webhooks: {
      events: WEBHOOK_EVENTS,
      signatureHeader: wh.SIGNATURE_HEADER,
      deliveryIdHeader: 'Hawthorn-Delivery-Id',
    },
    stream: { kinds: ['ConnectionCreated', 'ConnectionActivated'], resume: ['Last-Event-ID', 'cursor'] },
    routes,
  });
}

function openApiFile(ctx: Ctx, file: string): boolean {
  const m = /^(\d{4}-\d{2}-\d{2})\.(json|yaml)$/.exec(file);
  if (!m || !PUBLISHED_VERSIONS.includes(m[1] ?? '')) return false;
  const version = m[1] ?? CURRENT_VERSION;
  const doc = openApiDocument(ctx.origin, version);
  const yaml = m[2] === 'yaml';
  ctx.res.writeHead(200, {
    'content-type': yaml ? 'application/yaml;charset=UTF-8' : 'application/json;charset=UTF-8',
    'content-disposition': `attachment; filename="hawthorn-openapi-${version}.${m[2]}"`,
    'x-request-id': ctx.requestId,
  });
  ctx.res.end(yaml ? `${toYaml(doc).replace(/^\n/, '')}\n` : JSON.stringify(doc, null, 2));
  return true;
}

const KNOWN_QUERY: Record<string, string[]> = {
  'GET providers': ['category'],
  'GET connectors': ['capability', 'providerId', 'category'],
  'GET audit-log': ['limit', 'beforeSeq'],
};

/** strictQuery: a parameter the resource method does not declare is a 400 (the name only, not the value). */
function refuseUnknownQuery(ctx: Ctx, method: string, resource: string): void {
  const known = KNOWN_QUERY[`${method} ${resource}`] ?? [];
  for (const name of ctx.url.searchParams.keys())
    if (!known.includes(name))
      throw new ApiError(
        400,
        'invalid_request',
        'Request incomplete or unsuitable',
        `${name}: unknown query parameter`,
      );
}

/** Dispatches one call; throws ApiError for the envelope. */
export async function route(ctx: Ctx, s: State): Promise<void> {
  const method = ctx.req.method ?? 'GET';
  const path = ctx.url.pathname.replace(/\/+$/, '') || '/';
  if (method === 'GET' && path === P) return describe(ctx);
  if (method === 'GET' && path === `${P}/openapi.json`) {
    ctx.res.writeHead(200, {
      'content-type': 'application/json;charset=UTF-8',
      'x-request-id': ctx.requestId,
      'service-version': ctx.version,
    });
    ctx.res.end(JSON.stringify(openApiDocument(ctx.origin, CURRENT_VERSION)));
    return;
  }
  if (method === 'GET' && path.startsWith(`${P}/openapi/`) && openApiFile(ctx, path.slice(P.length + 9))) return;
  if (method === 'GET' && path === `${P}/stream`) return s.stream.open(ctx);
  if (!path.startsWith(`${P}/`)) throw notFound('No such resource');

  const principal = authenticate(ctx.req, s.auth);
  ctx.clientId = principal.clientId;
  const rawTenant = ctx.req.headers['x-service-tenant'];
  const bucketTenant = (Array.isArray(rawTenant) ? rawTenant[0] : rawTenant) ?? '-';
  try {
    ctx.rate = s.limiter.consume(`${principal.clientId}|${bucketTenant}|sandbox`);
  } catch (err) {
    ctx.rate = (err as { rate?: Ctx['rate'] }).rate;
    throw err;
  }
  ctx.tenant = authorizeTenant(ctx.req, s.auth);

  const seg = path.slice(P.length + 1).split('/');
  const one = seg.length === 1 ? (seg[0] ?? '') : '';
  if (s.strictQuery) refuseUnknownQuery(ctx, method, one);
  const [, id = '', , sub = ''] = seg;
  if (method === 'GET' && one === 'info') return h.info(ctx, s, principal.expiresAt);
  if (method === 'GET' && one === 'providers') return h.listProviders(ctx);
  if (method === 'GET' && one === 'connectors') return h.listConnectors(ctx);
  if (method === 'GET' && one === 'capabilities') return h.listCapabilities(ctx);
  if (method === 'POST' && one === 'capabilities') return h.checkCapability(ctx);
  if (method === 'GET' && one === 'connections') return h.listConnections(ctx, s);
  if (method === 'POST' && one === 'connections') return h.createConnection(ctx, s);
  if (method === 'POST' && one === 'idempotency-keys') return h.issueKey(ctx, s);
  if (method === 'GET' && one === 'audit-log') return h.auditLog(ctx, s);
  if (method === 'GET' && one === 'webhooks') return wh.listWebhooks(ctx, s);
  if (method === 'POST' && one === 'webhooks') return wh.registerWebhook(ctx, s);
  if (seg[0] === 'webhooks' && seg.length === 2 && method === 'DELETE') return wh.deleteWebhook(ctx, s, id);
  if (seg[0] === 'webhooks' && seg.length === 3 && seg[2] === 'delivery-attempts' && method === 'GET')
    return wh.deliveryLog(ctx, s, id);
  if (
    seg[0] === 'webhooks' &&
    seg.length === 5 &&
    seg[2] === 'delivery-attempts' &&
    seg[4] === 'resend' &&
    method === 'POST'
  )
    return wh.resendDelivery(ctx, s, id, sub);
  throw new ApiError(404, 'not_found', 'The entry does not exist', `No resource ${method} at this path`);
}
