// The interceptor chain of one request: version, auth + tenant, rate limit, idempotency, then the handler;
// the error interceptor at the edge turns any throw into the failure envelope.

import { auditLog } from './audit.ts';
import { authenticate, rateLimit, serviceVersion, TOKEN_PATH, tokenEndpoint } from './auth.ts';
import { type Ctx, fail, jsonBody, ok, sendError, sendJson, str } from './http.ts';
import { idempotent, issueKey } from './idempotency.ts';
import { openapi, P, ROUTES, toYaml } from './openapi.ts';
import * as r from './resources.ts';
import { DEPLOYMENT_ENV, type Rec, VERSION, VERSIONS } from './state.ts';
import { stream } from './stream.ts';
import * as w from './webhooks.ts';

function describe(): Rec {
  return {
    service: 'network-connections',
    surface: 'public',
    version: VERSION,
    versions: VERSIONS,
    environment: DEPLOYMENT_ENV,
    authentication: {
      type: 'oauth2',
      flow: 'client_credentials',
      tokenUrl: TOKEN_PATH,
      tenantHeader: 'x-service-tenant',
    },
    idempotency: { header: 'Idempotency-Key', pattern: '^[A-Za-z0-9._:-]{8,128}$', ttlHours: 24 },
    webhooks: {
      events: ['connection.created', 'connection.activated', 'order.created', 'order.paid'],
      signatureHeader: 'X-Cassia-Signature',
    },
    routes: ROUTES.map(([method, path, purpose, auth]) => ({ method, path, purpose, auth })),
  };
}

async function publicRoute(ctx: Ctx, m: string, path: string, open: Set<() => void>): Promise<boolean> {
  if (m !== 'GET') return false;
  if (path === P || path === `${P}/`) {
    ok(ctx, describe());
    return true;
  }
  if (path === `${P}/openapi.json`) {
    sendJson(ctx, 200, openapi(ctx.store.opts.requireServiceVersion));
    return true;
  }
  const file = /^\/api\/public\/v1\/openapi\/([\d-]+)\.(json|yaml)$/.exec(path);
  if (file?.[1] && VERSIONS.includes(file[1])) {
    const doc = {
      ...openapi(ctx.store.opts.requireServiceVersion),
      info: { title: 'Network Connections Service (cassia)', version: file[1] },
    };
    ctx.headers['content-disposition'] = `attachment; filename="ncs-${file[1]}.${file[2]}"`;
    if (file[2] === 'json') sendJson(ctx, 200, doc);
    else sendJson(ctx, 200, `${toYaml(doc).slice(1)}\n`, 'application/yaml; charset=utf-8');
    return true;
  }
  // A version file the service does not publish is a missing public resource, not an unauthenticated call.
  if (file || path.startsWith(`${P}/openapi/`))
    return fail('not_found', 'No such version', `Known: ${VERSIONS.join(', ')}`);
  if (path !== `${P}/stream`) return false;
  stream(ctx, open);
  return true;
}

export async function handle(ctx: Ctx, open: Set<() => void>) {
  try {
    const m = ctx.req.method ?? 'GET';
    const path = ctx.url.pathname;
    if (path === TOKEN_PATH) return tokenEndpoint(ctx);
    if (await publicRoute(ctx, m, path, open)) return;
    if (!path.startsWith(`${P}/`)) fail('not_found', 'No such route');
    serviceVersion(ctx);
    authenticate(ctx);
    rateLimit(ctx, DEPLOYMENT_ENV);
    const rel = path.slice(P.length);
    const hook = /^\/webhooks\/([^/]+)(?:\/delivery-attempts(?:\/([^/]+)\/retry)?)?$/.exec(rel);
    const route = `${m} ${rel}`;
    if (route === 'GET /info')
      return ok(ctx, { clientId: ctx.clientId, tenant: ctx.tenant, environment: DEPLOYMENT_ENV, version: VERSION });
    if (route === 'GET /providers') return ok(ctx, r.listProviders(ctx));
    if (route === 'GET /connectors') return ok(ctx, r.listConnectors(ctx));
    if (route === 'GET /capabilities') return ok(ctx, r.listCapabilities());
    if (route === 'POST /capabilities') return ok(ctx, r.checkCapability(ctx));
    if (route === 'GET /connections') return ok(ctx, r.listConnections(ctx));
    if (route === 'POST /connections') return await idempotent(ctx, () => r.createConnection(ctx));
    if (route === 'POST /idempotency-keys')
      return ok(ctx, issueKey(ctx, str(jsonBody(ctx), 'operation', 2, 80) as string));
    if (route === 'GET /audit-log') return ok(ctx, auditLog(ctx));
    if (route === 'GET /webhooks') return ok(ctx, w.listWebhooks(ctx));
    if (route === 'POST /webhooks') return await idempotent(ctx, () => w.createWebhook(ctx));
    if (hook?.[1]) {
      const [, id, attempt] = hook;
      const isLog = rel.endsWith('/delivery-attempts');
      if (m === 'DELETE' && !isLog && !attempt) return await idempotent(ctx, () => w.deleteWebhook(ctx, id));
      if (m === 'GET' && isLog) return ok(ctx, w.deliveryLog(ctx, id));
      if (m === 'POST' && attempt) return await idempotent(ctx, () => w.redeliver(ctx, id, attempt));
    }
    fail('not_found', 'No such route', `${m} ${path}`);
  } catch (e) {
    sendError(ctx, e);
  }
}
