// Webhook receivers, signed deliveries (X-Gorse-Signature: t=<unix>,v1=<hex>) and the delivery log.
import { createHmac, randomBytes } from 'node:crypto';
import { ApiError, newId } from './http-kit.ts';
import type { GorseState } from './state.ts';

export const EVENT_NAMES = [
  'connection.created',
  'connection.live',
  'connection.suspended',
  'order.created',
  'order.paid',
];

export interface Webhook {
  id: string;
  tenant: string;
  url: string;
  events: string[];
  secret: string;
  createdAt: string;
}

export interface Delivery {
  id: string;
  webhookId: string;
  eventId: string;
  event: string;
  body: string;
  attempts: { at: string; status: number | null; outcome: string }[];
  outcome: string;
  trigger: string;
}

export class WebhookHub {
  hooks = new Map<string, Webhook>();
  deliveries = new Map<string, Delivery>();
  state: GorseState;
  constructor(state: GorseState) {
    this.state = state;
  }

  register(tenant: string, body: Record<string, unknown>): Record<string, unknown> {
    const { url, events } = body;
    if (typeof url !== 'string' || url.length > 2048) throw new ApiError('invalid_request', 'url must be a string');
    let parsed: URL;
    try {
      parsed = new URL(url);
    } catch {
      throw new ApiError('invalid_request', 'url is not an absolute URL');
    }
    if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:')
      throw new ApiError('invalid_request', 'url must be http(s)');
    if (!Array.isArray(events) || events.length < 1 || events.length > 20) {
      throw new ApiError('invalid_request', 'events must list 1 to 20 event names');
    }
    for (const e of events) {
      if (typeof e !== 'string' || !EVENT_NAMES.includes(e))
        throw new ApiError('invalid_request', `unknown event ${String(e)}`, `known: ${EVENT_NAMES.join(', ')}`);
    }
    const hook: Webhook = {
      id: newId('whk'),
      tenant,
      url,
      events: [...new Set(events as string[])],
      secret: `gwhsec_${randomBytes(24).toString('hex')}`,
      createdAt: new Date().toISOString(),
    };
    this.hooks.set(hook.id, hook);
    return { ...this.view(hook), hmacSecret: hook.secret };
  }

  view(h: Webhook): Record<string, unknown> {
    return { id: h.id, url: h.url, events: h.events, createdAt: h.createdAt, signatureHeader: 'X-Gorse-Signature' };
  }

  owned(tenant: string, id: string): Webhook {
    const h = this.hooks.get(id);
    if (!h || h.tenant !== tenant) throw new ApiError('not_found', 'no such webhook');
    return h;
  }

  emit(tenant: string, event: string, data: Record<string, unknown>): void {
    const eventId = newId('evt');
    for (const h of this.hooks.values()) {
      if (h.tenant !== tenant || !h.events.includes(event)) continue;
      const body = JSON.stringify({ id: eventId, event, occurredAt: new Date().toISOString(), data });
      const d: Delivery = {
        id: newId('dlv'),
        webhookId: h.id,
        eventId,
        event,
        body,
        attempts: [],
        outcome: 'pending',
        trigger: 'event',
      };
      this.deliveries.set(d.id, d);
      void this.attempt(h, d, 0);
      if (this.state.opts.duplicateDeliveries) this.state.later(300, () => void this.attempt(h, d, 2));
    }
  }

  /** A logged delivery sent again as a new delivery (own id, fresh signature, same event id). */
  redeliver(tenant: string, deliveryId: string): Record<string, unknown> {
    const old = this.deliveries.get(deliveryId);
    if (!old) throw new ApiError('not_found', 'no such delivery');
    const h = this.owned(tenant, old.webhookId);
    const d: Delivery = {
      ...old,
      id: newId('dlv'),
      attempts: [],
      outcome: 'pending',
      trigger: `redelivery of ${old.id}`,
    };
    this.deliveries.set(d.id, d);
    void this.attempt(h, d, 0);
    return this.deliveryView(d);
  }

  log(tenant: string, webhookId: string): Record<string, unknown> {
    const h = this.owned(tenant, webhookId);
    const list = [...this.deliveries.values()].filter((d) => d.webhookId === h.id).map((d) => this.deliveryView(d));
    return { webhookId: h.id, count: list.length, deliveries: list };
  }

  deliveryView(d: Delivery): Record<string, unknown> {
    const { body: _b, ...rest } = d;
    return { ...rest, attempts: [...d.attempts] };
  }

  remove(tenant: string, id: string): Record<string, unknown> {
    const h = this.owned(tenant, id);
    this.hooks.delete(h.id);
    return { id: h.id, deleted: true };
  }

  /** Up to 3 attempts (now, +1 s, +5 s); only loopback receivers are contacted from this test deployment. */
  async attempt(h: Webhook, d: Delivery, n: number): Promise<void> {
    const t = Math.floor(Date.now() / 1000);
    const sig = createHmac('sha256', h.secret).update(`${t}.${d.body}`).digest('hex');
    let status: number | null = null;
    let outcome = 'failed';
    const host = new URL(h.url).hostname;
    if (['127.0.0.1', 'localhost', '[::1]'].includes(host)) {
      try {
        const r = await fetch(h.url, {
          method: 'POST',
          headers: {
            'content-type': 'application/json',
            'x-gorse-signature': `t=${t},v1=${sig}`,
            'x-gorse-delivery': d.id,
            'x-gorse-event': d.event,
            'user-agent': 'gorse-webhooks/1',
          },
          body: d.body,
          signal: AbortSignal.timeout(5000),
        });
        status = r.status;
        await r.arrayBuffer().catch(() => undefined);
        outcome = r.ok ? 'delivered' : 'failed';
      } catch {
        outcome = 'unreachable';
      }
    } else outcome = 'unreachable';
    d.attempts.push({ at: new Date().toISOString(), status, outcome });
    d.outcome = outcome;
    if (outcome !== 'delivered' && n < 2) this.state.later(n === 0 ? 1000 : 5000, () => void this.attempt(h, d, n + 1));
  }
}
