// The route table of sycamore (like Laravel's routes/api.php): every endpoint of the contract plus the team's own
// (GET /info, the OpenAPI files per version, receiver removal, the delivery log and resend), and the public reads.
import { auditLog, stream } from './events.ts';
import { ApiError, type Ctx, KNOWN_VERSIONS, ok, raw } from './http.ts';
import { ENVIRONMENT } from './oauth.ts';
import { openapi } from './openapi.ts';
import {
  capabilities,
  checkCapability,
  connectors,
  createConnection,
  issueKey,
  listConnections,
  providers,
} from './resources.ts';
import type { State } from './state.ts';
import { iso, toYaml } from './util.ts';
import { createWebhook, deleteWebhook, listDeliveries, resend, WEBHOOK_EVENTS } from './webhooks.ts';

type Handler = (state: State, ctx: Ctx, params: string[]) => unknown;
interface Route {
  method: string;
  path: string;
  purpose: string;
  auth: boolean;
  handler: Handler;
}

const P = '/api/public/v1';
export const ROUTES: Route[] = [
  { method: 'GET', path: P, purpose: 'self-description', auth: false, handler: (s, c) => describe(s, c) },
  {
    method: 'GET',
    path: `${P}/openapi.json`,
    purpose: 'OpenAPI 3.1 document',
    auth: false,
    handler: (s, c) => document(s, c, c.version, 'json'),
  },
  {
    method: 'GET',
    path: `${P}/openapi/{version}.json`,
    purpose: 'OpenAPI file of a version (JSON)',
    auth: false,
    handler: (s, c, p) => document(s, c, p[0] ?? '', 'json'),
  },
  {
    method: 'GET',
    path: `${P}/openapi/{version}.yaml`,
    purpose: 'OpenAPI file of a version (YAML)',
    auth: false,
    handler: (s, c, p) => document(s, c, p[0] ?? '', 'yaml'),
  },
  {
    method: 'GET',
    path: `${P}/stream`,
    purpose: 'status stream (Server-Sent Events)',
    auth: false,
    handler: (s, c) => stream(s, c),
  },
  { method: 'GET', path: `${P}/info`, purpose: 'the access of the call', auth: true, handler: (s, c) => info(s, c) },
  { method: 'GET', path: `${P}/providers`, purpose: 'list providers', auth: true, handler: (_s, c) => providers(c) },
  { method: 'GET', path: `${P}/connectors`, purpose: 'list connectors', auth: true, handler: (_s, c) => connectors(c) },
  {
    method: 'GET',
    path: `${P}/capabilities`,
    purpose: 'capability catalog',
    auth: true,
    handler: (_s, c) => capabilities(c),
  },
  {
    method: 'POST',
    path: `${P}/capabilities`,
    purpose: 'check a capability of a connector',
    auth: true,
    handler: (_s, c) => checkCapability(c),
  },
  {
    method: 'GET',
    path: `${P}/connections`,
    purpose: 'connections of the tenant',
    auth: true,
    handler: (s, c) => listConnections(s, c),
  },
  {
    method: 'POST',
    path: `${P}/connections`,
    purpose: 'create a connection',
    auth: true,
    handler: (s, c) => createConnection(s, c),
  },
  {
    method: 'POST',
    path: `${P}/idempotency-keys`,
    purpose: 'generate an idempotency key',
    auth: true,
    handler: (s, c) => issueKey(s, c),
  },
  {
    method: 'POST',
    path: `${P}/webhooks`,
    purpose: 'create a webhook receiver',
    auth: true,
    handler: (s, c) => createWebhook(s, c),
  },
  {
    method: 'DELETE',
    path: `${P}/webhooks/{webhookId}`,
    purpose: 'remove a webhook receiver',
    auth: true,
    handler: (s, c, p) => deleteWebhook(s, c, p[0] ?? ''),
  },
  {
    method: 'GET',
    path: `${P}/webhooks/{webhookId}/deliveries`,
    purpose: 'delivery log of a receiver',
    auth: true,
    handler: (s, c, p) => listDeliveries(s, c, p[0] ?? ''),
  },
  {
    method: 'POST',
    path: `${P}/webhooks/{webhookId}/deliveries/{deliveryId}/resend`,
    purpose: 'trigger a delivery again',
    auth: true,
    handler: (s, c, p) => resend(s, c, p[0] ?? '', p[1] ?? ''),
  },
  {
    method: 'GET',
    path: `${P}/audit-log`,
    purpose: 'audit log with a SHA-512 hash chain',
    auth: true,
    handler: (s, c) => auditLog(s, c),
  },
];

export const MATCHERS = ROUTES.map((r) => ({
  route: r,
  re: new RegExp(`^${r.path.replace(/\./g, '\\.').replace(/\{[^}]+\}/g, '([A-Za-z0-9._-]+)')}$`),
}));

function describe(state: State, ctx: Ctx): void {
  ok(ctx, {
    service: 'Network Connections Service',
    surface: 'public',
    version: ctx.version,
    authentication: {
      type: 'oauth2',
      flow: 'client_credentials',
      token_endpoint: '/oauth/token',
      tenant_header: 'x-service-tenant',
    },
    idempotency: {
      header: 'Idempotency-Key',
      pattern: '^[A-Za-z0-9._:-]{8,128}$',
      ttl_hours: 48,
      required_on: [
        'POST /connections',
        'POST /webhooks',
        'DELETE /webhooks/{webhookId}',
        'POST /webhooks/{webhookId}/deliveries/{deliveryId}/resend',
      ],
    },
    routes: ROUTES.map((r) => ({ method: r.method, path: r.path, purpose: r.purpose, auth: r.auth })),
    webhooks: { events: WEBHOOK_EVENTS, signature_header: 'X-Sycamore-Signature' },
    rate_limit: { limit: state.opts.rateLimit, window_seconds: state.opts.windowMs / 1000 },
    versions: KNOWN_VERSIONS,
  });
}

function document(state: State, ctx: Ctx, version: string, format: 'json' | 'yaml'): void {
  if (!KNOWN_VERSIONS.includes(version))
    throw new ApiError('not_found', `no OpenAPI file for ${version}`, `known versions: ${KNOWN_VERSIONS.join(', ')}`);
  const doc = openapi(version, state.opts.auditMaxPerPage);
  ctx.res.setHeader('X-Request-Id', ctx.requestId);
  if (format === 'yaml') {
    ctx.res.setHeader('Content-Disposition', `attachment; filename="sycamore-openapi-${version}.yaml"`);
    raw(ctx.res, 200, 'application/yaml; charset=utf-8', toYaml(doc));
    return;
  }
  raw(ctx.res, 200, 'application/json; charset=utf-8', JSON.stringify(doc));
}

function info(state: State, ctx: Ctx): void {
  const tok = state.tokens.get(ctx.token ?? '');
  ok(ctx, {
    tenant: ctx.tenant,
    client_id: ctx.clientId,
    environment: ENVIRONMENT,
    token_expires_at: iso(tok?.expiresAt ?? Date.now()),
  });
}
