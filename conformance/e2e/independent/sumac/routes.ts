// routes/api.php: dispatches an authenticated call through auth → throttle → tenant → body → controller.
import { ROUTES } from './annotations.ts';
import { listAudit } from './audit.ts';
import { authenticate, tenantGuard, throttle } from './auth.ts';
import { checkCapability, listCapabilities, listConnectors, listProviders } from './catalog.ts';
import { createConnection, listConnections } from './connections.ts';
import { type IdempotencyStore, issueKey } from './idempotency.ts';
import type { State } from './state.ts';
import { ApiError, type Ctx, CURRENT_VERSION, invalid, ok, readBody } from './support.ts';
import { asObject } from './validate.ts';
import { deleteWebhook, EVENT_NAMES, listDeliveries, registerWebhook, retryDelivery } from './webhooks.ts';

type Handler = (state: State, idem: IdempotencyStore, ctx: Ctx, params: string[]) => void;

const BASE = '/api/public/v1';
const seg = '([A-Za-z0-9_.:-]{1,128})';

const TABLE: { method: string; pattern: RegExp; handler: Handler }[] = [
  { method: 'GET', pattern: /^\/info$/, handler: (s, _i, c) => info(s, c) },
  { method: 'GET', pattern: /^\/providers$/, handler: (s, _i, c) => listProviders(s, c) },
  { method: 'GET', pattern: /^\/connectors$/, handler: (s, _i, c) => listConnectors(s, c) },
  { method: 'GET', pattern: /^\/capabilities$/, handler: (s, _i, c) => listCapabilities(s, c) },
  { method: 'POST', pattern: /^\/capabilities$/, handler: (s, _i, c) => checkCapability(s, c) },
  { method: 'GET', pattern: /^\/connections$/, handler: (s, _i, c) => listConnections(s, c) },
  { method: 'POST', pattern: /^\/connections$/, handler: (s, i, c) => createConnection(s, i, c) },
  { method: 'POST', pattern: /^\/idempotency-keys$/, handler: (_s, _i, c) => issueKey(c, asObject(c.body)) },
  { method: 'POST', pattern: /^\/webhooks$/, handler: (s, i, c) => registerWebhook(s, i, c) },
  {
    method: 'DELETE',
    pattern: new RegExp(`^/webhooks/${seg}$`),
    handler: (s, i, c, p) => deleteWebhook(s, i, c, p[0] ?? ''),
  },
  {
    method: 'GET',
    pattern: new RegExp(`^/webhooks/${seg}/deliveries$`),
    handler: (s, _i, c, p) => listDeliveries(s, c, p[0] ?? ''),
  },
  {
    method: 'POST',
    pattern: new RegExp(`^/webhooks/${seg}/deliveries/${seg}/retry$`),
    handler: (s, i, c, p) => retryDelivery(s, i, c, p[0] ?? '', p[1] ?? ''),
  },
  { method: 'GET', pattern: /^\/audit-log$/, handler: (s, _i, c) => listAudit(s, c) },
];

/** An authenticated route, or null when the path is not one. */
export async function dispatch(state: State, idem: IdempotencyStore, ctx: Ctx, rel: string): Promise<boolean> {
  const hits = TABLE.filter((r) => r.pattern.test(rel));
  if (hits.length === 0) return false;
  const route = hits.find((r) => r.method === ctx.req.method);
  if (!route) throw new ApiError('not_found', 'The route was not found for this method.');
  authenticate(state, ctx);
  throttle(state, ctx);
  tenantGuard(state, ctx);
  if (state.opts.versionedDeliveryLog && ctx.version === '2026-06-12' && /\/deliveries/.test(rel)) {
    throw new ApiError('not_found', 'The delivery log is offered from version 2026-07-01.');
  }
  if (ctx.req.method === 'POST') {
    const raw = await readBody(ctx.req);
    if (raw.trim() !== '') {
      try {
        ctx.body = JSON.parse(raw);
      } catch {
        throw invalid('body', 'The request body must be valid JSON.');
      }
    }
  } else ctx.req.resume();
  route.handler(state, idem, ctx, (route.pattern.exec(rel) ?? []).slice(1));
  return true;
}

function info(state: State, ctx: Ctx): void {
  const token = /^Bearer\s+(\S+)$/i.exec(ctx.req.headers.authorization ?? '')?.[1] ?? '';
  const expires = state.tokens.get(token)?.expiresAt ?? Date.now();
  ok(ctx, {
    client_id: ctx.clientId,
    tenant: ctx.tenant,
    environment: 'sandbox',
    purpose: 'conformance and integration testing',
    owner: 'integrations@sumac.example',
    token_expires_at: new Date(expires).toISOString(),
  });
}

export function describe(state: State, ctx: Ctx): void {
  ok(ctx, {
    service: 'network-connections',
    surface: 'public',
    version: CURRENT_VERSION,
    authentication: {
      type: 'oauth2',
      flows: ['client_credentials'],
      token_endpoint: `${ctx.origin}/oauth/token`,
      token_type: 'Bearer',
      tenant_header: 'x-service-tenant',
    },
    idempotency: {
      header: 'Idempotency-Key',
      pattern: '^[A-Za-z0-9._:-]{8,128}$',
      ttl_seconds: 86_400,
      required_on: ROUTES.filter((r) => r.key).map((r) => `${r.method} ${BASE}${r.path}`),
    },
    routes: ROUTES.map((r) => ({ method: r.method, path: `${BASE}${r.path}`, purpose: r.purpose, auth: r.auth })),
    documentation: {
      openapi_json: `${BASE}/openapi/${CURRENT_VERSION}.json`,
      openapi_yaml: `${BASE}/openapi/${CURRENT_VERSION}.yaml`,
    },
    webhooks: { events: EVENT_NAMES, signature_header: 'X-Signature', delivery_header: 'X-Webhook-Delivery' },
    rate_limit: {
      limit: state.opts.rateLimit,
      window_seconds: state.opts.windowMs / 1000,
      per: 'access, tenant, environment',
    },
  });
}
