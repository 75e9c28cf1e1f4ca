// Webhook receivers of a tenant, signed deliveries (X-Aspen-Signature: t=<unix>,v1=<hex HMAC-SHA256 over
// "<t>.<raw body>">), retries, the delivery log and selective redelivery. The sandbox delivers to loopback
// addresses only; any other address is logged as a failed delivery.
import { createHmac, randomBytes } from 'node:crypto';
import { record } from './audit.ts';
import { type Call, HttpError } from './http-kit.ts';
import { later, type State } from './state.ts';
import { ulid } from './ulid.ts';
import { onlyFields, receiverUrl } from './validate.ts';

export const EVENT_NAMES = [
  'connection.created',
  'connection.activated',
  'connection.suspended',
  'order.created',
  'order.paid',
];
const RETRY_DELAYS_MS = [2000, 10_000];

interface Webhook {
  id: string;
  tenant: string;
  url: string;
  events: string[];
  secret: string;
  status: 'active' | 'deleted';
  createdAt: string;
}
interface Delivery {
  id: string;
  webhookId: string;
  eventId: string;
  event: string;
  body: string;
  status: 'pending' | 'delivered' | 'failed';
  attempts: { at: string; statusCode: number | null; outcome: string }[];
  createdAt: string;
  redeliveryOf: string | null;
}
interface Hooks {
  webhooks: Map<string, Webhook>;
  deliveries: Map<string, Delivery>;
}
const all = new WeakMap<State, Hooks>();

function hooksOf(state: State): Hooks {
  let h = all.get(state);
  if (h === undefined) {
    h = { webhooks: new Map(), deliveries: new Map() };
    all.set(state, h);
  }
  return h;
}

function publicWebhook(w: Webhook): Record<string, unknown> {
  return { id: w.id, url: w.url, events: w.events.slice(), status: w.status, createdAt: w.createdAt };
}

function publicDelivery(d: Delivery): Record<string, unknown> {
  const last = d.attempts.at(-1);
  return {
    id: d.id,
    webhookId: d.webhookId,
    eventId: d.eventId,
    event: d.event,
    status: d.status,
    attemptCount: d.attempts.length,
    attempts: d.attempts.map((a) => ({ ...a })),
    lastStatusCode: last?.statusCode ?? null,
    createdAt: d.createdAt,
    redeliveryOf: d.redeliveryOf,
  };
}

function loopback(url: string): boolean {
  const host = new URL(url).hostname;
  return host === '127.0.0.1' || host === 'localhost' || host === '[::1]';
}

async function attempt(state: State, w: Webhook, d: Delivery, retry: number): Promise<void> {
  const t = Math.floor(Date.now() / 1000);
  const v1 = createHmac('sha256', w.secret).update(`${t}.${d.body}`).digest('hex');
  let statusCode: number | null = null;
  let outcome = 'destination_not_allowed_in_sandbox';
  if (loopback(w.url)) {
    try {
      const res = await fetch(w.url, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          'user-agent': 'aspen-webhooks/2026-07-01',
          'x-aspen-signature': `t=${t},v1=${v1}`,
          'x-aspen-event': d.event,
          'x-aspen-delivery': d.id,
          'x-aspen-webhook': w.id,
        },
        body: d.body,
        signal: AbortSignal.timeout(5000),
      });
      await res.arrayBuffer().catch(() => undefined);
      statusCode = res.status;
      outcome = res.ok ? 'delivered' : 'receiver_error';
    } catch {
      outcome = 'connection_failed';
    }
  }
  d.attempts.push({ at: new Date().toISOString(), statusCode, outcome });
  if (outcome === 'delivered') d.status = 'delivered';
  else if (retry < RETRY_DELAYS_MS.length && outcome !== 'destination_not_allowed_in_sandbox') {
    later(state, RETRY_DELAYS_MS[retry] ?? 2000, () => void attempt(state, w, d, retry + 1));
  } else d.status = 'failed';
}

