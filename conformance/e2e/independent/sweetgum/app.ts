// The handlers behind shelf_router's table, one per route of routes.ts ("METHOD path"), and what a
// connection's creation sets off: the audit entry, stream messages, webhook deliveries, the activation job.
import { type AuditLog, auditPage, record } from './audit.ts';
import { type Auth, authenticate, info } from './auth.ts';
import * as d from './deliveries.ts';
import { type Ctx, ok, parseObject } from './http.ts';
import { type IdemStore, idempotent, issueKey, requireKey } from './idempotency.ts';
import { openapi, openapiFile, selfDescription } from './public.ts';
import * as r from './resources.ts';
import { dartNow, roundTrip, type Store } from './state.ts';
import { openStream, PUBLIC, publish, type Streams } from './stream.ts';
import * as wh from './webhooks.ts';

export type Handler = (ctx: Ctx, params: string[], text: string) => void | Promise<void>;

export interface App {
  store: Store;
  auth: Auth;
  idem: IdemStore;
  audit: AuditLog;
  streams: Streams;
  hooks: wh.Hooks;
  tokenUrl: string;
}

function connectionCreated(app: App, ctx: Ctx, c: ReturnType<typeof r.createConnection>): void {
  const tenant = c.tenant;
  record(app.audit, tenant, 'connection.created', 'connection', c.id, ctx.clientId ?? '');
  publish(app.streams, tenant, 'connection.created', {
    connectionId: c.id,
    connectorId: c.connectorId,
    state: c.state,
  });
  publish(app.streams, PUBLIC, 'connection.activity', { environment: c.environment, state: c.state });
  d.emit(app.hooks, tenant, 'connection.created', { connection: r.connectionView(c) });
  // Provider activation is a background job (a Postgres LISTEN/NOTIFY worker in the Dart service).
  const timer = setTimeout(() => {
    app.hooks.timers.delete(timer);
    Object.assign(c, { state: 'active', nextStep: 'none', updatedAt: dartNow() });
    record(app.audit, tenant, 'connection.activated', 'connection', c.id, 'system');
    publish(app.streams, tenant, 'connection.activated', {
      connectionId: c.id,
      connectorId: c.connectorId,
      state: c.state,
    });
    publish(app.streams, PUBLIC, 'connection.activity', { environment: c.environment, state: c.state });
    d.emit(app.hooks, tenant, 'connection.activated', { connection: r.connectionView(c) });
  }, 200);
  app.hooks.timers.add(timer);
}

export function handlers(app: App): Record<string, Handler> {
  const { store, idem, hooks, audit } = app;
  return {
    'GET ': (ctx) => selfDescription(ctx, app.tokenUrl, store.options.shelfPaths),
    'GET /openapi.json': (ctx) => openapi(ctx, app.tokenUrl),
    'GET /openapi/{version}.json': (ctx, [v = '']) => openapiFile(ctx, app.tokenUrl, v, 'json'),
    'GET /openapi/{version}.yaml': (ctx, [v = '']) => openapiFile(ctx, app.tokenUrl, v, 'yaml'),
    'GET /info': (ctx) => ok(ctx, info(ctx)),
    'GET /providers': (ctx) => ok(ctx, r.listProviders(ctx)),
    'GET /connectors': (ctx) => ok(ctx, r.listConnectors(ctx)),
    'GET /capabilities': (ctx) => ok(ctx, r.listCapabilities()),
    'POST /capabilities': (ctx, _p, text) => ok(ctx, r.checkCapability(parseObject(text))),
    'GET /connections': (ctx) => ok(ctx, r.listConnections(store, ctx)),
    'POST /connections': (ctx, _p, text) => {
      requireKey(ctx);
      const body = parseObject(text);
      const fields = r.validateCreation(body);
      return idempotent(idem, ctx, body, async () => {
        await roundTrip(store);
        const c = r.createConnection(store, ctx, fields);
        connectionCreated(app, ctx, c);
        return r.connectionView(c);
      });
    },
    'POST /idempotency-keys': (ctx, _p, text) => ok(ctx, issueKey(parseObject(text))),
    'GET /stream': (ctx) => {
      // Public: without credentials the anonymous log; with them, the tenant's own.
      if (ctx.req.headers.authorization) authenticate(app.auth, ctx);
      openStream(app.streams, ctx, ctx.tenant ?? PUBLIC, store.options.streamReplayAll);
    },
    'POST /webhooks': (ctx, _p, text) => {
      requireKey(ctx);
      const body = parseObject(text);
      const fields = wh.validateWebhook(body);
      return idempotent(idem, ctx, body, async () => {
        await roundTrip(store);
        const created = wh.createWebhook(hooks, ctx, fields);
        record(audit, ctx.tenant ?? '', 'webhook.created', 'webhook', String(created.id), ctx.clientId ?? '');
        return created;
      });
    },
    'GET /webhooks/{webhookId}': (ctx, [id = '']) => ok(ctx, wh.webhookView(wh.findWebhook(hooks, ctx, id))),
    'DELETE /webhooks/{webhookId}': (ctx, [id = '']) =>
      idempotent(idem, ctx, {}, () => {
        record(audit, ctx.tenant ?? '', 'webhook.deleted', 'webhook', id, ctx.clientId ?? '');
        return wh.removeWebhook(hooks, ctx, id);
      }),
    'GET /webhooks/{webhookId}/delivery-attempts': (ctx, [id = '']) => ok(ctx, wh.listAttempts(hooks, ctx, id)),
    'POST /webhooks/{webhookId}/delivery-attempts/{attemptId}/resend': (ctx, [id = '', attemptId = '']) =>
      idempotent(idem, ctx, {}, () => {
        const again = d.resend(hooks, ctx, id, attemptId);
        record(audit, ctx.tenant ?? '', 'webhook.redelivered', 'deliveryAttempt', attemptId, ctx.clientId ?? '');
        return again;
      }),
    'GET /audit-log': (ctx) => ok(ctx, auditPage(store, audit, ctx)),
  };
}
