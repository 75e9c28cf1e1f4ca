// Webhook receivers: registration (the signing key shown once), signed deliveries actually POSTed to the
// receiver, a delivery log per receiver and selective redelivery. Deliveries are retried twice (1 s, 4 s)
// after a failure, each attempt counted on the same log entry.
import { createHmac, randomBytes } from 'node:crypto';
import { request } from 'node:http';
import { fail, type Rec, str, utcNow } from './http.ts';
import type { Delivery, Store, Webhook } from './state.ts';

export const EVENT_NAMES = ['connection.created', 'connection.state_changed', 'order.created', 'order.paid'];
export const SIGNATURE_HEADER = 'x-webhook-signature';
export const DELIVERY_HEADER = 'x-webhook-delivery';
const RETRY_DELAYS_MS = [1000, 4000];

/** The public view of a receiver: never the signing key. */
export const view = ({ secret: _s, tenant: _t, ...w }: Webhook): Rec => w;
export const deliveryView = ({ body: _b, ...d }: Delivery): Rec => d;

export function validateRegistration(body: Rec): { url: string; events: string[] } {
  const url = str(body, 'url', 8, 2048) ?? '';
  if (!/^https?:\/\/[^\s/]+/.test(url)) throw fail.badRequest('Error in $.url: expected an http(s) URL');
  const events = body.events;
  if (!Array.isArray(events) || events.length === 0)
    throw fail.badRequest('Error in $.events: expected a non-empty Array');
  for (const e of events) {
    if (typeof e !== 'string' || !EVENT_NAMES.includes(e)) {
      throw fail.badRequest(`Error in $.events: events: one of ${EVENT_NAMES.join(', ')}`);
    }
  }
  return { url, events: [...new Set(events as string[])] };
}

export function register(store: Store, tenant: string, v: { url: string; events: string[] }): Rec {
  const hook: Webhook = {
    id: store.key(),
    tenant,
    url: v.url,
    events: v.events,
    secret: `whsk_${randomBytes(24).toString('hex')}`,
    createdAt: utcNow(),
  };
  store.webhooks.set(hook.id, hook);
  return { ...view(hook), signingKey: hook.secret };
}

export function ownWebhook(store: Store, tenant: string, id: string | undefined): Webhook {
  const hook = id === undefined ? undefined : store.webhooks.get(id);
  if (!hook || hook.tenant !== tenant) throw fail.notFound('no such webhook receiver');
  return hook;
}

export function sign(secret: string, body: string, t = Math.floor(Date.now() / 1000)): string {
  return `t=${t},v1=${createHmac('sha256', secret).update(`${t}.${body}`).digest('hex')}`;
}

/** Posts one attempt; only loopback receivers are ever called from this sandbox. */
function post(hook: Webhook, d: Delivery): Promise<number> {
  return new Promise((resolve) => {
    let target: URL;
    try {
      target = new URL(hook.url);
    } catch {
      return resolve(0);
    }
    if (target.hostname !== '127.0.0.1' || target.protocol !== 'http:') return resolve(0);
    const req = request(target, {
      method: 'POST',
      timeout: 5000,
      headers: {
        'content-type': 'application/json',
        'content-length': Buffer.byteLength(d.body),
        'user-agent': 'persimmon-webhooks/1.0',
        [SIGNATURE_HEADER]: sign(hook.secret, d.body),
        [DELIVERY_HEADER]: d.id,
        'x-webhook-event': d.eventType,
      },
    });
    req.on('response', (res) => {
      res.resume();
      resolve(res.statusCode ?? 0);
    });
    req.on('timeout', () => req.destroy());
    req.on('error', () => resolve(0));
    req.end(d.body);
  });
}

export class Deliverer {
  private readonly timers = new Set<NodeJS.Timeout>();
  private readonly store: Store;
  constructor(store: Store) {
    this.store = store;
  }

  /** One log entry per receiver subscribed to the event, sent at once. */
  fanOut(tenant: string, eventType: string, eventId: string, data: Rec): void {
    const body = JSON.stringify({ id: eventId, type: eventType, createdAt: utcNow(), data });
    for (const hook of this.store.webhooks.values()) {
      if (hook.tenant === tenant && hook.events.includes(eventType)) this.start(hook, eventId, eventType, body);
    }
  }

  start(hook: Webhook, eventId: string, eventType: string, body: string, redeliveryOf?: string): Delivery {
    const d: Delivery = {
      id: this.store.key(),
      webhookId: hook.id,
      eventId,
      eventType,
      body,
      status: 'pending',
      attempt: 0,
      requestedAt: utcNow(),
    };
    if (redeliveryOf !== undefined) d.redeliveryOf = redeliveryOf;
    this.store.deliveries.set(d.id, d);
    void this.attempt(hook, d);
    return d;
  }

  private async attempt(hook: Webhook, d: Delivery): Promise<void> {
    d.attempt += 1;
    const status = await post(hook, d);
    d.responseStatus = status;
    d.status = status >= 200 && status < 300 ? 'succeeded' : 'failed';
    const delay = RETRY_DELAYS_MS[d.attempt - 1];
    if (d.status === 'failed' && delay !== undefined) {
      const timer = setTimeout(() => {
        this.timers.delete(timer);
        void this.attempt(hook, d);
      }, delay);
      this.timers.add(timer);
    }
  }

  /** Runs `relay` after `ms` (an outbox worker's poll), or now; pending relays die with the deployment. */
  later(ms: number, relay: () => void): void {
    if (ms <= 0) {
      relay();
      return;
    }
    const timer = setTimeout(() => {
      this.timers.delete(timer);
      relay();
    }, ms);
    this.timers.add(timer);
  }

  stop(): void {
    for (const t of this.timers) clearTimeout(t);
    this.timers.clear();
  }
}
