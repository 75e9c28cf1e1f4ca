// Webhook receivers and the Celery-like delivery worker: each event makes one delivery per subscribed
// receiver, sent by a background task with exponential retries (1 s, 2 s, 4 s, 8 s; five attempts in
// all), every attempt signed afresh: X-Walnut-Signature: t=<unix>,v1=<hex HMAC-SHA256(key, "<t>.<body>")>.
// The body is fixed when the event happens; a redelivery resends it unchanged under a new delivery id.
import { createHmac, randomBytes, randomUUID } from 'node:crypto';
import { request } from 'node:http';
import type { Clock } from './core.ts';

export const EVENTS = ['connection.created', 'connection.activated', 'order.created', 'order.paid'];
export const SIGNATURE_HEADER = 'X-Walnut-Signature';
const BACKOFF_S = [1, 2, 4, 8];

export interface Webhook {
  id: string;
  tenant: string;
  url: string;
  events: string[];
  is_active: boolean;
  created_at: string;
  signing_key: string;
}

export interface Delivery {
  id: string;
  webhook_id: string;
  event_id: string;
  event: string;
  status: 'pending' | 'retrying' | 'delivered' | 'failed';
  attempts: number;
  last_response_status: number | null;
  last_error: string | null;
  redelivery_of: string | null;
  created_at: string;
  last_attempt_at: string | null;
  next_retry_at: string | null;
  body: string;
}

export class WebhookService {
  hooks = new Map<string, Webhook>();
  deliveries: Delivery[] = [];
  timers = new Set<NodeJS.Timeout>();
  closed = false;
  time: Clock;

  constructor(time: Clock) {
    this.time = time;
  }

  register(tenant: string, url: string, events: string[]): Webhook {
    const hook: Webhook = {
      id: randomUUID(),
      tenant,
      url,
      events,
      is_active: true,
      created_at: this.time(),
      signing_key: `whsec_${randomBytes(24).toString('hex')}`,
    };
    this.hooks.set(hook.id, hook);
    return hook;
  }

  /** The receiver of this tenant, or undefined (another tenant's receiver is not found either). */
  find(tenant: string, id: string): Webhook | undefined {
    const h = this.hooks.get(id);
    return h && h.tenant === tenant && h.is_active ? h : undefined;
  }

  list(tenant: string): Webhook[] {
    return [...this.hooks.values()].filter((h) => h.tenant === tenant && h.is_active);
  }

  /** Publishes an event of a tenant: one delivery per active receiver subscribed to it. */
  emit(tenant: string, event: string, data: Record<string, unknown>): void {
    const eventId = randomUUID();
    const body = JSON.stringify({ id: eventId, event, created_at: this.time(), data });
    for (const hook of this.list(tenant)) {
      if (hook.events.includes(event)) this.enqueue(hook, eventId, event, body, null);
    }
  }

  redeliver(hook: Webhook, original: Delivery): Delivery {
    return this.enqueue(hook, original.event_id, original.event, original.body, original.id);
  }

  private enqueue(hook: Webhook, eventId: string, event: string, body: string, of: string | null): Delivery {
    const d: Delivery = {
      id: randomUUID(),
      webhook_id: hook.id,
      event_id: eventId,
      event,
      status: 'pending',
      attempts: 0,
      last_response_status: null,
      last_error: null,
      redelivery_of: of,
      created_at: this.time(),
      last_attempt_at: null,
      next_retry_at: null,
      body,
    };
    this.deliveries.push(d);
    this.later(0, () => this.attempt(hook, d));
    return d;
  }

  private later(ms: number, fn: () => void): void {
    if (this.closed) return;
    const t = setTimeout(() => {
      this.timers.delete(t);
      fn();
    }, ms);
    this.timers.add(t);
  }

  private attempt(hook: Webhook, d: Delivery): void {
    d.attempts += 1;
    d.last_attempt_at = this.time();
    const t = Math.floor(Date.now() / 1000);
    const sig = createHmac('sha256', hook.signing_key).update(`${t}.${d.body}`, 'utf8').digest('hex');
    let settled = false;
    const done = (status: number | null, error: string | null) => {
      if (settled) return;
      settled = true;
      d.last_response_status = status;
      d.last_error = error;
      if (status !== null && status >= 200 && status < 300) {
        d.status = 'delivered';
        d.next_retry_at = null;
        return;
      }
      const wait = BACKOFF_S[d.attempts - 1];
      if (wait === undefined || this.closed) {
        d.status = 'failed';
        d.next_retry_at = null;
        return;
      }
      d.status = 'retrying';
      d.next_retry_at = this.time(Date.now() + wait * 1000);
      this.later(wait * 1000, () => this.attempt(hook, d));
    };
    let url: URL;
    try {
      url = new URL(hook.url);
    } catch {
      done(null, 'invalid_url');
      return;
    }
    const req = request(
      url,
      {
        method: 'POST',
        timeout: 5000,
        headers: {
          'Content-Type': 'application/json',
          'Content-Length': Buffer.byteLength(d.body),
          'User-Agent': 'walnut-webhooks/1.0',
          [SIGNATURE_HEADER]: `t=${t},v1=${sig}`,
          'X-Walnut-Delivery': d.id,
          'X-Walnut-Event': d.event,
          'X-Walnut-Webhook': hook.id,
        },
      },
      (res) => {
        res.resume();
        res.on('end', () => done(res.statusCode ?? null, null));
      },
    );
    req.on('timeout', () => req.destroy(new Error('timeout')));
    req.on('error', (e: NodeJS.ErrnoException) => {
      done(
        null,
        e.code === 'ECONNREFUSED' ? 'connection_refused' : e.message === 'timeout' ? 'timeout' : 'network_error',
      );
    });
    req.end(d.body);
  }

  /** A delivery as the log shows it (the body is kept for redelivery, shown parsed). */
  view(d: Delivery) {
    const { body, ...rest } = d;
    return { ...rest, payload: JSON.parse(body) as unknown };
  }

  close(): void {
    this.closed = true;
    for (const t of this.timers) clearTimeout(t);
    this.timers.clear();
  }
}
