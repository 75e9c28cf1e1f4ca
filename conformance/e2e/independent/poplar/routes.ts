// The route table (ESPv2's view of the API config) and the request pipeline: version, auth, tenant, quota.

import type { IncomingMessage, ServerResponse } from 'node:http';
import { checkpointKeys, listAudit } from './audit.ts';
import { AUDIENCE, authenticate, metadata, tenantOf, tokenEndpoint } from './auth.ts';
import * as h from './handlers.ts';
import { ApiError, type Ctx, newCtx, ok, PUBLISHED_VERSIONS, sendError, sendJson } from './http-util.ts';
import { openapi } from './openapi.ts';
import { download } from './openapi-files.ts';
import { charge } from './rate-limit.ts';
import type { State } from './state.ts';
import { openStream } from './stream.ts';
import { createWebhook, deleteWebhook, listTasks, runTask } from './webhooks.ts';

type Handler = (s: State, ctx: Ctx, tenant: string, params: string[]) => void | Promise<void>;
interface Route {
  method: string;
  pattern: RegExp;
  purpose: string;
  path: string;
  auth: boolean;
  run: Handler;
}

const B = '/api/public/v1';
const ID = '([A-Za-z0-9]{1,64})';
const r = (method: string, path: string, re: string, purpose: string, auth: boolean, run: Handler): Route => ({
  method,
  path: `${B}${path}`,
  pattern: new RegExp(`^${B}${re}$`),
  purpose,
  auth,
  run,
});

export const ROUTES: Route[] = [
  r('GET', '', '/?', 'self-description', false, (s, ctx) => ok(ctx, selfDescription(s))),
  r('GET', '/openapi.json', '/openapi\\.json', 'OpenAPI 3.1 document', false, (_s, ctx) =>
    sendJson(ctx, 200, openapi()),
  ),
  r(
    'GET',
    '/openapi/{version}.json',
    '/openapi/(2026-07-01|2026-06-12)\\.json',
    'OpenAPI 3.1 document as a download (JSON)',
    false,
    (_s, ctx, _t, p) => download(ctx, p[0] ?? '', 'json'),
  ),
  r(
    'GET',
    '/openapi/{version}.yaml',
    '/openapi/(2026-07-01|2026-06-12)\\.yaml',
    'OpenAPI 3.1 document as a download (YAML)',
    false,
    (_s, ctx, _t, p) => download(ctx, p[0] ?? '', 'yaml'),
  ),
  r('GET', '/stream', '/stream', 'status stream (Server-Sent Events)', false, (s, ctx) => openStream(s, ctx)),
  r(
    'GET',
    '/audit-log/checkpoint-keys',
    '/audit-log/checkpoint-keys',
    'public keys of the audit checkpoint signature',
    false,
    (s, ctx) => checkpointKeys(s, ctx),
  ),
  r('GET', '/info', '/info', 'who am I: tenant, client, environment', true, (s, ctx, t) => h.info(s, ctx, t)),
  r('GET', '/providers', '/providers', 'list providers', true, (_s, ctx) => h.listProviders(ctx)),
  r('GET', '/connectors', '/connectors', 'list connectors', true, (_s, ctx) => h.listConnectors(ctx)),
  r('GET', '/capabilities', '/capabilities', 'capability catalog', true, (_s, ctx) => h.listCapabilities(ctx)),
  r('POST', '/capabilities', '/capabilities', 'check a capability of a connector', true, (s, ctx) =>
    h.checkCapability(s, ctx),
  ),
  r('GET', '/connections', '/connections', 'connections of the tenant', true, (s, ctx, t) =>
    h.listConnections(s, ctx, t),
  ),
  r('POST', '/connections', '/connections', 'create a connection', true, (s, ctx, t) => h.createConnection(s, ctx, t)),
  r('POST', '/idempotency-keys', '/idempotency-keys', 'generate an idempotency key', true, (s, ctx) =>
    h.createKey(s, ctx),
  ),
  r('POST', '/webhooks', '/webhooks', 'create a webhook receiver', true, (s, ctx, t) => createWebhook(s, ctx, t)),
  r('DELETE', '/webhooks/{webhookId}', `/webhooks/${ID}`, 'remove a webhook receiver', true, (s, ctx, t, p) =>
    deleteWebhook(s, ctx, t, p[0] ?? ''),
  ),
  r(
    'GET',
    '/webhooks/{webhookId}/tasks',
    `/webhooks/${ID}/tasks`,
    'delivery log of a webhook receiver',
    true,
    (s, ctx, t, p) => listTasks(s, ctx, t, p[0] ?? ''),
  ),
  r(
    'POST',
    '/webhooks/{webhookId}/tasks/{taskName}:run',
    `/webhooks/${ID}/tasks/${ID}:run`,
    'trigger a delivery again',
    true,
    (s, ctx, t, p) => runTask(s, ctx, t, p[0] ?? '', p[1] ?? ''),
  ),
  r('GET', '/audit-log', '/audit-log', 'audit log with hash chain and signed checkpoint', true, (s, ctx, t) =>
    listAudit(s, ctx, t),
  ),
];

