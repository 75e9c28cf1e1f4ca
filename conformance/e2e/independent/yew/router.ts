// Maps method and path to a handler: public routes first, then every authenticated one through the guard.
import type { Ctx } from './http-util.ts';
import { sendError, sendJson, sendOk, VERSIONS } from './http-util.ts';
import { KEY_PATTERN } from './idempotency.ts';
import { openApiDocument, toYaml } from './openapi.ts';
import type { App, Caller } from './pipeline.ts';
import { guard } from './pipeline.ts';
import { BASE, routeInfos } from './routes.ts';
import * as core from './routes-core.ts';
import * as extra from './routes-extra.ts';
import { EVENT_TYPES, SIGNATURE_HEADER } from './webhooks.ts';

type Handler = (app: App, ctx: Ctx, caller: Caller, params: string[]) => unknown;

const AUTHENTICATED: [string, RegExp, Handler][] = [
  ['GET', /^\/info$/, (_a, c, u) => core.info(c, u)],
  ['GET', /^\/providers$/, (_a, c) => core.listProviders(c)],
  ['GET', /^\/connectors$/, (_a, c) => core.listConnectors(c)],
  ['GET', /^\/capabilities$/, (_a, c) => core.listCapabilities(c)],
  ['POST', /^\/capabilities$/, (a, c, u) => core.checkCapability(a, c, u)],
  ['GET', /^\/connections$/, (a, c, u) => core.listConnections(a, c, u)],
  ['POST', /^\/connections$/, (a, c, u) => core.createConnection(a, c, u)],
  ['GET', /^\/connections\/([^/]+)$/, (a, c, u, p) => core.getConnection(a, c, u, p[0] ?? '')],
  ['POST', /^\/idempotency-keys$/, (a, c, u) => core.issueKey(a, c, u)],
  ['POST', /^\/webhooks$/, (a, c, u) => extra.createWebhook(a, c, u)],
  ['GET', /^\/webhooks$/, (a, c, u) => extra.listWebhooks(a, c, u)],
  ['GET', /^\/webhooks\/([^/]+)$/, (a, c, u, p) => extra.getWebhook(a, c, u, p[0] ?? '')],
  ['DELETE', /^\/webhooks\/([^/]+)$/, (a, c, u, p) => extra.deleteWebhook(a, c, u, p[0] ?? '')],
  ['GET', /^\/webhooks\/([^/]+)\/deliveries$/, (a, c, u, p) => extra.deliveryLog(a, c, u, p[0] ?? '')],
  [
    'POST',
    /^\/webhooks\/([^/]+)\/deliveries\/([^/]+)\/retry$/,
    (a, c, u, p) => extra.redeliver(a, c, u, p[0] ?? '', p[1] ?? ''),
  ],
  ['GET', /^\/audit-log$/, (a, c, u) => extra.auditLog(a, c, u)],
];

function selfDescription(ctx: Ctx) {
  const o = ctx.origin;
  sendOk(ctx, {
    service: 'Network Connections Service',
    surface: 'public',
    version: ctx.version,
    authentication: {
      type: 'oauth2',
      flows: ['clientCredentials'],
      tokenEndpoint: `${o}/connect/token`,
      discovery: `${o}/.well-known/openid-configuration`,
      scheme: 'Bearer',
      tenantHeader: 'x-service-tenant',
    },
    idempotency: {
      header: 'Idempotency-Key',
      pattern: KEY_PATTERN.source,
      requiredOn: [
        'POST /api/public/v1/connections',
        'POST /api/public/v1/webhooks',
        'DELETE /api/public/v1/webhooks/{webhookId}',
        'POST /api/public/v1/webhooks/{webhookId}/deliveries/{deliveryId}/retry',
      ],
      retentionHours: 24,
      issuer: `${BASE}/idempotency-keys`,
    },
    routes: routeInfos(),
    apiVersions: {
      current: VERSIONS.at(-1),
      supported: VERSIONS,
      header: 'Service-Version',
      queryParameter: 'api-version',
    },
    openApi: Object.fromEntries(
      VERSIONS.map((v) => [v, { json: `${BASE}/openapi/${v}.json`, yaml: `${BASE}/openapi/${v}.yaml` }]),
    ),
    webhooks: { events: EVENT_TYPES, signatureHeader: SIGNATURE_HEADER, format: 'CloudEvents 1.0 structured mode' },
    stream: { events: ['connection.created', 'connection.activated'], resume: ['Last-Event-ID', 'cursor'] },
  });
}

export async function route(app: App, ctx: Ctx): Promise<void> {
  const method = ctx.req.method ?? 'GET';
  const rel = ctx.url.pathname.slice(BASE.length).replace(/\/+$/, '');
  if (method === 'GET' && rel === '') return selfDescription(ctx);
  if (method === 'GET' && rel === '/openapi.json')
    return sendJson(ctx, 200, openApiDocument(ctx.origin, ctx.version, app.auditMaxPage));
  const download = /^\/openapi\/([0-9-]+)\.(json|yaml)$/.exec(rel);
  if (method === 'GET' && download?.[1] && VERSIONS.includes(download[1])) {
    const doc = openApiDocument(ctx.origin, download[1], app.auditMaxPage);
    ctx.headers['content-disposition'] = `attachment; filename="ncs-openapi-${download[1]}.${download[2]}"`;
    if (download[2] === 'json') return sendJson(ctx, 200, doc);
    ctx.res.writeHead(200, {
      'content-type': 'application/yaml; charset=utf-8',
      'request-id': ctx.requestId,
      ...ctx.headers,
    });
    ctx.res.end(`${toYaml(doc).trimStart()}\n`);
    return;
  }
  if (method === 'GET' && rel === '/stream') return extra.stream(app, ctx);
  for (const [m, pattern, handler] of AUTHENTICATED) {
    const match = pattern.exec(rel);
    if (!match || m !== method) continue;
    const caller = guard(app, ctx);
    if (!caller) return;
    await handler(
      app,
      ctx,
      caller,
      match.slice(1).map((s) => decodeURIComponent(s)),
    );
    return;
  }
  sendError(ctx, 404, 'not_found', { detail: `No route for ${method} ${ctx.url.pathname}.` });
}
