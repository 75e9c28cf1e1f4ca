// Webhook deliveries through a Cloudflare-Queues-like consumer: at-least-once, retried with growing delays
// (max_retries 3), each message one delivery in the tenant's delivery log. Signature header:
// Willow-Signature: t=<unix seconds>,v1=<hex HMAC-SHA256(key, t + "." + raw body)>, computed per attempt.
import { createHmac, randomBytes } from 'node:crypto';

export const EVENT_NAMES = ['connection.created', 'connection.ready', 'order.created', 'order.paid'];
export const SIGNATURE_HEADER = 'Willow-Signature';
export const DELIVERY_HEADER = 'Willow-Delivery-Id';
const RETRY_DELAYS_MS = [1000, 4000, 15000];

export interface Webhook {
  id: string;
  url: string;
  events: string[];
  status: 'enabled';
  createdAt: string;
  signingKey: string;
}

export interface Attempt {
  at: string;
  responseStatus: number | null;
  outcome: 'success' | 'http_error' | 'network_error' | 'timeout';
  durationMs: number;
}

export interface Delivery {
  id: string;
  webhookId: string;
  eventId: string;
  event: string;
  state: 'queued' | 'retrying' | 'delivered' | 'failed';
  createdAt: string;
  redeliveryOf: string | null;
  attempts: Attempt[];
  body: string;
}

export function publicDelivery(d: Delivery): Record<string, unknown> {
  const { body: _body, ...rest } = d;
  return { ...rest, attemptCount: d.attempts.length, nextRetryAt: null };
}

export function sign(key: string, body: string, t: number): string {
  return `t=${t},v1=${createHmac('sha256', key).update(`${t}.${body}`).digest('hex')}`;
}

export class DeliveryQueue {
  timers = new Set<NodeJS.Timeout>();
  aborts = new Set<AbortController>();
  closed = false;
  /** Cloudflare Queues may deliver a message more than once; WILLOW_DUPLICATE_DELIVERY shows it. */
  duplicate: boolean;
  constructor(duplicate: boolean) {
    this.duplicate = duplicate;
  }

  newDelivery(webhook: Webhook, eventId: string, event: string, body: string, redeliveryOf: string | null): Delivery {
    return {
      id: `dlv_${randomBytes(10).toString('hex')}`,
      webhookId: webhook.id,
      eventId,
      event,
      state: 'queued',
      createdAt: new Date().toISOString(),
      redeliveryOf,
      attempts: [],
      body,
    };
  }

  enqueue(webhook: Webhook, d: Delivery, delayMs = 15): void {
    if (this.closed) return;
    const timer = setTimeout(() => {
      this.timers.delete(timer);
      void this.attempt(webhook, d);
    }, delayMs);
    this.timers.add(timer);
  }

  async attempt(webhook: Webhook, d: Delivery): Promise<void> {
    const started = Date.now();
    const ac = new AbortController();
    this.aborts.add(ac);
    const timeout = setTimeout(() => ac.abort(), 5000);
    let attempt: Attempt;
    try {
      const t = Math.floor(Date.now() / 1000);
      const res = await fetch(webhook.url, {
        method: 'POST',
        signal: ac.signal,
        headers: {
          'content-type': 'application/json',
          'user-agent': 'willow-webhooks/1.0',
          [SIGNATURE_HEADER]: sign(webhook.signingKey, d.body, t),
          [DELIVERY_HEADER]: d.id,
          'Willow-Event': d.event,
          'Willow-Webhook-Id': webhook.id,
        },
        body: d.body,
        redirect: 'manual',
      });
      await res.arrayBuffer().catch(() => undefined);
      attempt = {
        at: new Date(started).toISOString(),
        responseStatus: res.status,
        outcome: res.ok ? 'success' : 'http_error',
        durationMs: Date.now() - started,
      };
    } catch {
      const outcome = ac.signal.aborted ? 'timeout' : 'network_error';
      attempt = {
        at: new Date(started).toISOString(),
        responseStatus: null,
        outcome,
        durationMs: Date.now() - started,
      };
    } finally {
      clearTimeout(timeout);
      this.aborts.delete(ac);
    }
    if (this.closed) return;
    d.attempts.push(attempt);
    if (attempt.outcome === 'success') {
      d.state = 'delivered';
      if (this.duplicate && d.attempts.length === 1) this.enqueue(webhook, d, 50);
      return;
    }
    const delay = RETRY_DELAYS_MS[d.attempts.length - 1];
    if (delay === undefined) d.state = 'failed';
    else {
      d.state = 'retrying';
      this.enqueue(webhook, d, delay);
    }
  }

  close(): void {
    this.closed = true;
    for (const t of this.timers) clearTimeout(t);
    for (const a of this.aborts) a.abort();
    this.timers.clear();
  }
}
