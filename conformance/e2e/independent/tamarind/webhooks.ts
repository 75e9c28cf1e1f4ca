// Webhook receivers and their delivery log. Receivers and deliveries are SQLAlchemy rows with integer ids,
// served as JSON numbers; the signing secret is returned by the creation answer only (its replay included:
// the same response again), never by a later read.
import { randomBytes, randomUUID } from 'node:crypto';
import { record } from './audit.ts';
import type { Worker } from './delivery.ts';
import { ApiError, type Ctx } from './http.ts';
import { type Delivery, type Json, nowIso, type Store, type Webhook } from './state.ts';

export const EVENT_NAMES = ['connection.created', 'connection.activated', 'order.created', 'order.paid'] as const;

function validate(body: Json): { url: string; events: string[] } {
  const { url, events } = body;
  if (typeof url !== 'string' || url.length > 2048 || !/^https?:\/\/[^\s]+$/i.test(url)) {
    throw new ApiError('invalid_request', 'Invalid url', "'url' must be an http(s) URL");
  }
  if (!Array.isArray(events) || events.length < 1 || events.length > 20) {
    throw new ApiError('invalid_request', 'Invalid events', "'events' must be an array of 1 to 20 event names");
  }
  for (const e of events) {
    if (typeof e !== 'string' || !(EVENT_NAMES as readonly string[]).includes(e)) {
      throw new ApiError('invalid_request', 'Unknown event name', `events: one of ${EVENT_NAMES.join(', ')}`);
    }
  }
  return { url, events: [...new Set(events as string[])] };
}

export const hookView = (h: Webhook): Json => ({
  id: h.pk,
  url: h.url,
  events: h.events,
  active: !h.deleted,
  created_at: h.created_at,
});

export const deliveryView = (d: Delivery): Json => ({
  id: d.pk,
  webhook_id: d.webhook_pk,
  event_id: d.event_id,
  event: d.event,
  status: d.status,
  attempts: d.attempts,
  response_status: d.response_status,
  redelivery_of: d.redelivery_of,
  created_at: d.created_at,
  last_attempt_at: d.last_attempt_at,
});

export function createWebhook(store: Store, ctx: Ctx, body: Json): Json {
  const { url, events } = validate(body);
  const hook: Webhook = {
    pk: store.seq.take('webhooks'),
    tenant: ctx.tenant ?? '',
    url,
    events,
    secret: `whsec_${randomBytes(24).toString('base64url')}`,
    created_at: nowIso(),
    deleted: false,
  };
  store.webhooks.push(hook);
  record(store, hook.tenant, ctx.clientId ?? '', 'webhook.create', 'webhook', String(hook.pk));
  return { ...hookView(hook), signing_secret: hook.secret };
}

/** The tenant's live receiver by its path id; another tenant's (or a removed) one is not found. */
export function findHook(store: Store, ctx: Ctx, raw: string): Webhook {
  const hook = /^\d{1,12}$/.test(raw) ? store.webhooks.find((h) => h.pk === Number(raw)) : undefined;
  if (!hook || hook.tenant !== ctx.tenant || hook.deleted) {
    throw new ApiError('not_found', 'Webhook not found', undefined, 'Compare the identifier and the tenant header.');
  }
  return hook;
}

export function listDeliveries(store: Store, hook: Webhook): Json {
  const rows = store.deliveries.filter((d) => d.webhook_pk === hook.pk).reverse();
  return { webhook_id: hook.pk, count: rows.length, deliveries: rows.map(deliveryView) };
}

export function redeliver(store: Store, worker: Worker, ctx: Ctx, hook: Webhook, rawId: string): Json {
  const original = /^\d{1,12}$/.test(rawId)
    ? store.deliveries.find((d) => d.pk === Number(rawId) && d.webhook_pk === hook.pk)
    : undefined;
  if (!original) throw new ApiError('not_found', 'Delivery not found');
  const copy = store.options.requeueSameRow
    ? worker.requeue(hook, original)
    : worker.enqueue(hook, original.event_id, original.event, original.body, original.pk);
  record(store, hook.tenant, ctx.clientId ?? '', 'webhook.redeliver', 'webhook_delivery', String(copy.pk));
  return deliveryView(copy);
}

export function deleteWebhook(store: Store, ctx: Ctx, hook: Webhook): Json {
  hook.deleted = true;
  record(store, hook.tenant, ctx.clientId ?? '', 'webhook.delete', 'webhook', String(hook.pk));
  return { id: hook.pk, deleted: true };
}

/** Fans an event out to the tenant's receivers subscribed to it (the Celery signal handler). */
export function dispatch(store: Store, worker: Worker, tenant: string, event: string, data: Json): void {
  const eventId = store.options.uuidEventIds ? randomUUID() : store.seq.take('events');
  const body = JSON.stringify({ id: eventId, event, created_at: nowIso(), tenant, data });
  for (const hook of store.webhooks) {
    if (hook.tenant === tenant && !hook.deleted && hook.events.includes(event)) {
      worker.enqueue(hook, eventId, event, body, null);
    }
  }
}
