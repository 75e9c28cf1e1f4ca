// Handlers of the contract's endpoints and of our additions (info, one connection, webhook management).
import type { Audit } from './audit.ts';
import { CAPABILITIES, CONNECTORS, connectorById, decide, PROVIDERS } from './catalog.ts';
import type { Connections } from './connections.ts';
import type { Ctx } from './http-kit.ts';
import { HttpError, ok, readJsonObject } from './http-kit.ts';
import type { Idempotency } from './idempotency.ts';
import { KEY_TTL_MS } from './idempotency.ts';
import { iso, uuidv7 } from './util.ts';
import { environment, onlyFields, text, textList, webhookUrl } from './validate.ts';
import type { Webhooks } from './webhooks.ts';
import { WEBHOOK_EVENTS } from './webhooks.ts';

export interface Services {
  connections: Connections;
  idempotency: Idempotency;
  webhooks: Webhooks;
  audit: Audit;
}
export interface Params {
  id: string;
  deliveryId: string;
}
export type Handler = (ctx: Ctx, params: Params) => Promise<void> | void;

function tenantOf(ctx: Ctx): string {
  if (ctx.tenant === undefined) throw new HttpError(500, 'internal', 'Tenant missing after authentication.');
  return ctx.tenant;
}

export function operations(s: Services) {
  const q = (ctx: Ctx, name: string) => ctx.url.searchParams.get(name) ?? undefined;

  const providers: Handler = (ctx) => {
    const category = q(ctx, 'category');
    const list = PROVIDERS.filter((p) => category === undefined || p.category === category);
    ok(ctx, { count: list.length, providers: list });
  };

  const connectors: Handler = (ctx) => {
    const [capability, providerId, category] = [q(ctx, 'capability'), q(ctx, 'providerId'), q(ctx, 'category')];
    const list = CONNECTORS.filter(
      (c) =>
        (capability === undefined || c.capabilities.includes(capability)) &&
        (providerId === undefined || c.providerId === providerId) &&
        (category === undefined || c.category === category),
    );
    ok(ctx, { count: list.length, connectors: list });
  };

  const capabilities: Handler = (ctx) => ok(ctx, { count: CAPABILITIES.length, capabilities: CAPABILITIES });

  const checkCapability: Handler = async (ctx) => {
    const key = s.idempotency.readKey(ctx, false);
    const body = await readJsonObject(ctx);
    onlyFields(body, ['connectorId', 'capability', 'environment']);
    const connectorId = text(body, 'connectorId', 2, 120) as string;
    const capability = text(body, 'capability', 2, 120) as string;
    const env = environment(body, false) ?? 'sandbox';
    const data = s.idempotency.run(ctx, key, body, () => {
      if (!connectorById(connectorId))
        throw new HttpError(
          404,
          'not_found',
          'No connector with this connectorId.',
          'See GET /api/public/v1/connectors.',
        );
      return { decision: decide(connectorId, capability), environment: env };
    });
    ok(ctx, data);
  };

  const listConnections: Handler = (ctx) => {
    const list = s.connections.list(tenantOf(ctx));
    ok(ctx, { tenant: tenantOf(ctx), count: list.length, connections: list });
  };

  const oneConnection: Handler = (ctx, p) => ok(ctx, s.connections.get(tenantOf(ctx), p.id));

  const createConnection: Handler = async (ctx) => {
    const key = s.idempotency.readKey(ctx, true);
    const body = await readJsonObject(ctx);
    onlyFields(body, ['connectorId', 'environment', 'scopeLabel', 'capabilities']);
    const input = {
      connectorId: text(body, 'connectorId', 2, 120) as string,
      environment: environment(body, true) as string,
      scopeLabel: text(body, 'scopeLabel', 2, 120) as string,
      capabilities: textList(body, 'capabilities', 1, 24, 2, 120),
    };
    ok(
      ctx,
      s.idempotency.run(ctx, key, body, () => s.connections.create(tenantOf(ctx), input)),
    );
  };

  const issueKey: Handler = async (ctx) => {
    const key = s.idempotency.readKey(ctx, false);
    const body = await readJsonObject(ctx);
    onlyFields(body, ['operation']);
    const operation = text(body, 'operation', 2, 80) as string;
    ok(
      ctx,
      s.idempotency.run(ctx, key, body, () => ({
        idempotencyKey: uuidv7(),
        operation,
        expiresAt: iso(Date.now() + KEY_TTL_MS),
      })),
    );
  };

  const createWebhook: Handler = async (ctx) => {
    const key = s.idempotency.readKey(ctx, true);
    const body = await readJsonObject(ctx);
    onlyFields(body, ['url', 'events']);
    const url = webhookUrl(body);
    const events = textList(body, 'events', 1, 20, 2, 120);
    const unknown = events.find((e) => !WEBHOOK_EVENTS.includes(e));
    if (unknown !== undefined)
      throw new HttpError(
        400,
        'invalid_request',
        'Unknown event name in events.',
        `Known events: ${WEBHOOK_EVENTS.join(', ')}.`,
      );
    const data = s.idempotency.run(ctx, key, body, () => {
      const created = s.webhooks.create(tenantOf(ctx), url, [...new Set(events)]);
      s.audit.record(tenantOf(ctx), 'webhook.created', ctx.clientId ?? 'unknown', { type: 'webhook', id: created.id });
      return created;
    });
    ok(ctx, data);
  };

  const listWebhooks: Handler = (ctx) => {
    const list = s.webhooks.list(tenantOf(ctx));
    ok(ctx, { count: list.length, webhooks: list });
  };
  const oneWebhook: Handler = (ctx, p) => ok(ctx, s.webhooks.get(tenantOf(ctx), p.id));

  const deleteWebhook: Handler = (ctx, p) => {
    const key = s.idempotency.readKey(ctx, true);
    const data = s.idempotency.run(ctx, key, { id: p.id }, () => {
      const done = s.webhooks.remove(tenantOf(ctx), p.id);
      s.audit.record(tenantOf(ctx), 'webhook.deleted', ctx.clientId ?? 'unknown', { type: 'webhook', id: p.id });
      return done;
    });
    ok(ctx, data);
  };

  const deliveryLog: Handler = (ctx, p) => ok(ctx, s.webhooks.log(tenantOf(ctx), p.id));

  const resend: Handler = (ctx, p) => {
    const key = s.idempotency.readKey(ctx, true);
    const data = s.idempotency.run(ctx, key, { id: p.id, delivery: p.deliveryId }, () => {
      const queued = s.webhooks.resend(tenantOf(ctx), p.id, p.deliveryId);
      s.audit.record(tenantOf(ctx), 'webhook.delivery.resent', ctx.clientId ?? 'unknown', {
        type: 'webhook-delivery',
        id: p.deliveryId,
      });
      return queued;
    });
    ok(ctx, data);
  };

  const auditLog: Handler = (ctx) => s.audit.read(ctx, tenantOf(ctx));

  return {
    providers,
    connectors,
    capabilities,
    checkCapability,
    listConnections,
    oneConnection,
    createConnection,
    issueKey,
    createWebhook,
    listWebhooks,
    oneWebhook,
    deleteWebhook,
    deliveryLog,
    resend,
    auditLog,
  };
}