function selfDescription(s: State): Record<string, unknown> {
  return {
    service: 'Network Connections Service',
    surface: 'public',
    version: '2026-07-01',
    authentication: {
      type: 'oauth2',
      flow: 'client_credentials',
      tokenEndpoint: '/oauth2/v4/token',
      metadata: '/.well-known/oauth-authorization-server',
      audience: AUDIENCE,
      tokenFormat: 'JWT',
      tokenLifetimeSec: s.opts.tokenTtlSec,
      tenantHeader: 'x-service-tenant',
    },
    idempotency: {
      header: 'Idempotency-Key',
      pattern: '^[A-Za-z0-9._:-]{8,128}$',
      requiredOn: [
        'POST /connections',
        'POST /webhooks',
        'DELETE /webhooks/{webhookId}',
        'POST /webhooks/{webhookId}/tasks/{taskName}:run',
      ],
      validitySec: 86_400,
      scope: 'tenant',
    },
    downloads: !s.opts.listDownloads
      ? undefined
      : PUBLISHED_VERSIONS.map((v) => ({ version: v, json: `${B}/openapi/${v}.json`, yaml: `${B}/openapi/${v}.yaml` })),
    versions: {
      current: '2026-07-01',
      published: PUBLISHED_VERSIONS,
      header: 'Service-Version',
      required: s.opts.serviceVersionRequired,
    },
    webhooks: {
      events: ['connection.created', 'connection.activated', 'order.created', 'order.paid'],
      signatureHeader: 'X-Poplar-Signature',
      payload: 'Pub/Sub push envelope',
    },
    routes: ROUTES.map((x) => ({ method: x.method, path: x.path, purpose: x.purpose, auth: x.auth })),
  };
}

/** Service-Version: a published value is answered as that version; an unknown value is answered as the current one. */
function negotiate(s: State, ctx: Ctx): void {
  const raw = ctx.req.headers['service-version'];
  const v = Array.isArray(raw) ? raw[0] : raw;
  if (v && PUBLISHED_VERSIONS.includes(v)) ctx.version = v;
  else if (!v && s.opts.serviceVersionRequired)
    throw new ApiError(
      'invalid_request',
      'The Service-Version header is required.',
      `one of ${PUBLISHED_VERSIONS.join(', ')}`,
    );
}

export async function handle(s: State, req: IncomingMessage, res: ServerResponse): Promise<void> {
  const ctx = newCtx(req, res);
  try {
    const path = ctx.url.pathname;
    if (path === '/oauth2/v4/token') return await tokenEndpoint(s.auth, req, res);
    if (path === '/.well-known/oauth-authorization-server' || path === `/.well-known/oauth-authorization-server${B}`) {
      const origin = `http://${req.headers.host ?? '127.0.0.1'}`;
      res.writeHead(200, { 'content-type': 'application/json' });
      return void res.end(JSON.stringify(metadata(origin)));
    }
    let params: string[] = [];
    const route = ROUTES.find((x) => {
      const m = x.method === req.method && x.pattern.exec(path);
      if (m) params = m.slice(1);
      return Boolean(m);
    });
    if (!route) throw new ApiError('not_found', `Method ${req.method} ${path} does not exist.`);
    negotiate(s, ctx);
    let tenant = '';
    if (route.auth) {
      authenticate(s.auth, ctx);
      const t = ctx.req.headers['x-service-tenant'];
      charge(s.quota, ctx, `${ctx.clientId}|${Array.isArray(t) ? t[0] : (t ?? '')}|sandbox`);
      tenant = tenantOf(s.auth, ctx);
      ctx.tenant = tenant;
    }
    await route.run(s, ctx, tenant, params);
  } catch (e) {
    if (res.headersSent) return void res.end();
    // Anything unexpected is 500 internal with no details beyond the request id.
    sendError(
      ctx,
      e instanceof ApiError ? e : new ApiError('internal', 'Internal error. Quote the request id to support.'),
    );
  }
}
