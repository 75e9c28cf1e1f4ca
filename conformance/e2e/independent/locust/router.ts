// The Falcon app: routes to resources, the auth and rate-limit hooks before authenticated responders, and one
// error handler rendering every ApiError (and any other exception as `internal`, without internals).
import { auditLog } from './audit.ts';
import { authenticate, rateLimit, tokenEndpoint } from './auth.ts';
import { ApiError, type Ctx, fail, jsonBody, ok, send } from './http.ts';
import { issueKey } from './idempotency.ts';
import { openapi } from './openapi.ts';
import * as res from './resources.ts';
import { PREFIX, routeInfo } from './routes.ts';
import { type Store, VERSION, VERSIONS } from './state.ts';
import { openStream } from './stream.ts';
import * as hooks from './webhooks.ts';
import { toYaml } from './yaml.ts';

export const TOKEN_PATH = '/oauth2/token';

function describe(store: Store, ctx: Ctx): void {
  ok(ctx, {
    service: 'locust',
    surface: 'public',
    version: VERSION,
    versions: [...VERSIONS],
    authentication: {
      type: 'oauth2',
      flow: 'client_credentials',
      tokenEndpoint: `${new URL(store.baseUrl).origin}${TOKEN_PATH}`,
      clientAuthentication: ['client_secret_basic', 'client_secret_post'],
      tenantHeader: 'x-service-tenant',
    },
    idempotency: { header: 'Idempotency-Key', pattern: '^[A-Za-z0-9._:-]{8,128}$', ttlSeconds: 86400 },
    webhooks: {
      events: ['connection.created', 'connection.activated', 'order.created', 'order.paid'],
      signatureHeader: 'X-Locust-Signature',
    },
    routes: routeInfo(),
  });
}

function publicRoute(store: Store, ctx: Ctx, p: string): boolean {
  const tokenUrl = `${new URL(store.baseUrl).origin}${TOKEN_PATH}`;
  if (ctx.method !== 'GET') return false;
  const o = { auditMax: store.options.auditMaxLimit, versionRequired: store.options.versionRequired };
  if (p === '') describe(store, ctx);
  else if (p === '/openapi.json') send(ctx, 200, openapi(tokenUrl, VERSION, o));
  else {
    const m = /^\/openapi\/([\d-]+)\.(json|yaml)$/.exec(p);
    if (!m?.[1] || !(VERSIONS as readonly string[]).includes(m[1])) return false;
    const doc = openapi(tokenUrl, m[1], o);
    ctx.headers['content-disposition'] = `attachment; filename="locust-openapi-${m[1]}.${m[2]}"`;
    if (m[2] === 'json') send(ctx, 200, doc);
    else send(ctx, 200, toYaml(doc), 'application/yaml');
  }
  return true;
}

function authedRoute(store: Store, ctx: Ctx, p: string): void {
  const m = ctx.method;
  const id = (re: RegExp) => re.exec(p)?.[1];
  if (m === 'GET' && p === '/info') {
    res.info(ctx);
    return;
  }
  if (m === 'GET' && p === '/providers') {
    res.listProviders(ctx);
    return;
  }
  if (m === 'GET' && p === '/connectors') {
    res.listConnectors(ctx);
    return;
  }
  if (m === 'GET' && p === '/capabilities') {
    res.listCapabilities(ctx);
    return;
  }
  if (m === 'POST' && p === '/capabilities') {
    res.checkCapability(ctx);
    return;
  }
  if (m === 'GET' && p === '/connections') {
    res.listConnections(store, ctx);
    return;
  }
  if (m === 'POST' && p === '/connections') {
    res.createConnection(store, ctx);
    return;
  }
  const conn = id(/^\/connections\/([^/]+)$/);
  if (m === 'GET' && conn) {
    res.getConnection(store, ctx, conn);
    return;
  }
  if (m === 'POST' && p === '/idempotency-keys') {
    issueKey(store, ctx, jsonBody(ctx));
    return;
  }
  if (m === 'GET' && p === '/webhooks') {
    hooks.listWebhooks(store, ctx);
    return;
  }
  if (m === 'POST' && p === '/webhooks') {
    hooks.createWebhook(store, ctx);
    return;
  }
  const hook = id(/^\/webhooks\/([^/]+)$/);
  if (m === 'GET' && hook) {
    hooks.getWebhook(store, ctx, hook);
    return;
  }
  if (m === 'DELETE' && hook) {
    hooks.deleteWebhook(store, ctx, hook);
    return;
  }
  if (m === 'GET' && p === '/webhook-deliveries') {
    hooks.listDeliveries(store, ctx);
    return;
  }
  const delivery = id(/^\/webhook-deliveries\/([^/]+)\/retry$/);
  if (m === 'POST' && delivery) {
    hooks.redeliver(store, ctx, delivery);
    return;
  }
  if (m === 'GET' && p === '/audit-log') {
    auditLog(store, ctx);
    return;
  }
  throw new ApiError('not_found', 'Resource not found.');
}

const AUTHED =
  /^\/(info|providers|connectors|capabilities|connections(\/[^/]+)?|idempotency-keys|webhooks(\/[^/]+)?|webhook-deliveries(\/[^/]+\/retry)?|audit-log)$/;

export function route(store: Store, ctx: Ctx): void {
  try {
    if (ctx.path === TOKEN_PATH) {
      tokenEndpoint(store, ctx);
      return;
    }
    if (ctx.badVersion)
      throw new ApiError('invalid_request', 'Unknown Service-Version.', `supported: ${VERSIONS.join(', ')}`);
    if (!ctx.path.startsWith(PREFIX)) throw new ApiError('not_found', 'Resource not found.');
    const p = ctx.path.slice(PREFIX.length);
    if (p === '/stream' && ctx.method === 'GET') {
      const credentials =
        ctx.req.headers.authorization !== undefined || ctx.req.headers['x-service-tenant'] !== undefined;
      if (credentials) {
        authenticate(store, ctx);
        rateLimit(store, ctx);
      }
      openStream(store, ctx, credentials ? (ctx.tenant ?? null) : null);
      return;
    }
    if (publicRoute(store, ctx, p)) return;
    // Unknown paths and methods are 404 before authentication (Falcon's default responder, enveloped).
    if (!AUTHED.test(p)) throw new ApiError('not_found', 'Resource not found.');
    authenticate(store, ctx);
    rateLimit(store, ctx);
    if (store.options.versionRequired && ctx.req.headers['service-version'] === undefined) {
      throw new ApiError('invalid_request', 'Service-Version header required.', `supported: ${VERSIONS.join(', ')}`);
    }
    authedRoute(store, ctx, p);
  } catch (e) {
    if (e instanceof ApiError) {
      fail(ctx, e);
      return;
    }
    fail(ctx, new ApiError('internal', 'Internal server error.', undefined, 'Quote meta.requestId to support.'));
  }
}
