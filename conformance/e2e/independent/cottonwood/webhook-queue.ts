// Deliveries through a queue: each event becomes one job per subscribed receiver, POSTed signed; a failed
// attempt is retried with BullMQ's exponential backoff (delay * 2^(attempt-1)), at most five attempts.
import { createHmac } from 'node:crypto';
import { nanoid, type Rec } from './http.ts';
import type { Delivery, Store, Webhook } from './state.ts';

export const SIGNATURE_HEADER = 'Cottonwood-Signature';
export const DELIVERY_ID_HEADER = 'Cottonwood-Delivery-Id';
export const EVENT_NAMES = [
  'connection.created',
  'connection.activated',
  'connection.paused',
  'order.created',
  'order.paid',
];
const MAX_ATTEMPTS = 5;

/** `t=<unix seconds>,v1=<hex HMAC-SHA256 over "t.body">`, keyed with the whole signing key as issued. */
export function signature(secret: string, body: string, t = Math.floor(Date.now() / 1000)): string {
  return `t=${t},v1=${createHmac('sha256', secret).update(`${t}.${body}`).digest('hex')}`;
}

/** The sandbox posts only to this machine: invented data never leaves it. */
function deliverable(url: string): boolean {
  try {
    const host = new URL(url).hostname;
    return host === '127.0.0.1' || host === 'localhost' || host === '[::1]';
  } catch {
    return false;
  }
}

export class DeliveryQueue {
  private store: Store;
  constructor(store: Store) {
    this.store = store;
  }

  /** Fan an event out to the tenant's receivers subscribed to it. */
  dispatch(tenant: string, type: string, data: Rec) {
    const event = { id: `evt_${nanoid()}`, type, createdAt: new Date().toISOString(), data };
    const body = JSON.stringify(event);
    for (const hook of this.store.webhooks) {
      if (hook.tenant !== tenant || !hook.events.includes(type)) continue;
      this.enqueue(hook, event.id, type, body, null);
    }
  }

  /** A new job for a logged delivery: same event and body, a fresh delivery id and signature. */
  redeliver(hook: Webhook, original: Delivery): Delivery {
    return this.enqueue(hook, original.eventId, original.eventType, original.body, original.id);
  }

  private enqueue(hook: Webhook, eventId: string, eventType: string, body: string, of: string | null): Delivery {
    const d: Delivery = {
      id: `dlv_${nanoid()}`,
      webhookId: hook.id,
      eventId,
      eventType,
      body,
      status: 'queued',
      attempts: 0,
      responseStatus: null,
      createdAt: new Date().toISOString(),
      lastAttemptAt: null,
      redeliveryOf: of,
    };
    this.store.deliveries.push(d);
    this.later(this.store.options.deliveryDelayMs, () => this.attempt(hook, d));
    return d;
  }

  private later(ms: number, fn: () => Promise<void>) {
    const timer = setTimeout(() => {
      this.store.timers.delete(timer);
      void fn();
    }, ms);
    this.store.timers.add(timer);
  }

  private async attempt(hook: Webhook, d: Delivery) {
    d.attempts++;
    d.lastAttemptAt = new Date().toISOString();
    let status = 0;
    if (deliverable(hook.url)) {
      try {
        const res = await fetch(hook.url, {
          method: 'POST',
          headers: {
            'content-type': 'application/json',
            'user-agent': 'cottonwood-webhooks/1.0',
            [SIGNATURE_HEADER]: signature(hook.secret, d.body),
            [DELIVERY_ID_HEADER]: d.id,
            'Cottonwood-Event': d.eventType,
          },
          body: d.body,
          signal: AbortSignal.timeout(5000),
        });
        status = res.status;
        await res.arrayBuffer();
      } catch {
        status = 0;
      }
    }
    d.responseStatus = status || null;
    if (status >= 200 && status < 300) {
      d.status = 'succeeded';
    } else if (d.attempts >= MAX_ATTEMPTS || !this.store.webhooks.includes(hook)) {
      d.status = 'failed';
    } else {
      this.later(this.store.options.retryDelayMs * 2 ** (d.attempts - 1), () => this.attempt(hook, d));
    }
  }
}