function dispatch(
  state: State,
  w: Webhook,
  eventId: string,
  event: string,
  body: string,
  redeliveryOf: string | null,
): Delivery {
  const d: Delivery = {
    id: ulid(),
    webhookId: w.id,
    eventId,
    event,
    body,
    status: 'pending',
    attempts: [],
    createdAt: new Date().toISOString(),
    redeliveryOf,
  };
  hooksOf(state).deliveries.set(d.id, d);
  setImmediate(() => void attempt(state, w, d, 0));
  return d;
}

/** Sends an event to every active receiver of the tenant subscribed to it. */
export function emit(state: State, tenant: string, event: string, data: Record<string, unknown>): void {
  for (const w of hooksOf(state).webhooks.values()) {
    if (w.tenant !== tenant || w.status !== 'active' || !w.events.includes(event)) continue;
    const eventId = ulid();
    const body = JSON.stringify({
      id: eventId,
      type: event,
      apiVersion: '2026-07-01',
      createdAt: new Date().toISOString(),
      data,
    });
    dispatch(state, w, eventId, event, body, null);
  }
}

export function registerWebhook(state: State, call: Call, body: Record<string, unknown>): () => unknown {
  onlyFields(body, ['url', 'events']);
  const url = receiverUrl(body);
  const events = body.events;
  if (!Array.isArray(events) || events.length < 1 || events.length > 20) {
    throw new HttpError('invalid_request', 'events is invalid', { detail: 'events: 1 to 20 event names' });
  }
  for (const e of events) {
    if (typeof e !== 'string' || !EVENT_NAMES.includes(e)) {
      throw new HttpError('invalid_request', 'events is invalid', {
        detail: `events: each one of ${EVENT_NAMES.join(', ')}`,
      });
    }
  }
  if (new Set(events).size !== events.length)
    throw new HttpError('invalid_request', 'events is invalid', { detail: 'events: no duplicates' });
  return () => {
    const w: Webhook = {
      id: ulid(),
      tenant: call.tenant ?? '',
      url,
      events: events as string[],
      secret: `whsk_${randomBytes(32).toString('hex')}`,
      status: 'active',
      createdAt: new Date().toISOString(),
    };
    hooksOf(state).webhooks.set(w.id, w);
    record(
      state,
      w.tenant,
      { action: 'webhook.created', resourceType: 'webhook', resourceId: w.id, after: { url: w.url, events: w.events } },
      call,
    );
    return { webhook: publicWebhook(w), signingKey: w.secret, signingKeyNotice: 'shown once: store it now' };
  };
}

function ownWebhook(state: State, call: Call, id: string): Webhook {
  const w = hooksOf(state).webhooks.get(id);
  if (w === undefined || w.tenant !== call.tenant || w.status !== 'active')
    throw new HttpError('not_found', 'webhook not found');
  return w;
}

export function listDeliveries(state: State, call: Call, id: string): Record<string, unknown> {
  const w = ownWebhook(state, call, id);
  const list = [...hooksOf(state).deliveries.values()].filter((d) => d.webhookId === w.id).reverse();
  return { webhookId: w.id, count: list.length, deliveries: list.map(publicDelivery) };
}

export function redeliver(state: State, call: Call, id: string, deliveryId: string): () => unknown {
  const w = ownWebhook(state, call, id);
  const d = hooksOf(state).deliveries.get(deliveryId);
  if (d === undefined || d.webhookId !== w.id) throw new HttpError('not_found', 'delivery not found');
  return () => {
    const again = dispatch(state, w, d.eventId, d.event, d.body, d.id);
    record(
      state,
      w.tenant,
      {
        action: 'webhook.delivery.redelivered',
        resourceType: 'delivery',
        resourceId: again.id,
        after: { redeliveryOf: d.id, eventId: d.eventId },
      },
      call,
    );
    return { delivery: publicDelivery(again) };
  };
}

export function deleteWebhook(state: State, call: Call, id: string): () => unknown {
  const w = ownWebhook(state, call, id);
  return () => {
    w.status = 'deleted';
    record(
      state,
      w.tenant,
      { action: 'webhook.deleted', resourceType: 'webhook', resourceId: w.id, after: { status: 'deleted' } },
      call,
    );
    return { webhook: publicWebhook(w) };
  };
}
