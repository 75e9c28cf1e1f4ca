// Webhook receivers (register, list, read, remove), their delivery log and the re-triggering of a delivery.
import type { App } from './state.ts';
import type { Reply, RoutingContext, Webhook } from './types.ts';
import { badRequest, notFound, objectBody } from './util.ts';
import { DELIVERY_HEADER, SIGNATURE_HEADER, WEBHOOK_EVENTS } from './webhooks.ts';

function view(h: Webhook): Record<string, unknown> {
  return {
    id: h.id,
    url: h.url,
    events: h.events,
    status: h.status,
    createdAt: h.createdAt,
    signatureHeader: SIGNATURE_HEADER,
    deliveryIdHeader: DELIVERY_HEADER,
  };
}

function ownWebhook(ctx: RoutingContext, app: App): Webhook {
  const hook = app.webhooks.webhooks.get(ctx.params.webhookId ?? '');
  if (!hook || hook.tenantId !== ctx.tenant || hook.status !== 'active')
    throw notFound(`Webhook ${ctx.params.webhookId} not found`);
  return hook;
}

export function createWebhook(ctx: RoutingContext, app: App): Reply {
  const body = objectBody(ctx.body);
  const url = body.url;
  if (typeof url !== 'string' || url.length > 2048)
    throw badRequest('Validation error for body application/json: provided object should contain property url');
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw badRequest('Validation error for body application/json: url should be an absolute http(s) URL');
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:')
    throw badRequest('Validation error for body application/json: url should be an absolute http(s) URL');
  const events = body.events;
  if (!Array.isArray(events) || events.length < 1 || events.length > 20)
    throw badRequest('Validation error for body application/json: events should be an array of 1 to 20 event names');
  for (const e of events)
    if (typeof e !== 'string' || !WEBHOOK_EVENTS.includes(e))
      throw badRequest(`Validation error for body application/json: events: one of ${WEBHOOK_EVENTS.join(', ')}`);
  const tenant = ctx.tenant as string;
  const hook = app.webhooks.register(tenant, url, [...new Set(events as string[])]);
  app.audit.record(tenant, 'webhook.created', { type: 'webhook', id: hook.id }, ctx.clientId ?? '', ctx.requestId);
  // The signing key is issued once: a replay of this call answers the same receiver without it.
  return {
    data: { ...view(hook), signingKey: hook.secret },
    replay: { ...view(hook), signingKey: null },
  };
}

export function listWebhooks(ctx: RoutingContext, app: App): Reply {
  const webhooks = [...app.webhooks.webhooks.values()]
    .filter((h) => h.tenantId === ctx.tenant && h.status === 'active')
    .map(view);
  return { data: { count: webhooks.length, webhooks, events: WEBHOOK_EVENTS } };
}

export function getWebhook(ctx: RoutingContext, app: App): Reply {
  return { data: view(ownWebhook(ctx, app)) };
}

export function deleteWebhook(ctx: RoutingContext, app: App): Reply {
  const hook = ownWebhook(ctx, app);
  hook.status = 'deleted';
  app.audit.record(
    hook.tenantId,
    'webhook.deleted',
    { type: 'webhook', id: hook.id },
    ctx.clientId ?? '',
    ctx.requestId,
  );
  return { data: { id: hook.id, status: hook.status } };
}

export function listDeliveries(ctx: RoutingContext, app: App): Reply {
  const hook = ownWebhook(ctx, app);
  const deliveries = [...app.webhooks.deliveries.values()]
    .filter((d) => d.webhookId === hook.id)
    .map((d) => app.webhooks.view(d));
  return { data: { webhookId: hook.id, count: deliveries.length, deliveries } };
}

export function getDelivery(ctx: RoutingContext, app: App): Reply {
  const hook = ownWebhook(ctx, app);
  const d = app.webhooks.deliveries.get(ctx.params.deliveryId ?? '');
  if (!d || d.webhookId !== hook.id) throw notFound(`Delivery ${ctx.params.deliveryId} not found`);
  return { data: app.webhooks.view(d) };
}

export async function retryDelivery(ctx: RoutingContext, app: App): Promise<Reply> {
  const hook = ownWebhook(ctx, app);
  const d = app.webhooks.deliveries.get(ctx.params.deliveryId ?? '');
  if (!d || d.webhookId !== hook.id) throw notFound(`Delivery ${ctx.params.deliveryId} not found`);
  app.audit.record(
    hook.tenantId,
    'webhook.delivery.retried',
    { type: 'delivery', id: d.id },
    ctx.clientId ?? '',
    ctx.requestId,
  );
  const attempt = await app.webhooks.attempt(d, 'manual');
  return { data: { delivery: app.webhooks.view(d), attempt } };
}
