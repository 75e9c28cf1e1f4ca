// The routing's handlers: one per route of the table, given the filtered request context.
import { AuditLog } from './audit.ts';
import { DeliveryLog } from './deliveries.ts';
import { ApiError, type Ctx, ok, type Rec, readJson, readRaw, str } from './http.ts';
import { idempotent, issueKey, requireKey } from './idempotency.ts';
import { info, openapiFile, selfDescription } from './public.ts';
import * as res from './resources.ts';
import type { Store } from './state.ts';
import { StreamHub } from './stream.ts';
import { view, WebhookRegistry } from './webhooks.ts';

export interface App {
  store: Store;
  hub: StreamHub;
  registry: WebhookRegistry;
  deliveries: DeliveryLog;
  audit: AuditLog;
}

export function newApp(store: Store): App {
  const registry = new WebhookRegistry();
  const pretty = store.options.prettyJson;
  const deliveries = new DeliveryLog(registry, pretty);
  return { store, hub: new StreamHub(pretty), registry, deliveries, audit: new AuditLog(store) };
}

/** A body that may be empty (DELETE, retry): an empty object then. */
async function optionalJson(ctx: Ctx): Promise<Rec> {
  const raw = await readRaw(ctx.req);
  if (raw.trim() === '') return {};
  try {
    const v = JSON.parse(raw);
    if (v && typeof v === 'object' && !Array.isArray(v)) return v as Rec;
  } catch {}
  throw new ApiError(400, 'invalid_request', 'Request body must be a JSON object');
}

function pageParams(ctx: Ctx, max: number): { limit: number; offset: number } {
  const limit = Number(ctx.url.searchParams.get('limit') ?? 25);
  const offset = Number(ctx.url.searchParams.get('offset') ?? 0);
  if (!Number.isInteger(limit) || limit < 1 || !Number.isInteger(offset) || offset < 0) {
    throw new ApiError(400, 'invalid_request', 'limit and offset must be non-negative integers');
  }
  return { limit: Math.min(limit, max), offset };
}

export async function handle(app: App, ctx: Ctx, key: string, p: Record<string, string>): Promise<void> {
  const { store } = app;
  const tenant = ctx.tenant ?? '';
  switch (key) {
    case 'GET ':
      return void ok(ctx, selfDescription(ctx));
    case 'GET /openapi.json':
      return openapiFile(ctx, ctx.version, 'json', false);
    case 'GET /openapi/{version}.json':
      return openapiFile(ctx, p.version ?? '', 'json', true);
    case 'GET /openapi/{version}.yaml':
      return openapiFile(ctx, p.version ?? '', 'yaml', true);
    case 'GET /info':
      return void ok(ctx, info(ctx));
    case 'GET /providers':
      return void ok(ctx, res.listProviders(ctx));
    case 'GET /connectors':
      return void ok(ctx, res.listConnectors(ctx));
    case 'GET /capabilities':
      return void ok(ctx, res.listCapabilities());
    case 'POST /capabilities':
      return void ok(ctx, res.checkCapability(await readJson(ctx)));
    case 'GET /connections':
      return void ok(ctx, res.listConnections(store, tenant));
    case 'GET /connections/{connectionId}': {
      const conn = store.connections.find((c) => c.id === p.connectionId && c.tenant === tenant);
      if (!conn) throw new ApiError(404, 'not_found', 'Connection not found');
      return void ok(ctx, res.publicConnection(conn));
    }
    case 'POST /connections': {
      const k = requireKey(ctx);
      const body = await readJson(ctx);
      return idempotent(store, ctx, k, body, () => {
        const conn = res.publicConnection(res.createConnection(store, tenant, res.validateConnection(body)));
        app.audit.record(ctx, 'CONNECTION_CREATED', 'connection', conn.id);
        app.hub.emit(tenant, 'connection.created', conn);
        app.deliveries.dispatch(tenant, 'connection.created', { connection: conn });
        return conn;
      });
    }
    case 'POST /idempotency-keys':
      return void ok(ctx, issueKey(str(await readJson(ctx), 'operation', 2, 80) ?? ''));
    case 'GET /stream':
      return app.hub.open(ctx, ctx.tenant);
    case 'POST /webhooks': {
      const k = requireKey(ctx);
      const body = await readJson(ctx);
      return idempotent(store, ctx, k, body, () => {
        const created = app.registry.register(tenant, body);
        app.audit.record(ctx, 'WEBHOOK_CREATED', 'webhook', created.id);
        return created;
      });
    }
    case 'GET /webhooks':
      return void ok(ctx, app.registry.list(tenant));
    case 'GET /webhooks/{webhookId}':
      return void ok(ctx, view(app.registry.find(tenant, p.webhookId)));
    case 'DELETE /webhooks/{webhookId}': {
      const k = requireKey(ctx);
      const body = await optionalJson(ctx);
      return idempotent(store, ctx, k, body, () => {
        const removed = app.registry.remove(tenant, p.webhookId);
        app.audit.record(ctx, 'WEBHOOK_DELETED', 'webhook', removed.id);
        return removed;
      });
    }
    case 'GET /webhooks/{webhookId}/delivery-attempts': {
      const sub = app.registry.find(tenant, p.webhookId);
      const { limit, offset } = pageParams(ctx, store.options.maxPageSize);
      const page = app.deliveries.page(sub, limit, offset);
      // The next page as an RFC 8288 link, as the audit log does (unless configured to tell it in the body only).
      if (page.hasMore && store.options.pagingLinkHeader) {
        ctx.headers.link = `<${ctx.url.pathname}?limit=${limit}&offset=${offset + limit}>; rel="next"`;
      }
      return void ok(ctx, page);
    }
    case 'POST /webhooks/{webhookId}/delivery-attempts/{deliveryId}/retry': {
      const k = requireKey(ctx);
      const body = await optionalJson(ctx);
      const sub = app.registry.find(tenant, p.webhookId);
      return idempotent(store, ctx, k, body, () => {
        const d = app.deliveries.redeliver(sub, p.deliveryId);
        app.audit.record(ctx, 'DELIVERY_RETRIED', 'delivery', d.deliveryId);
        return d;
      });
    }
    case 'GET /audit-log': {
      const { data, link } = app.audit.page(ctx);
      if (link) ctx.headers.link = link;
      return void ok(ctx, data);
    }
  }
  throw new ApiError(404, 'not_found', 'No such resource');
}
