// Webhook receivers, signed deliveries (Maple-Signature: t=<unix>,v1=<hex HMAC-SHA256 of "t.body">),
// the delivery log with AIP-158 paging, and re-triggering a logged delivery.
import { createHmac, randomBytes } from 'node:crypto';
import { ApiError } from './http-kit.ts';
import { newId } from './store.ts';

export const EVENT_NAMES = ['connection.created', 'order.created', 'order.paid'];
const RETRY_DELAYS_MS = [1000, 3000];

export interface Webhook {
  id: string;
  tenant: string;
  url: string;
  events: string[];
  signingKey: string;
  createdAt: string;
}

export interface Delivery {
  id: string;
  webhookId: string;
  eventId: string;
  event: string;
  status: string;
  attempts: number;
  responseStatus: number | null;
  createdAt: string;
  redeliveryOf?: string;
  body: string;
}

export class Webhooks {
  hooks = new Map<string, Webhook>();
  deliveries = new Map<string, Delivery[]>();
  private timers = new Set<NodeJS.Timeout>();

  register(tenant: string, body: Record<string, unknown>): Webhook {
    const { url, events } = body;
    if (typeof url !== 'string' || !/^https?:\/\/[^\s]+$/.test(url) || url.length > 2048) {
      throw new ApiError('invalid_request', 'url must be an http or https address');
    }
    if (!Array.isArray(events) || events.length < 1 || events.length > 20) {
      throw new ApiError('invalid_request', 'events must be an array of 1 to 20 event names');
    }
    for (const e of events) {
      if (typeof e !== 'string' || !EVENT_NAMES.includes(e)) {
        throw new ApiError('invalid_request', `unknown event name; known: ${EVENT_NAMES.join(', ')}`);
      }
    }
    const hook = {
      id: newId('wh'),
      tenant,
      url,
      events: [...new Set(events as string[])],
      signingKey: `whsec_${randomBytes(24).toString('base64url')}`,
      createdAt: new Date().toISOString(),
    };
    this.hooks.set(hook.id, hook);
    this.deliveries.set(hook.id, []);
    return hook;
  }

  ownHook(tenant: string, id: string) {
    const hook = this.hooks.get(id);
    if (!hook || hook.tenant !== tenant) throw new ApiError('not_found', 'no such webhook for this tenant');
    return hook;
  }

  emit(tenant: string, event: string, data: unknown) {
    const eventId = newId('evt');
    const body = JSON.stringify({ id: eventId, type: event, createdAt: new Date().toISOString(), data });
    for (const hook of this.hooks.values()) {
      if (hook.tenant === tenant && hook.events.includes(event)) this.deliver(hook, eventId, event, body);
    }
  }

  deliver(hook: Webhook, eventId: string, event: string, body: string, redeliveryOf?: string): Delivery {
    const d: Delivery = {
      id: newId('dlv'),
      webhookId: hook.id,
      eventId,
      event,
      status: 'pending',
      attempts: 0,
      responseStatus: null,
      createdAt: new Date().toISOString(),
      body,
    };
    if (redeliveryOf) d.redeliveryOf = redeliveryOf;
    this.deliveries.get(hook.id)?.push(d);
    void this.attempt(hook, d);
    return d;
  }

  private async attempt(hook: Webhook, d: Delivery) {
    d.attempts += 1;
    const t = Math.floor(Date.now() / 1000);
    const v1 = createHmac('sha256', hook.signingKey).update(`${t}.${d.body}`).digest('hex');
    try {
      const r = await fetch(hook.url, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          'maple-signature': `t=${t},v1=${v1}`,
          'maple-delivery': d.id,
          'maple-event': d.event,
          'user-agent': 'maple-webhooks/1',
        },
        body: d.body,
        signal: AbortSignal.timeout(5000),
      });
      await r.arrayBuffer().catch(() => undefined);
      d.responseStatus = r.status;
      d.status = r.ok ? 'delivered' : 'failed';
    } catch {
      d.status = 'failed';
    }
    const delay = RETRY_DELAYS_MS[d.attempts - 1];
    if (d.status === 'failed' && delay !== undefined) {
      const timer = setTimeout(() => {
        this.timers.delete(timer);
        void this.attempt(hook, d);
      }, delay);
      this.timers.add(timer);
    }
  }

  redeliver(tenant: string, hookId: string, deliveryId: string) {
    const hook = this.ownHook(tenant, hookId);
    const original = this.deliveries.get(hook.id)?.find((d) => d.id === deliveryId);
    if (!original) throw new ApiError('not_found', 'no such delivery for this webhook');
    return this.deliver(hook, original.eventId, original.event, original.body, original.id);
  }

  close() {
    for (const t of this.timers) clearTimeout(t);
  }
}

/** A delivery as the log shows it (the payload itself is not repeated). */
export function deliveryView(d: Delivery) {
  const { body: _body, ...view } = d;
  return view;
}
