// The webhook controllers: receivers (create, list, destroy) and the delivery log with its retry action.
// Each returns the data of its answer (or throws an ApiError), like handlers.ts.
import { record } from './audit.ts';
import { type Call, whodunnit } from './handlers.ts';
import { newSecret, type State } from './state.ts';
import { ApiError } from './util.ts';
import { webhookBody } from './validate.ts';
import { deliveryView, enqueue, SIGNATURE_HEADER, type Webhook } from './webhooks.ts';

function hookView(h: Webhook) {
  return {
    id: h.id,
    url: h.url,
    events: h.events,
    status: h.status,
    signatureHeader: SIGNATURE_HEADER,
    createdAt: h.createdAt,
  };
}

export function createWebhook(s: State, c: Call) {
  const b = webhookBody(c.body);
  const hook: Webhook = {
    id: s.newId(),
    tenant: c.tenant,
    url: b.url,
    events: b.events,
    signingKey: newSecret('whsk_', 32),
    status: 'enabled',
    createdAt: s.iso(),
  };
  s.webhooks.hooks.set(hook.id, hook);
  record(s, c.tenant, {
    event: 'create',
    itemType: 'Webhook',
    itemId: hook.id,
    whodunnit: whodunnit(c),
    requestId: c.ctx.requestId,
    objectChanges: { url: [null, hook.url], events: [null, hook.events] },
  });
  // The key is shown in this answer only; it is stored for signing and never rendered again.
  return { ...hookView(hook), signingKey: hook.signingKey };
}

function ownHook(s: State, c: Call, id: string | undefined): Webhook {
  const hook = id ? s.webhooks.hooks.get(id) : undefined;
  if (!hook || hook.tenant !== c.tenant)
    throw new ApiError('not_found', 'Webhook not found', undefined, 'compare identifier and tenant header');
  return hook;
}

export function listWebhooks(s: State, c: Call) {
  const webhooks = [...s.webhooks.hooks.values()].filter((h) => h.tenant === c.tenant).map(hookView);
  return { count: webhooks.length, webhooks };
}

export function deleteWebhook(s: State, c: Call) {
  const hook = ownHook(s, c, c.params[0]);
  s.webhooks.hooks.delete(hook.id);
  record(s, c.tenant, {
    event: 'destroy',
    itemType: 'Webhook',
    itemId: hook.id,
    whodunnit: whodunnit(c),
    requestId: c.ctx.requestId,
    objectChanges: { status: [hook.status, 'deleted'] },
  });
  return { id: hook.id, deleted: true };
}

function sinceCurrent(c: Call): void {
  if (c.ctx.version === '2026-06-12') {
    throw new ApiError(
      'not_found',
      'The webhook delivery log exists from version 2026-07-01',
      undefined,
      'send Service-Version: 2026-07-01',
    );
  }
}

/** GET /webhook-deliveries?webhookId=…: newest first; without webhookId, every receiver of the tenant. */
export function listDeliveries(s: State, c: Call) {
  sinceCurrent(c);
  const webhookId = c.ctx.query.get('webhookId');
  if (webhookId !== null) ownHook(s, c, webhookId);
  const deliveries = [...s.webhooks.deliveries.values()]
    .filter((d) => d.tenant === c.tenant && (webhookId === null || d.webhookId === webhookId))
    .reverse()
    .map(deliveryView);
  return { webhookId, count: deliveries.length, deliveries };
}

export function retryDelivery(s: State, c: Call) {
  sinceCurrent(c);
  const d = c.params[0] ? s.webhooks.deliveries.get(c.params[0]) : undefined;
  if (!d || d.tenant !== c.tenant)
    throw new ApiError('not_found', 'Delivery not found', undefined, 'list deliveries with GET /webhook-deliveries');
  const hook = ownHook(s, c, d.webhookId);
  const again = enqueue(s, hook, d.eventId, d.event, d.body, d.id);
  record(s, c.tenant, {
    event: 'create',
    itemType: 'WebhookDelivery',
    itemId: again.id,
    whodunnit: whodunnit(c),
    requestId: c.ctx.requestId,
    objectChanges: { retryOf: [null, d.id] },
  });
  return deliveryView(again);
}
