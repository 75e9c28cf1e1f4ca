// Webhook receivers, signed deliveries (t=<unix>,v1=<hex hmac>), the delivery log and redelivery on request.
import { createHmac, randomBytes } from 'node:crypto';
import { record } from './audit.ts';
import { ApiError, type Call, newId, page } from './http.ts';
import type { Delivery, State, Webhook } from './state.ts';

export const WEBHOOK_EVENTS = ['connection.created', 'connection.activated', 'order.created', 'order.paid'];
export const SIGNATURE_HEADER = 'X-Sandalwood-Signature';
export const DELIVERY_HEADER = 'X-Sandalwood-Delivery';
const MAX_ATTEMPTS = 3;

function view(w: Webhook): Record<string, unknown> {
  return {
    id: w.id,
    name: w.name,
    url: w.url,
    events: w.events,
    state: w.state,
    createTime: w.createTime,
    etag: w.etag,
  };
}

function deliveryView(d: Delivery): Record<string, unknown> {
  const { body: _body, ...rest } = d;
  return rest;
}

export function createWebhook(state: State, call: Call, body: Record<string, unknown>): unknown {
  const url = body.url;
  let parsed: URL | undefined;
  try {
    parsed = typeof url === 'string' ? new URL(url) : undefined;
  } catch {
    parsed = undefined;
  }
  if (!parsed || (parsed.protocol !== 'https:' && parsed.protocol !== 'http:') || String(url).length > 2048)
    throw new ApiError('invalid_request', 'url must be an absolute http(s) address.', { field: 'url' });
  const events = body.events;
  if (!Array.isArray(events) || events.length < 1 || events.length > 20)
    throw new ApiError('invalid_request', 'events must be an array of 1 to 20 event names.', { field: 'events' });
  for (const e of events)
    if (typeof e !== 'string' || !WEBHOOK_EVENTS.includes(e))
      throw new ApiError('invalid_request', `events: one of ${WEBHOOK_EVENTS.join(', ')}.`, { field: 'events' });
  const id = newId('whk', 20);
  const w: Webhook = {
    id,
    name: `tenants/${call.tenant}/webhooks/${id}`,
    tenant: call.tenant ?? '',
    url: String(url),
    events: [...new Set(events as string[])],
    state: 'ACTIVE',
    signingKey: `swk_${randomBytes(32).toString('hex')}`,
    createTime: new Date().toISOString(),
    etag: randomBytes(8).toString('hex'),
  };
  state.webhooks.set(id, w);
  record(state, call, 'webhook.create', w.name);
  // The signing key is issued here once; no later read shows it.
  return { ...view(w), signingKey: w.signingKey, signatureHeader: SIGNATURE_HEADER };
}

function owned(state: State, call: Call, id: string): Webhook {
  const w = state.webhooks.get(id);
  if (!w || w.tenant !== call.tenant) throw new ApiError('not_found', 'No such webhook receiver for this tenant.');
  return w;
}

export function listWebhooks(state: State, call: Call): unknown {
  const mine = [...state.webhooks.values()].filter((w) => w.tenant === call.tenant).map(view);
  const p = page(mine, call.url);
  return { count: p.items.length, webhooks: p.items, nextPageToken: p.nextPageToken };
}

export const getWebhook = (state: State, call: Call, id: string): unknown => view(owned(state, call, id));

export function deleteWebhook(state: State, call: Call, id: string): unknown {
  const w = owned(state, call, id);
  state.webhooks.delete(id);
  record(state, call, 'webhook.delete', w.name);
  return { id: w.id, name: w.name, deleted: true };
}

export function listDeliveries(state: State, call: Call, id: string): unknown {
  const w = owned(state, call, id);
  const mine = state.deliveries.filter((d) => d.webhookId === w.id).map(deliveryView);
  const p = page(mine, call.url, 100);
  return { webhookId: w.id, count: p.items.length, deliveries: p.items, nextPageToken: p.nextPageToken };
}

export function redeliver(state: State, call: Call, id: string, deliveryId: string): unknown {
  const w = owned(state, call, id);
  const original = state.deliveries.find((d) => d.id === deliveryId && d.webhookId === w.id);
  if (!original) throw new ApiError('not_found', 'No such delivery of this webhook receiver.');
  const d = newDelivery(w, original.eventId, original.eventType, original.body, original.id);
  state.deliveries.push(d);
  record(state, call, 'webhook.delivery.redeliver', d.name);
  attempt(state, w, d);
  return deliveryView(d);
}

function newDelivery(w: Webhook, eventId: string, type: string, body: string, of: string | null): Delivery {
  const id = newId('dlv', 20);
  return {
    id,
    name: `${w.name}/deliveries/${id}`,
    webhookId: w.id,
    eventId,
    eventType: type,
    body,
    state: 'PENDING',
    attemptCount: 0,
    responseStatus: null,
    lastError: null,
    redeliveryOf: of,
    createTime: new Date().toISOString(),
    completeTime: null,
  };
}

/** Sends a tenant's event to each of its receivers subscribed to it. */
export function dispatch(state: State, tenant: string, type: string, data: Record<string, unknown>): void {
  const eventId = newId('evt', 20);
  const body = JSON.stringify({ id: eventId, type, createTime: new Date().toISOString(), tenant, data });
  for (const w of state.webhooks.values()) {
    if (w.tenant !== tenant || !w.events.includes(type)) continue;
    const d = newDelivery(w, eventId, type, body, null);
    state.deliveries.push(d);
    attempt(state, w, d);
  }
}

function attempt(state: State, w: Webhook, d: Delivery): void {
  if (state.closed) return;
  d.attemptCount += 1;
  const t = Math.floor(Date.now() / 1000);
  const v1 = createHmac('sha256', w.signingKey).update(`${t}.${d.body}`).digest('hex');
  fetch(w.url, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      'user-agent': 'sandalwood-webhooks/2026-07-01',
      [SIGNATURE_HEADER]: `t=${t},v1=${v1}`,
      [DELIVERY_HEADER]: d.id,
      'X-Sandalwood-Event': d.eventType,
    },
    body: d.body,
    signal: AbortSignal.timeout(5000),
  })
    .then(async (r) => {
      await r.arrayBuffer().catch(() => undefined);
      d.responseStatus = r.status;
      if (r.ok) finish(d, 'SUCCEEDED', null);
      else retryOrFail(state, w, d, `receiver answered ${r.status}`);
    })
    .catch((e: unknown) => retryOrFail(state, w, d, e instanceof Error ? e.message : 'delivery failed'));
}

function retryOrFail(state: State, w: Webhook, d: Delivery, error: string): void {
  d.lastError = error;
  if (d.attemptCount >= MAX_ATTEMPTS) {
    finish(d, 'FAILED', error);
    return;
  }
  state.later(1000 * 2 ** (d.attemptCount - 1), () => attempt(state, w, d));
}

function finish(d: Delivery, s: Delivery['state'], error: string | null): void {
  d.state = s;
  d.lastError = error;
  d.completeTime = new Date().toISOString();
}

/** Judges a registration body before the idempotency lookup. */
export function validateWebhookBody(body: Record<string, unknown>): void {
  if (typeof body.url !== 'string') throw new ApiError('invalid_request', 'url is required.', { field: 'url' });
  if (!Array.isArray(body.events) || !body.events.every((e) => typeof e === 'string' && WEBHOOK_EVENTS.includes(e)))
    throw new ApiError('invalid_request', `events: one of ${WEBHOOK_EVENTS.join(', ')}.`, { field: 'events' });
}
