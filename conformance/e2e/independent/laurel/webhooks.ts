// Webhook receivers and deliveries. Each event is one JSON body, signed per attempt in the header
// Webhook-Signature: t=<unix seconds>,v1=<hex HMAC-SHA256 of "<t>.<raw body>">, keyed with the whole
// secret string (whsec_...). Webhook-Id names the delivery (its id in the delivery log), Webhook-Event
// its event. Retries: 3 attempts in all (after 1 s and 5 s) on a non-2xx answer or a network failure.
import { createHmac } from 'node:crypto';
import { request } from 'node:http';
import { isoTime, pyJson, randomToken, ulid } from './util.ts';

export const WEBHOOK_EVENTS = ['connection.created', 'connection.state_changed', 'order.created', 'order.paid'];
const RETRY_DELAYS_MS = [1000, 5000];

export interface Webhook {
  id: string;
  tenant: string;
  url: string;
  events: string[];
  secret: string;
  createdAt: string;
  active: boolean;
}

export interface Attempt {
  at: string;
  outcome: 'succeeded' | 'failed';
  responseStatus: number | null;
}

export interface Delivery {
  id: string;
  webhookId: string;
  tenant: string;
  eventId: string;
  eventType: string;
  body: string;
  status: 'pending' | 'succeeded' | 'failed';
  attempts: Attempt[];
  createdAt: string;
  redeliveryOf: string | null;
}

export function signature(secret: string, t: number, body: string): string {
  return `t=${t},v1=${createHmac('sha256', secret).update(`${t}.${body}`).digest('hex')}`;
}

export class WebhookHub {
  webhooks = new Map<string, Webhook>();
  deliveries = new Map<string, Delivery>();
  timers = new Set<NodeJS.Timeout>();
  closed = false;

  register(tenant: string, url: string, events: string[]): Webhook {
    const hook = {
      id: `wh_${ulid()}`,
      tenant,
      url,
      events,
      secret: `whsec_${randomToken(32)}`,
      createdAt: isoTime(),
      active: true,
    };
    this.webhooks.set(hook.id, hook);
    return hook;
  }

  /** The public view of a receiver; the secret only in the answer that creates it. */
  view(hook: Webhook, withSecret: boolean): Record<string, unknown> {
    const base = {
      id: hook.id,
      url: hook.url,
      events: hook.events,
      status: hook.active ? 'active' : 'disabled',
      createdAt: hook.createdAt,
    };
    return withSecret ? { ...base, secret: hook.secret } : base;
  }

  deliveryView(d: Delivery): Record<string, unknown> {
    const { body: _body, tenant: _tenant, ...rest } = d;
    return { ...rest, attemptCount: d.attempts.length };
  }

  /** Fans an event out to every active receiver of the tenant subscribed to it. */
  dispatch(tenant: string, eventType: string, data: Record<string, unknown>): void {
    const eventId = `evt_${ulid()}`;
    const body = pyJson({ id: eventId, type: eventType, createdAt: isoTime(), data });
    for (const hook of this.webhooks.values()) {
      if (hook.tenant !== tenant || !hook.active || !hook.events.includes(eventType)) continue;
      this.start(hook, eventId, eventType, body, null);
    }
  }

  /** A selective re-trigger: a new delivery of the same event body, signed anew when sent. */
  redeliver(original: Delivery): Delivery | undefined {
    const hook = this.webhooks.get(original.webhookId);
    if (!hook) return undefined;
    return this.start(hook, original.eventId, original.eventType, original.body, original.id);
  }

  private start(
    hook: Webhook,
    eventId: string,
    eventType: string,
    body: string,
    redeliveryOf: string | null,
  ): Delivery {
    const d: Delivery = {
      id: `whd_${ulid()}`,
      webhookId: hook.id,
      tenant: hook.tenant,
      eventId,
      eventType,
      body,
      status: 'pending',
      attempts: [],
      createdAt: isoTime(),
      redeliveryOf,
    };
    this.deliveries.set(d.id, d);
    setImmediate(() => this.attempt(hook, d));
    return d;
  }

  private attempt(hook: Webhook, d: Delivery): void {
    if (this.closed) return;
    const t = Math.floor(Date.now() / 1000);
    const target = new URL(hook.url);
    let done = false;
    const finish = (status: number | null) => {
      if (done) return;
      done = true;
      const ok = status !== null && status >= 200 && status < 300;
      d.attempts.push({ at: isoTime(), outcome: ok ? 'succeeded' : 'failed', responseStatus: status });
      if (ok) d.status = 'succeeded';
      else if (d.attempts.length > RETRY_DELAYS_MS.length) d.status = 'failed';
      else this.later(RETRY_DELAYS_MS[d.attempts.length - 1] ?? 1000, () => this.attempt(hook, d));
    };
    const req = request(
      target,
      {
        method: 'POST',
        timeout: 5000,
        headers: {
          'content-type': 'application/json',
          'content-length': String(Buffer.byteLength(d.body)),
          'user-agent': 'laurel-webhooks/1.0',
          'webhook-id': d.id,
          'webhook-event': d.eventType,
          'webhook-signature': signature(hook.secret, t, d.body),
        },
      },
      (res) => {
        res.resume();
        res.on('end', () => finish(res.statusCode ?? null));
      },
    );
    req.on('timeout', () => req.destroy());
    req.on('error', () => finish(null));
    req.end(d.body);
  }

  private later(ms: number, fn: () => void): void {
    const timer = setTimeout(() => {
      this.timers.delete(timer);
      fn();
    }, ms);
    timer.unref();
    this.timers.add(timer);
  }

  close(): void {
    this.closed = true;
    for (const timer of this.timers) clearTimeout(timer);
  }
}
