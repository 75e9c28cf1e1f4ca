// Webhooks of birch: registration (signing secret shown once), signed deliveries with the header
// X-Birch-Signature: t=<unix>,v1=<hex hmac-sha256 of "<t>.<raw body>">, a ping on registration (GitHub
// style), up to 3 attempts (retries after 2 s and 10 s), a delivery log and redelivery on request.
import { createHmac, randomBytes } from 'node:crypto';
import type { BusEvent } from './events.ts';
import { invalid, notFound } from './http-util.ts';

const OTHER_EVENTS = ['connection.state_changed', 'connection.paused', 'order.created', 'order.paid', '*'];
const RETRY_DELAYS_MS = [2000, 10_000];
const TIMEOUT_MS = 5000;

export type Webhook = {
  id: string;
  tenant: string;
  url: string;
  events: string[];
  secret: string;
  created_at: string;
  status: string;
};
export type Delivery = {
  id: string;
  webhook_id: string;
  event: string;
  status: 'pending' | 'succeeded' | 'failed';
  attempts: number;
  response_status: number | null;
  created_at: string;
  last_attempt_at: string | null;
  redelivery_of: string | null;
  body: string;
};

export class Webhooks {
  events: string[];
  constructor(creationEvent: string) {
    this.events = [creationEvent, ...OTHER_EVENTS];
  }
  hooks: Webhook[] = [];
  deliveries: Delivery[] = [];
  timers = new Set<NodeJS.Timeout>();
  nextHook = 1;
  nextDelivery = 1;

  create(tenant: string, body: Record<string, unknown>): Record<string, unknown> {
    const url = body.url;
    if (typeof url !== 'string' || url.length < 8 || url.length > 2048)
      throw invalid('Field url is required.', 'url: an http(s) address');
    let parsed: URL;
    try {
      parsed = new URL(url);
    } catch {
      throw invalid('Field url is not a valid address.', 'url: an http(s) address');
    }
    if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') throw invalid('Field url must use http or https.');
    const events = body.events;
    if (
      !Array.isArray(events) ||
      events.length < 1 ||
      events.length > 20 ||
      !events.every((e) => typeof e === 'string')
    ) {
      throw invalid('Field events must be a list of event names.', 'events: 1 to 20 strings');
    }
    const unknown = events.filter((e) => !this.events.includes(e as string));
    if (unknown.length > 0)
      throw invalid('Unknown event names.', `known: ${this.events.join(', ')}; unknown: ${unknown.join(', ')}`);
    const hook: Webhook = {
      id: String(this.nextHook++),
      tenant,
      url,
      events: [...new Set(events as string[])],
      secret: `whsec_${randomBytes(24).toString('hex')}`,
      created_at: new Date().toISOString(),
      status: 'enabled',
    };
    this.hooks.push(hook);
    this.enqueue(hook, 'webhook.ping', { webhook_id: hook.id, zen: 'Keep it logically awesome.' }, null);
    return { ...this.view(hook), signing_secret: hook.secret, signature_header: 'X-Birch-Signature' };
  }

  view(h: Webhook): Record<string, unknown> {
    return { id: h.id, url: h.url, events: h.events, status: h.status, created_at: h.created_at };
  }

  list(tenant: string): Record<string, unknown>[] {
    return this.hooks.filter((h) => h.tenant === tenant).map((h) => this.view(h));
  }

  find(tenant: string, id: string): Webhook {
    const h = this.hooks.find((x) => x.id === id && x.tenant === tenant);
    if (!h) throw notFound('The webhook does not exist.');
    return h;
  }

  onEvent(e: BusEvent): void {
    if (e.tenant === null) return;
    for (const h of this.hooks) {
      if (h.tenant === e.tenant && (h.events.includes(e.event) || h.events.includes('*')))
        this.enqueue(h, e.event, e.data, null);
    }
  }

  deliveryLog(tenant: string, hookId: string): Record<string, unknown> {
    const h = this.find(tenant, hookId);
    const list = this.deliveries.filter((d) => d.webhook_id === h.id).reverse();
    return { webhook_id: h.id, count: list.length, deliveries: list.map(deliveryView) };
  }

  redeliver(tenant: string, hookId: string, deliveryId: string): Record<string, unknown> {
    const h = this.find(tenant, hookId);
    const original = this.deliveries.find((d) => d.id === deliveryId && d.webhook_id === h.id);
    if (!original) throw notFound('The delivery does not exist.');
    const d = this.newDelivery(h, original.event, original.body, original.id);
    this.attempt(h, d);
    return deliveryView(d);
  }

  private enqueue(h: Webhook, event: string, data: Record<string, unknown>, redeliveryOf: string | null): void {
    const id = String(this.nextDelivery);
    const body = JSON.stringify({ id, event, created_at: new Date().toISOString(), tenant: h.tenant, data });
    const d = this.newDelivery(h, event, body, redeliveryOf);
    this.attempt(h, d);
  }

  private newDelivery(h: Webhook, event: string, body: string, redeliveryOf: string | null): Delivery {
    const d: Delivery = {
      id: String(this.nextDelivery++),
      webhook_id: h.id,
      event,
      status: 'pending',
      attempts: 0,
      response_status: null,
      created_at: new Date().toISOString(),
      last_attempt_at: null,
      redelivery_of: redeliveryOf,
      body,
    };
    this.deliveries.push(d);
    return d;
  }

  private attempt(h: Webhook, d: Delivery): void {
    d.attempts += 1;
    d.last_attempt_at = new Date().toISOString();
    const t = Math.floor(Date.now() / 1000);
    const sig = createHmac('sha256', h.secret).update(`${t}.${d.body}`).digest('hex');
    fetch(h.url, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        'user-agent': 'Birch-Webhooks/1.0',
        'x-birch-signature': `t=${t},v1=${sig}`,
        'x-birch-event': d.event,
        'x-birch-delivery': d.id,
      },
      body: d.body,
      signal: AbortSignal.timeout(TIMEOUT_MS),
    })
      .then(async (r) => {
        await r.arrayBuffer().catch(() => undefined);
        d.response_status = r.status;
        if (r.ok) d.status = 'succeeded';
        else this.retryOrFail(h, d);
      })
      .catch(() => this.retryOrFail(h, d));
  }

  private retryOrFail(h: Webhook, d: Delivery): void {
    const delay = RETRY_DELAYS_MS[d.attempts - 1];
    if (delay === undefined) {
      d.status = 'failed';
      return;
    }
    const timer = setTimeout(() => {
      this.timers.delete(timer);
      this.attempt(h, d);
    }, delay);
    this.timers.add(timer);
  }

  close(): void {
    for (const t of this.timers) clearTimeout(t);
    this.timers.clear();
  }
}

function deliveryView(d: Delivery): Record<string, unknown> {
  const { body, ...rest } = d;
  return { ...rest, payload: JSON.parse(body) as unknown };
}
