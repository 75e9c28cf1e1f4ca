// Webhooks: receivers in KV, one delivery per event enqueued on the KV queue (backoffSchedule retries),
// every attempt recorded in the delivery log, a selective re-trigger that creates a new delivery.
import { createHmac, randomBytes } from 'node:crypto';
import { ApiError } from './http.ts';
import type { App } from './state.ts';

export const EVENT_NAMES = ['connection.created', 'connection.activated', 'order.created', 'order.paid'];
export const SIGNATURE_HEADER = 'x-tupelo-signature';
export const DELIVERY_HEADER = 'x-tupelo-delivery';

export interface Webhook {
  id: string;
  url: string;
  events: string[];
  secret: string;
  createdAt: string;
}
export interface Attempt {
  at: string;
  statusCode: number | null;
  error?: string;
}
export interface Delivery {
  id: string;
  webhookId: string;
  event: string;
  eventId: string;
  trigger: 'event' | 'retrigger';
  retriggerOf?: string;
  status: 'pending' | 'delivered' | 'failed';
  attempts: Attempt[];
  createdAt: string;
  body: string;
}

export function createWebhook(app: App, tenant: string, body: Record<string, unknown>) {
  const url = body.url;
  let parsed: URL | undefined;
  try {
    parsed = typeof url === 'string' ? new URL(url) : undefined;
  } catch {
    parsed = undefined;
  }
  if (!parsed || !['http:', 'https:'].includes(parsed.protocol) || typeof url !== 'string' || url.length > 2048) {
    throw new ApiError('invalid_request', 'Field url must be an absolute http(s) address.');
  }
  const events = body.events;
  if (
    !Array.isArray(events) ||
    events.length < 1 ||
    events.length > 20 ||
    !events.every((e) => typeof e === 'string')
  ) {
    throw new ApiError('invalid_request', 'Field events must be a list of 1 to 20 event names.');
  }
  const unknown = events.filter((e) => !EVENT_NAMES.includes(e));
  if (unknown.length) {
    throw new ApiError('invalid_request', 'Unknown event name.', `known: ${EVENT_NAMES.join(', ')}`);
  }
  const hook: Webhook = {
    id: app.kv.nextStamp(),
    url,
    events: [...new Set(events as string[])],
    secret: `whsec_${randomBytes(24).toString('hex')}`,
    createdAt: new Date().toISOString(),
  };
  app.kv.set(['webhooks', tenant, hook.id], hook);
  return hook;
}

export function publicHook(h: Webhook) {
  return { id: h.id, url: h.url, events: h.events, createdAt: h.createdAt, signatureHeader: SIGNATURE_HEADER };
}

export function findHook(app: App, tenant: string, id: string): Webhook {
  const h = app.kv.get<Webhook>(['webhooks', tenant, id])?.value;
  if (!h) throw new ApiError('not_found', 'No webhook receiver with this id for this tenant.');
  return h;
}

export function deleteHook(app: App, tenant: string, id: string) {
  const h = findHook(app, tenant, id);
  app.kv.delete(['webhooks', tenant, id]);
  return { id: h.id, deleted: true };
}

function enqueue(app: App, tenant: string, d: Delivery): void {
  app.kv.set(['deliveries', tenant, d.webhookId, d.id], d);
  app.kv.enqueue(
    { tenant, webhookId: d.webhookId, deliveryId: d.id },
    { delay: app.opts.deliveryDelayMs, backoffSchedule: app.opts.backoffMs },
  );
}

/** Fans one event out to every receiver of the tenant that subscribed to it. */
export function dispatch(app: App, tenant: string, event: string, data: Record<string, unknown>): void {
  const eventId = app.kv.nextStamp();
  const createdAt = new Date().toISOString();
  for (const { value: h } of app.kv.list<Webhook>(['webhooks', tenant])) {
    if (!h.events.includes(event)) continue;
    const id = app.kv.nextStamp();
    const body = JSON.stringify({ id: eventId, deliveryId: id, type: event, createdAt, tenant, data });
    enqueue(app, tenant, {
      id,
      webhookId: h.id,
      event,
      eventId,
      trigger: 'event',
      status: 'pending',
      attempts: [],
      createdAt,
      body,
    });
  }
}

