// The views behind the operationIds: each returns the `data` of its success envelope, or answers itself
// (idempotent operations, documents, the stream). Modifying views go through the `idempotent` decorator.
import { listAudit } from './audit.ts';
import type { Realm } from './auth.ts';
import { DELIVERY_HEADER, SIGNATURE_HEADER, type Worker } from './delivery.ts';
import { type Ctx, parseJsonObject, readBody, send, success } from './http.ts';
import { generateKey, idempotent, KEY_TTL_MS, requireKey } from './idempotency.ts';
import { openapiDocument } from './openapi.ts';
import * as res from './resources.ts';
import { ROUTES } from './routes.ts';
import { BASE, type Json, type Store, VERSION } from './state.ts';
import { StreamHub } from './stream.ts';
import * as hooks from './webhooks.ts';
import { toYaml } from './yaml.ts';

export interface App {
  store: Store;
  realm: Realm;
  worker: Worker;
  hub: StreamHub;
  origin: string;
  environment: string;
  publish: res.Publish;
}

type View = (app: App, ctx: Ctx, params: Record<string, string>) => Promise<Json | undefined> | Json | undefined;

const body = async (ctx: Ctx): Promise<Json> => parseJsonObject(ctx, await readBody(ctx));

function describe(app: App): Json {
  return {
    service: 'Network Connections Service',
    surface: 'public',
    version: VERSION,
    implementation: 'tamarind (Flask + Connexion)',
    environment: app.environment,
    authentication: {
      type: 'oauth2',
      flow: 'client_credentials',
      token_url: `${app.origin}/realms/ncs-sandbox/protocol/openid-connect/token`,
      token_endpoint_auth_methods: ['client_secret_basic', 'client_secret_post'],
      tenant_header: 'x-service-tenant',
    },
    idempotency: { header: 'Idempotency-Key', pattern: '^[A-Za-z0-9._:-]{8,128}$', ttl_seconds: KEY_TTL_MS / 1000 },
    webhooks: { events: [...hooks.EVENT_NAMES], signature_header: SIGNATURE_HEADER, delivery_header: DELIVERY_HEADER },
    routes: ROUTES.map((r) => ({
      method: r.method,
      path: r.path === '/' ? BASE : `${BASE}${r.path}`,
      purpose: r.purpose,
      auth: r.auth,
    })),
  };
}

function document(app: App, ctx: Ctx, version: string, format: 'json' | 'yaml' | 'inline'): undefined {
  const host = ctx.req.headers.host ?? app.origin.slice('http://'.length);
  const { absoluteServers, serviceVersionRequired } = app.store.options;
  const server = absoluteServers ? `http://${host}${BASE}` : BASE;
  const doc = openapiDocument(app.origin, version, server, serviceVersionRequired);
  const text = format === 'yaml' ? toYaml(doc) : JSON.stringify(doc, null, format === 'json' ? 2 : undefined);
  const type = format === 'yaml' ? 'application/yaml; charset=utf-8' : 'application/json; charset=utf-8';
  const disposition: Record<string, string> =
    format === 'inline' ? {} : { 'content-disposition': `attachment; filename="ncs-openapi-${version}.${format}"` };
  ctx.res.writeHead(200, { 'content-type': type, 'x-request-id': ctx.requestId, ...ctx.headers, ...disposition });
  ctx.res.end(text);
  return undefined;
}

export const VIEWS: Record<string, View> = {
  describe: (app) => describe(app),
  openapi: (app, ctx) => document(app, ctx, ctx.version, 'inline'),
  openapi_json_file: (app, ctx, p) => document(app, ctx, p.version ?? VERSION, 'json'),
  openapi_yaml_file: (app, ctx, p) => document(app, ctx, p.version ?? VERSION, 'yaml'),
  info: (app, ctx) => ({
    client_id: ctx.clientId,
    tenant: ctx.tenant,
    environment: app.environment,
    version: ctx.version,
  }),
  list_providers: (_app, ctx) => res.listProviders(ctx),
  list_connectors: (_app, ctx) => res.listConnectors(ctx),
  list_capabilities: () => res.listCapabilities(),
  check_capability: async (app, ctx) =>
    res.checkCapability(await body(ctx), app.store.options.sandboxRefusesProduction),
  list_connections: (app, ctx) => res.listConnections(app.store, ctx),
  get_connection: (app, ctx, p) => res.getConnection(app.store, ctx, p.connection_id ?? ''),
  create_connection: async (app, ctx) => {
    requireKey(ctx);
    const b = await body(ctx);
    const delay = app.store.options.activationDelayMs;
    idempotent(app.store, ctx, 'connection.create', b, () =>
      res.createConnection(app.store, ctx, b, app.publish, delay),
    );
    return undefined;
  },
  create_idempotency_key: async (_app, ctx) => generateKey(await body(ctx)),
  stream: (app, ctx) => {
    const after = StreamHub.resumeFrom(ctx);
    const { sseEventField: eventField, streamFromStart: fromStart } = app.store.options;
    app.hub.serve(ctx, ctx.tenant ? `tenant:${ctx.tenant}` : 'public', after, { eventField, fromStart });
    return undefined;
  },
  list_webhooks: (app, ctx) => {
    const rows = app.store.webhooks.filter((h) => h.tenant === ctx.tenant && !h.deleted);
    return { count: rows.length, webhooks: rows.map(hooks.hookView) };
  },
  create_webhook: async (app, ctx) => {
    requireKey(ctx);
    const b = await body(ctx);
    idempotent(app.store, ctx, 'webhook.create', b, () => hooks.createWebhook(app.store, ctx, b));
    return undefined;
  },
  get_webhook: (app, ctx, p) => hooks.hookView(hooks.findHook(app.store, ctx, p.webhook_id ?? '')),
  delete_webhook: (app, ctx, p) => {
    idempotent(app.store, ctx, 'webhook.delete', {}, () =>
      hooks.deleteWebhook(app.store, ctx, hooks.findHook(app.store, ctx, p.webhook_id ?? '')),
    );
    return undefined;
  },
  list_delivery_attempts: (app, ctx, p) =>
    hooks.listDeliveries(app.store, hooks.findHook(app.store, ctx, p.webhook_id ?? '')),
  requeue_delivery_attempt: async (app, ctx, p) => {
    requireKey(ctx);
    await readBody(ctx);
    idempotent(app.store, ctx, 'webhook.requeue', {}, () => {
      const hook = hooks.findHook(app.store, ctx, p.webhook_id ?? '');
      return hooks.redeliver(app.store, app.worker, ctx, hook, p.attempt_id ?? '');
    });
    return undefined;
  },
  list_audit_log: (app, ctx) => listAudit(app.store, ctx),
};

export function answer(ctx: Ctx, data: Json): void {
  send(ctx, 200, success(ctx, data));
}
