// The route table of birch: one list drives dispatch, the self-description and the OpenAPI document.
import type { BirchVariant } from './app-state.ts';
import { capabilities, connectors, connectorView, providers } from './catalog.ts';
import { Connections, checkCapability, connectionView } from './connections.ts';
import { notFound, readJsonObject, sendOk, str } from './http-util.ts';
import { buildOpenApi } from './openapi.ts';
import { audit, keyed, P, type Route } from './route-kit.ts';
import { webhookRoutes } from './routes-webhooks.ts';
import { openStream } from './stream.ts';

export type { Auth, Route } from './route-kit.ts';

export function buildRoutes(v: BirchVariant): Route[] {
  return [
    {
      method: 'GET',
      path: P,
      auth: false,
      key: false,
      inTable: true,
      purpose: 'self-description',
      handle: (ctx, s) =>
        sendOk(ctx, {
          service: 'birch network connections',
          surface: 'public',
          version: ctx.version,
          authentication: {
            type: 'oauth2',
            flow: 'client_credentials',
            token_url: `${ctx.origin}/oauth/token`,
            token_lifetime_seconds: 900,
            tenant_header: 'x-service-tenant',
          },
          idempotency: {
            header: 'Idempotency-Key',
            pattern: '^[A-Za-z0-9._:-]{8,128}$',
            retention_hours: 24,
            issue_endpoint: `${P}/idempotency-keys`,
          },
          routes: s.routes.map((r) => ({ method: r.method, path: r.path, purpose: r.purpose, auth: r.auth })),
        }),
    },
    {
      method: 'GET',
      path: `${P}/openapi.json`,
      auth: false,
      key: false,
      inTable: true,
      purpose: 'OpenAPI 3.1 document',
      handle: (ctx, s) => {
        const body = JSON.stringify(buildOpenApi(s.routes, ctx.origin));
        ctx.res.writeHead(200, {
          'content-type': 'application/json; charset=utf-8',
          'x-request-id': ctx.requestId,
          'service-version': ctx.version,
        });
        ctx.res.end(ctx.headOnly ? undefined : body);
      },
    },
    {
      method: 'GET',
      path: `${P}/openapi/{file}`,
      auth: false,
      key: false,
      inTable: false,
      purpose: 'downloadable OpenAPI file per version (2026-07-01.json, 2026-07-01.yaml)',
      handle: (ctx, s, _a, params) => {
        const m = /^(2026-07-01|2026-06-12)\.(json|yaml)$/.exec(params.file ?? '');
        if (!m) throw notFound('No such OpenAPI file.');
        const type = m[2] === 'json' ? 'application/json' : 'application/yaml';
        // JSON is valid YAML 1.2; the YAML download is the same document.
        ctx.res.writeHead(200, {
          'content-type': `${type}; charset=utf-8`,
          'content-disposition': `attachment; filename="birch-${m[1]}.${m[2]}"`,
        });
        ctx.res.end(JSON.stringify(buildOpenApi(s.routes, ctx.origin), null, 2));
      },
    },
    {
      method: 'GET',
      path: `${P}/info`,
      auth: true,
      key: false,
      inTable: false,
      purpose: 'who am I: access, tenant, limits',
      handle: (ctx, s, a) =>
        a &&
        sendOk(ctx, {
          client_id: a.clientId,
          tenant: a.tenant,
          scopes: a.scopes,
          deployment_environment: 'sandbox',
          rate_limit: { limit: s.limiter.opts.limit, window_seconds: s.limiter.opts.windowSeconds },
          service_version: ctx.version,
        }),
    },
    {
      method: 'GET',
      path: `${P}/providers`,
      auth: true,
      key: false,
      scope: 'catalog:read',
      inTable: true,
      purpose: 'list providers',
      handle: (ctx) => {
        const category = ctx.query.get('category');
        const list = providers.filter((p) => category === null || p.category === category);
        sendOk(ctx, { count: list.length, providers: list });
      },
    },
    {
      method: 'GET',
      path: `${P}/connectors`,
      auth: true,
      key: false,
      scope: 'catalog:read',
      inTable: true,
      purpose: 'list connectors',
      handle: (ctx) => {
        const q = (n: string) => ctx.query.get(n);
        const list = connectors.filter(
          (c) =>
            (q('capability') === null || c.capabilities.includes(q('capability') ?? '')) &&
            (q('providerId') === null || c.providerId === q('providerId')) &&
            (q('category') === null || c.category === q('category')),
        );
        sendOk(ctx, { count: list.length, connectors: list.map(connectorView) });
      },
    },
    {
      method: 'GET',
      path: `${P}/capabilities`,
      auth: true,
      key: false,
      scope: 'catalog:read',
      inTable: true,
      purpose: 'capability catalog',
      handle: (ctx) => sendOk(ctx, { count: capabilities.length, capabilities }),
    },
    {
      method: 'POST',
      path: `${P}/capabilities`,
      auth: true,
      key: false,
      scope: 'catalog:read',
      inTable: true,
      purpose: 'check a capability of a connector',
      handle: async (ctx) => sendOk(ctx, checkCapability(await readJsonObject(ctx))),
    },
    {
      method: 'GET',
      path: `${P}/connections`,
      auth: true,
      key: false,
      scope: 'connections:write',
      inTable: true,
      purpose: 'connections of the tenant',
      handle: (ctx, s, a) => {
        const list = a ? s.connections.ofTenant(a.tenant) : [];
        sendOk(ctx, { tenant: a?.tenant, count: list.length, connections: list.map(connectionView) });
      },
    },
    {
      method: 'POST',
      path: `${P}/connections`,
      auth: true,
      key: true,
      scope: 'connections:write',
      inTable: true,
      purpose: 'create a connection',
      handle: (ctx, s, a) =>
        a &&
        keyed(ctx, s, a, (body) => {
          Connections.validate(body);
          const c = s.connections.create(a.tenant, body);
          audit(s, ctx, a, 'connection.create', 'connection', c.id);
          return connectionView(c);
        }),
    },
    {
      method: 'GET',
      path: `${P}/connections/{id}`,
      auth: true,
      key: false,
      scope: 'connections:write',
      inTable: false,
      purpose: 'one connection of the tenant',
      handle: (ctx, s, a, p) => a && sendOk(ctx, connectionView(s.connections.find(a.tenant, p.id ?? ''))),
    },
    ...(['pause', 'resume'] as const).map(
      (action): Route => ({
        method: 'POST',
        path: `${P}/connections/{id}/${action}`,
        auth: true,
        key: true,
        scope: 'connections:write',
        inTable: false,
        purpose: `${action} a connection`,
        handle: (ctx, s, a, p) =>
          a &&
          keyed(
            ctx,
            s,
            a,
            () => {
              const c = s.connections.setPaused(a.tenant, p.id ?? '', action === 'pause');
              audit(s, ctx, a, `connection.${action}`, 'connection', c.id);
              return connectionView(c);
            },
            true,
          ),
      }),
    ),
    {
      method: 'POST',
      path: `${P}/idempotency-keys`,
      auth: true,
      key: false,
      inTable: true,
      purpose: 'generate an idempotency key',
      handle: async (ctx, s) => {
        const body = await readJsonObject(ctx);
        sendOk(ctx, s.idempotency.issue(str(body, 'operation', 2, 80) ?? ''));
      },
    },
    {
      method: 'GET',
      path: `${P}/stream`,
      auth: false,
      key: false,
      inTable: true,
      purpose: 'status stream (Server-Sent Events)',
      handle: (ctx, s) => openStream(ctx, s.bus, s.openStreams),
    },
    ...webhookRoutes(v),
  ];
}