export function sign(secret: string, body: string, t = Math.floor(Date.now() / 1000)): string {
  return `t=${t},v1=${createHmac('sha256', secret).update(`${t}.${body}`).digest('hex')}`;
}

/** The queue listener: one attempt; throwing asks the queue for the next backoff step. */
export async function deliver(app: App, msg: { tenant: string; webhookId: string; deliveryId: string }): Promise<void> {
  const key = ['deliveries', msg.tenant, msg.webhookId, msg.deliveryId];
  const d = app.kv.get<Delivery>(key)?.value;
  const h = app.kv.get<Webhook>(['webhooks', msg.tenant, msg.webhookId])?.value;
  if (!d || !h) return;
  const attempt: Attempt = { at: new Date().toISOString(), statusCode: null };
  try {
    const send = () =>
      fetch(h.url, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          [SIGNATURE_HEADER]: sign(h.secret, d.body),
          [DELIVERY_HEADER]: d.id,
          'x-tupelo-event': d.event,
          'user-agent': 'tupelo-webhooks/1',
        },
        body: d.body,
        signal: AbortSignal.timeout(5000),
      });
    const r = await send();
    // At-least-once variant: the same attempt sent again (a receiver dedupes by the delivery id).
    if (app.opts.deliverTwice)
      void send()
        .then((x) => x.arrayBuffer())
        .catch(() => undefined);
    attempt.statusCode = r.status;
    await r.arrayBuffer().catch(() => undefined);
  } catch (e) {
    attempt.error = (e as Error).name === 'TimeoutError' ? 'timeout' : 'connection failed';
  }
  const ok = attempt.statusCode !== null && attempt.statusCode >= 200 && attempt.statusCode < 300;
  const done = d.attempts.length + 1 > app.opts.backoffMs.length;
  app.kv.set(key, { ...d, attempts: [...d.attempts, attempt], status: ok ? 'delivered' : done ? 'failed' : 'pending' });
  if (!ok) throw new Error('delivery failed');
}

export function viewDelivery(d: Delivery) {
  const { body, ...rest } = d;
  return { ...rest, payload: JSON.parse(body) as unknown };
}

/** GET /webhooks/{id}/delivery-log?status= ; newest first. */
export function deliveryLog(app: App, tenant: string, webhookId: string, status: string | null) {
  findHook(app, tenant, webhookId);
  const all = app.kv.list<Delivery>(['deliveries', tenant, webhookId], true).map((x) => viewDelivery(x.value));
  const deliveries = status ? all.filter((d) => d.status === status) : all;
  return { webhookId, count: deliveries.length, deliveries };
}

/** Re-trigger one delivery: a new delivery of the same payload (same event id), linked to the first. */
export function retrigger(app: App, tenant: string, webhookId: string, deliveryId: string) {
  findHook(app, tenant, webhookId);
  const d = app.kv.get<Delivery>(['deliveries', tenant, webhookId, deliveryId])?.value;
  if (!d) throw new ApiError('not_found', 'No delivery with this id for this receiver.');
  if (app.opts.retriggerSameId) {
    const again: Delivery = { ...d, status: 'pending' };
    enqueue(app, tenant, again);
    return viewDelivery(again);
  }
  const id = app.kv.nextStamp();
  const payload = { ...(JSON.parse(d.body) as Record<string, unknown>), deliveryId: id };
  const copy: Delivery = {
    ...d,
    id,
    trigger: 'retrigger',
    retriggerOf: d.id,
    status: 'pending',
    attempts: [],
    createdAt: new Date().toISOString(),
    body: JSON.stringify(payload),
  };
  enqueue(app, tenant, copy);
  return viewDelivery(copy);
}
