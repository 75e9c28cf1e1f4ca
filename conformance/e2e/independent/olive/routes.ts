// The route table (Go 1.22 ServeMux patterns) and the self-description built from it.
import type { ServerResponse } from 'node:http';
import { readAudit } from './audit.ts';
import { TOKEN_PATH } from './auth.ts';
import * as h from './handlers.ts';
import { KEY_PATTERN } from './idempotency.ts';
import type { Ctx, Route } from './mux.ts';
import { buildOpenApi, toYaml } from './openapi.ts';
import type { State } from './state.ts';
import type { Hub } from './stream.ts';
import { createStream } from './stream.ts';
import { notFound, VERSION, VERSIONS } from './util.ts';
import { createWebhooks, WEBHOOK_EVENTS } from './webhooks.ts';

const B = '/api/public/v1';

export function buildRoutes(state: State, hub: Hub, streams: Set<ServerResponse>): Route[] {
  const hooks = createWebhooks(state, hub);
  const sync = (f: (ctx: Ctx) => Record<string, unknown>) => async (ctx: Ctx) => f(ctx);
  const routes: Route[] = [];
  const add = (
    method: string,
    path: string,
    purpose: string,
    auth: boolean,
    key: Route['key'],
    handle: Route['handle'],
    body = false,
    listed = true,
  ) => routes.push({ method, pattern: `${B}${path}`, purpose, auth, key, handle, body, listed });

  const openapi = (ctx: Ctx) => buildOpenApi(routes, `${ctx.origin}${TOKEN_PATH}`, state.options.nestedWebhook);
  const rawDoc = async (ctx: Ctx) => {
    const m = /^(\d{4}-\d{2}-\d{2})\.(json|yaml)$/.exec(ctx.params.file ?? '');
    if (!m || !VERSIONS.includes(m[1] ?? '')) throw notFound('file: published are <version>.json and <version>.yaml');
    const doc = { ...openapi(ctx), info: { title: 'Network Connections Service', version: m[1] } };
    send(
      ctx.res,
      m[2] === 'yaml' ? 'application/yaml' : 'application/json',
      m[2] === 'yaml' ? `${toYaml(doc).slice(1)}\n` : JSON.stringify(doc),
      ctx.rid,
    );
    return undefined;
  };

  add(
    'GET',
    '',
    'self-description',
    false,
    'none',
    sync((ctx) => describe(state, ctx, routes)),
  );
  add('GET', '/openapi.json', 'OpenAPI 3.1 document', false, 'none', async (ctx) => {
    send(ctx.res, 'application/json', JSON.stringify(openapi(ctx)), ctx.rid);
    return undefined;
  });
  add(
    'GET',
    '/openapi/{file}',
    'OpenAPI description as a downloadable JSON or YAML file per version',
    false,
    'none',
    rawDoc,
    false,
    false,
  );
  add('GET', '/providers', 'list providers', true, 'none', sync(h.listProviders));
  add('GET', '/connectors', 'list connectors', true, 'none', sync(h.listConnectors));
  add('GET', '/capabilities', 'capability catalog', true, 'none', sync(h.listCapabilities));
  add(
    'POST',
    '/capabilities',
    'check a capability of a connector',
    true,
    'optional',
    sync((c) => h.checkCapability(state, c)),
    true,
  );
  add(
    'GET',
    '/connections',
    'connections of the tenant',
    true,
    'none',
    sync((c) => h.listConnections(state, c)),
  );
  add(
    'POST',
    '/connections',
    'create a connection',
    true,
    'required',
    sync((c) => h.createConnection(state, hub, c)),
    true,
  );
  add(
    'POST',
    '/idempotency-keys',
    'generate an idempotency key',
    true,
    'optional',
    sync((c) => h.createKey(state, c)),
    true,
  );
  add('GET', '/stream', 'status stream (Server-Sent Events)', false, 'none', createStream(state, hub, streams));
  add('POST', '/webhooks', 'create a webhook receiver', true, 'required', sync(hooks.register), true);
  add('GET', '/webhooks', 'list webhook receivers', true, 'none', sync(hooks.list), false, false);
  add('DELETE', '/webhooks/{id}', 'remove a webhook receiver', true, 'required', sync(hooks.remove), false, false);
  add(
    'GET',
    '/webhooks/{id}/deliveries',
    'delivery log of a webhook receiver',
    true,
    'none',
    sync(hooks.deliveries),
    false,
    false,
  );
  add(
    'POST',
    '/webhooks/{id}/deliveries/{deliveryId}/retry',
    'trigger a logged delivery again',
    true,
    'required',
    sync(hooks.redeliver),
    false,
    false,
  );
  add(
    'GET',
    '/audit-log',
    'audit log',
    true,
    'none',
    sync((c) => readAudit(state, c)),
  );
  add(
    'GET',
    '/info',
    'the access: tenant, client, environment, purpose, owner, expiry',
    true,
    'none',
    sync((c) => h.info(state, c)),
    false,
    false,
  );
  return routes;
}

function send(res: ServerResponse, type: string, text: string, _rid: string): void {
  res.writeHead(200, {
    'content-type': type,
    'content-length': Buffer.byteLength(text),
    'cache-control': 'public, max-age=60',
  });
  res.end(res.req.method === 'HEAD' ? undefined : text);
}

function describe(state: State, ctx: Ctx, routes: Route[]): Record<string, unknown> {
  return {
    service: 'network-connections',
    surface: 'public',
    version: VERSION,
    versions: VERSIONS,
    authentication: {
      type: 'oauth2',
      flows: ['client_credentials'],
      tokenEndpoint: `${ctx.origin}${TOKEN_PATH}`,
      metadata: `${ctx.origin}/.well-known/oauth-authorization-server`,
      headers: ['Authorization: Bearer <token>', 'x-service-tenant: <tenant>'],
    },
    idempotency: {
      header: 'Idempotency-Key',
      pattern: KEY_PATTERN.source,
      requiredOn: ['POST /connections', 'POST /webhooks'],
      retentionSeconds: Math.round(state.options.keyTtlMs / 1000),
    },
    webhooks: { events: WEBHOOK_EVENTS, signatureHeader: 'Olive-Signature', deliveryIdHeader: 'Olive-Delivery-Id' },
    openapi: { json: `${B}/openapi/${VERSION}.json`, yaml: `${B}/openapi/${VERSION}.yaml` },
    routes: routes.map((r) => ({ method: r.method, path: r.pattern, purpose: r.purpose, auth: r.auth })),
  };
}
