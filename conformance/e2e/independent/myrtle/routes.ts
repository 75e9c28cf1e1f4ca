// The route table (aiohttp's app.router), also the source of the self-description and the OpenAPI paths.
import { listAudit } from './audit.ts';
import { authenticate } from './auth.ts';
import { ApiError, type Ctx, ok, parseJson, pyDumps, type Rec, text, VERSION } from './http.ts';
import { createKey, idempotent } from './idempotency.ts';
import { openapi, type Route } from './openapi.ts';
import {
  checkCapability,
  createConnection,
  listCapabilities,
  listConnections,
  listConnectors,
  listProviders,
} from './resources.ts';
import type { Store } from './state.ts';
import { stream } from './stream.ts';
import { createWebhook, deleteWebhook, EVENT_NAMES, listDeliveries, redeliver } from './webhooks.ts';

const P = '/api/public/v1';
type Handler = (s: Store, ctx: Ctx, params: string[]) => void;
const plain =
  (f: (s: Store, ctx: Ctx, params: string[]) => unknown): Handler =>
  (s, ctx, p) =>
    ok(ctx, f(s, ctx, p));
const keyed =
  (f: (s: Store, ctx: Ctx, params: string[]) => Rec): Handler =>
  (s, ctx, p) =>
    idempotent(s, ctx, () => f(s, ctx, p));

const TABLE: [Route, Handler][] = [
  [{ method: 'GET', path: P, purpose: 'self-description', auth: false }, plain(() => describe())],
  [{ method: 'GET', path: `${P}/openapi.json`, purpose: 'OpenAPI 3.1 document', auth: false }, plain(() => undefined)],
  [
    {
      method: 'GET',
      path: `${P}/openapi/{version}.json`,
      purpose: 'OpenAPI document of one version (JSON file)',
      auth: false,
    },
    plain(() => undefined),
  ],
  [
    {
      method: 'GET',
      path: `${P}/openapi/{version}.yaml`,
      purpose: 'OpenAPI document of one version (YAML file)',
      auth: false,
    },
    plain(() => undefined),
  ],
  [
    { method: 'GET', path: `${P}/info`, purpose: 'service information', auth: true },
    plain((_s, ctx) => ({ service: 'myrtle', version: VERSION, tenant: ctx.tenant })),
  ],
  [
    { method: 'GET', path: `${P}/providers`, purpose: 'list providers', auth: true },
    plain((_s, ctx) => listProviders(ctx)),
  ],
  [
    { method: 'GET', path: `${P}/connectors`, purpose: 'list connectors', auth: true },
    plain((_s, ctx) => listConnectors(ctx)),
  ],
  [
    { method: 'GET', path: `${P}/capabilities`, purpose: 'capability catalog', auth: true },
    plain(() => listCapabilities()),
  ],
  [
    { method: 'POST', path: `${P}/capabilities`, purpose: 'check a capability of a connector', auth: true },
    plain((_s, ctx) => checkCapability(parseJson(ctx))),
  ],
  [
    { method: 'GET', path: `${P}/connections`, purpose: 'connections of the tenant', auth: true },
    plain((s, ctx) => listConnections(s, ctx)),
  ],
  [
    { method: 'POST', path: `${P}/connections`, purpose: 'create a connection', auth: true, key: true },
    keyed((s, ctx) => createConnection(s, ctx, parseJson(ctx))),
  ],
  [
    { method: 'POST', path: `${P}/idempotency-keys`, purpose: 'generate an idempotency key', auth: true },
    plain((_s, ctx) => createKey(parseJson(ctx))),
  ],
  [
    { method: 'GET', path: `${P}/stream`, purpose: 'status stream (Server-Sent Events)', auth: false },
    (s, ctx) => stream(s, ctx),
  ],
  [
    { method: 'POST', path: `${P}/webhooks`, purpose: 'create a webhook receiver', auth: true, key: true },
    keyed((s, ctx) => createWebhook(s, ctx, parseJson(ctx))),
  ],
  [
    {
      method: 'DELETE',
      path: `${P}/webhooks/{webhookId}`,
      purpose: 'remove a webhook receiver',
      auth: true,
      key: true,
    },
    keyed((s, ctx, [id]) => deleteWebhook(s, ctx, String(id))),
  ],
  [
    {
      method: 'GET',
      path: `${P}/webhooks/{webhookId}/delivery-attempts`,
      purpose: 'delivery log of a receiver',
      auth: true,
    },
    plain((s, ctx, [id]) => listDeliveries(s, ctx, String(id))),
  ],
  [
    {
      method: 'POST',
      path: `${P}/webhooks/{webhookId}/delivery-attempts/{attemptId}/retry`,
      purpose: 'trigger a delivery again',
      auth: true,
      key: true,
    },
    keyed((s, ctx, [id, d]) => redeliver(s, ctx, String(id), String(d))),
  ],
  [
    { method: 'GET', path: `${P}/audit-log`, purpose: 'audit log with hash chain', auth: true },
    plain((s, ctx) => listAudit(s, ctx)),
  ],
];
export const ROUTES = TABLE.map(([r]) => r);

function describe(): Rec {
  return {
    service: 'myrtle network connections',
    surface: 'public',
    version: VERSION,
    authentication: {
      type: 'oauth2',
      flow: 'client_credentials',
      tokenUrl: '/oauth2/token',
      tenantHeader: 'x-service-tenant',
    },
    idempotency: { header: 'Idempotency-Key', pattern: '^[A-Za-z0-9._:-]{8,128}$', ttlSeconds: 86400 },
    webhooks: { events: EVENT_NAMES, signatureHeader: 'X-Myrtle-Signature' },
    routes: ROUTES.map(({ method, path, purpose, auth }) => ({ method, path, purpose, auth })),
  };
}

export function dispatch(s: Store, ctx: Ctx): void {
  const path = ctx.url.pathname.replace(/\/+$/, '') || '/';
  if (ctx.req.method === 'GET' && path === `${P}/openapi.json`) {
    text(ctx, pyDumps(openapi(ROUTES)), 'application/json');
    return;
  }
  const file = /^\/api\/public\/v1\/openapi\/(2026-07-01|2026-06-12)\.(json|yaml)$/.exec(path);
  // JSON is a subset of YAML 1.2, so the .yaml file is the same text under the YAML media type.
  if (ctx.req.method === 'GET' && file) {
    const type = file[2] === 'yaml' ? 'application/yaml' : 'application/json';
    text(ctx, JSON.stringify(openapi(ROUTES, file[1]), null, 2), type);
    return;
  }
  for (const [r, h] of TABLE) {
    const re = new RegExp(`^${r.path.replace(/\{\w+\}/g, '([^/]+)')}$`);
    const m = re.exec(path);
    if (!m || r.method !== ctx.req.method) continue;
    if (r.auth) authenticate(s, ctx);
    h(s, ctx, m.slice(1).map(decodeURIComponent));
    return;
  }
  throw new ApiError('not_found', 'No such route.');
}
