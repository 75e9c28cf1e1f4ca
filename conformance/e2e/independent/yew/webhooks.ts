// Webhook receivers and their deliveries. A delivery is a CloudEvents 1.0 event in structured mode
// (application/cloudevents+json), signed by the contract's rule in Yew-Signature: t=<unix>,v1=<hex HMAC-SHA256
// over "<t>.<raw body>">, re-signed at every attempt. Two retries (after 1 s and 5 s); every attempt and every
// redelivery is kept in the delivery log.
import { createHmac, randomBytes } from 'node:crypto';
import { isoNow, newGuid } from './http-util.ts';

export const EVENT_TYPES = ['connection.created', 'connection.activated', 'order.created', 'order.paid'];
export const SIGNATURE_HEADER = 'Yew-Signature';
export const DELIVERY_ID_HEADER = 'Yew-Delivery-Id';
const RETRY_DELAYS_MS = [1000, 5000];

export interface Webhook {
  id: string;
  tenant: string;
  url: string;
  events: string[];
  createdAt: string;
  signingKey: string;
}

export interface Delivery {
  id: string;
  webhookId: string;
  eventId: string;
  eventType: string;
  status: 'pending' | 'succeeded' | 'failed';
  attempts: number;
  responseStatusCode: number | null;
  createdAt: string;
  lastAttemptAt: string | null;
  redeliveryOf: string | null;
  body: string;
  /** CloudEvents attributes sent as ce-* headers in binary mode. */
  ceHeaders: Record<string, string>;
}

export function publicDelivery(d: Delivery) {
  const { body: _body, ceHeaders: _ce, ...rest } = d;
  return rest;
}

export function sign(key: string, t: number, body: string): string {
  return `t=${t},v1=${createHmac('sha256', key).update(`${t}.${body}`).digest('hex')}`;
}

export function createWebhooks(sourceBase: string, binaryMode = false) {
  const hooks = new Map<string, Webhook>();
  const deliveries = new Map<string, Delivery[]>();
  const timers = new Set<NodeJS.Timeout>();
  let closed = false;

  function register(tenant: string, url: string, events: string[]): Webhook {
    const hook = {
      id: newGuid(),
      tenant,
      url,
      events,
      createdAt: isoNow(),
      signingKey: `whsec_${randomBytes(24).toString('base64')}`,
    };
    hooks.set(hook.id, hook);
    deliveries.set(hook.id, []);
    return hook;
  }

  function get(tenant: string, id: string): Webhook | undefined {
    const h = hooks.get(id);
    return h && h.tenant === tenant ? h : undefined;
  }

  function list(tenant: string): Webhook[] {
    return [...hooks.values()].filter((h) => h.tenant === tenant);
  }

  function remove(tenant: string, id: string): boolean {
    const h = get(tenant, id);
    if (h) hooks.delete(id);
    return Boolean(h);
  }

  async function attempt(hook: Webhook, d: Delivery): Promise<void> {
    if (closed) return;
    d.attempts += 1;
    d.lastAttemptAt = isoNow();
    const t = Math.floor(Date.now() / 1000);
    try {
      const res = await fetch(hook.url, {
        method: 'POST',
        headers: {
          ...d.ceHeaders,
          'content-type': binaryMode
            ? 'application/json; charset=utf-8'
            : 'application/cloudevents+json; charset=utf-8',
          [SIGNATURE_HEADER]: sign(hook.signingKey, t, d.body),
          [DELIVERY_ID_HEADER]: d.id,
          'user-agent': 'Yew-Webhooks/1.0',
        },
        body: d.body,
        signal: AbortSignal.timeout(5000),
      });
      await res.arrayBuffer().catch(() => undefined);
      d.responseStatusCode = res.status;
      d.status = res.ok ? 'succeeded' : 'failed';
    } catch {
      d.responseStatusCode = null;
      d.status = 'failed';
    }
    const delay = RETRY_DELAYS_MS[d.attempts - 1];
    if (d.status === 'failed' && delay !== undefined && !closed && hooks.has(hook.id)) {
      d.status = 'pending';
      const timer = setTimeout(() => {
        timers.delete(timer);
        void attempt(hook, d);
      }, delay);
      timers.add(timer);
    }
  }

  function start(
    hook: Webhook,
    eventId: string,
    eventType: string,
    body: string,
    redeliveryOf: string | null,
    ceHeaders: Record<string, string>,
  ): Delivery {
    const d: Delivery = {
      id: newGuid(),
      webhookId: hook.id,
      eventId,
      eventType,
      status: 'pending',
      attempts: 0,
      responseStatusCode: null,
      createdAt: isoNow(),
      lastAttemptAt: null,
      redeliveryOf,
      body,
      ceHeaders,
    };
    deliveries.get(hook.id)?.push(d);
    void attempt(hook, d);
    return d;
  }

  /** Emits one event of the tenant to every receiver subscribed to it. */
  function emit(tenant: string, type: string, subject: string, data: unknown): void {
    for (const hook of list(tenant)) {
      if (!hook.events.includes(type)) continue;
      const event = {
        specversion: '1.0',
        id: newGuid(),
        source: `${sourceBase}/webhooks/${hook.id}`,
        type,
        subject,
        time: isoNow(),
        datacontenttype: 'application/json',
        data,
      };
      if (!binaryMode) {
        start(hook, event.id, type, JSON.stringify(event), null, {});
        continue;
      }
      const { data: payload, datacontenttype: _ct, ...attributes } = event;
      const ce = Object.fromEntries(Object.entries(attributes).map(([k, v]) => [`ce-${k}`, String(v)]));
      start(hook, event.id, type, JSON.stringify(payload), null, ce);
    }
  }

  function log(tenant: string, webhookId: string): Delivery[] | undefined {
    return get(tenant, webhookId) ? [...(deliveries.get(webhookId) ?? [])].reverse() : undefined;
  }

  /** Sends a logged delivery again as a new delivery (same event, same body, a fresh signature). */
  function redeliver(tenant: string, webhookId: string, deliveryId: string): Delivery | undefined {
    const hook = get(tenant, webhookId);
    const original = hook ? deliveries.get(webhookId)?.find((d) => d.id === deliveryId) : undefined;
    if (!hook || !original) return undefined;
    return start(hook, original.eventId, original.eventType, original.body, original.id, original.ceHeaders);
  }

  function close(): void {
    closed = true;
    for (const t of timers) clearTimeout(t);
  }

  return { register, get, list, remove, emit, log, redeliver, close };
}

export type Webhooks = ReturnType<typeof createWebhooks>;
