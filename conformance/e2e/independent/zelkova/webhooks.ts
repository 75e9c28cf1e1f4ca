// Webhook receivers and the delivery worker. In zelkova's database an AFTER INSERT trigger on the outbox
// queues one `webhook_deliveries` row per subscribed receiver; the Go worker signs and posts it, retrying
// after 1 s and 5 s (3 attempts). Re-triggering a logged delivery adds a manual attempt to the same row.
import { createHmac, randomBytes, randomUUID } from 'node:crypto';
import { bad, notFound, pgTime } from './http-kit.ts';

export const WEBHOOK_EVENTS = ['connection.created', 'connection.activated', 'order.created', 'order.paid'];
export const SIGNATURE_HEADER = 'webhook-signature';
const RETRY_MS = [1000, 5000];

export interface Webhook {
  id: string;
  tenant: string;
  url: string;
  events: string[];
  secret: string;
  createdAt: string;
}

interface Attempt {
  number: number;
  trigger: 'event' | 'retry' | 'manual';
  at: string;
  responseStatus: number | null;
  error?: string;
  durationMs: number;
}

export interface Delivery {
  id: string;
  webhookId: string;
  tenant: string;
  eventId: string;
  event: string;
  status: 'pending' | 'succeeded' | 'failed';
  createdAt: string;
  attempts: Attempt[];
  body: string;
}

export function signature(secret: string, t: number, body: string): string {
  return `t=${t},v1=${createHmac('sha256', secret).update(`${t}.${body}`).digest('hex')}`;
}

export class WebhookWorker {
  hooks = new Map<string, Webhook>();
  deliveries: Delivery[] = [];
  private timers = new Set<NodeJS.Timeout>();
  /** The worker polls `webhook_deliveries` this often (0: the trigger's NOTIFY wakes it at once). */
  pollMs: number;

  constructor(pollMs = 0) {
    this.pollMs = pollMs;
  }

  /** Queues an attempt for the worker's next poll. */
  private queue(d: Delivery, trigger: Attempt['trigger']): void {
    if (!this.pollMs) {
      this.attempt(d, trigger);
      return;
    }
    const timer = setTimeout(() => {
      this.timers.delete(timer);
      this.attempt(d, trigger);
    }, this.pollMs);
    this.timers.add(timer);
  }

  register(tenant: string, body: Record<string, unknown>): Webhook {
    const url = body.url;
    if (typeof url !== 'string' || url.length > 2048) throw bad('url must be a string of at most 2048 characters');
    let parsed: URL;
    try {
      parsed = new URL(url);
    } catch {
      throw bad('url must be an absolute http(s) address');
    }
    if (!/^https?:$/.test(parsed.protocol)) throw bad('url must be an absolute http(s) address');
    const events = body.events;
    if (!Array.isArray(events) || events.length < 1 || events.length > 20)
      throw bad('events must list 1 to 20 event names');
    for (const e of events) {
      if (typeof e !== 'string' || !WEBHOOK_EVENTS.includes(e))
        throw bad('unknown event name', `events: one of ${WEBHOOK_EVENTS.join(', ')}`);
    }
    const hook: Webhook = {
      id: randomUUID(),
      tenant,
      url,
      events: [...new Set(events as string[])],
      secret: `whsec_${randomBytes(24).toString('base64url')}`,
      createdAt: pgTime(),
    };
    this.hooks.set(hook.id, hook);
    return hook;
  }

  /** A receiver of the tenant (another tenant's receiver does not exist for it). */
  get(tenant: string, id: string): Webhook {
    const hook = this.hooks.get(id);
    if (!hook || hook.tenant !== tenant) throw notFound('webhook receiver not found');
    return hook;
  }

  remove(tenant: string, id: string): void {
    this.get(tenant, id);
    this.hooks.delete(id);
  }

  /** The trigger: queues a delivery to every receiver of the tenant subscribed to the event. */
  emit(tenant: string, event: string, data: Record<string, unknown>): void {
    for (const hook of this.hooks.values()) {
      if (hook.tenant !== tenant || !hook.events.includes(event)) continue;
      const eventId = randomUUID();
      const body = JSON.stringify({ id: eventId, type: event, createdAt: pgTime(), tenant, data });
      const d: Delivery = {
        id: randomUUID(),
        webhookId: hook.id,
        tenant,
        eventId,
        event,
        status: 'pending',
        createdAt: pgTime(),
        attempts: [],
        body,
      };
      this.deliveries.push(d);
      this.queue(d, 'event');
    }
  }

  delivery(tenant: string, id: string): Delivery {
    const d = this.deliveries.find((x) => x.id === id && x.tenant === tenant);
    if (!d) throw notFound('delivery not found');
    return d;
  }

  retrigger(d: Delivery): void {
    d.status = 'pending';
    this.queue(d, 'manual');
  }

  private attempt(d: Delivery, trigger: Attempt['trigger']): void {
    const hook = this.hooks.get(d.webhookId);
    if (!hook) return;
    const started = Date.now();
    const t = Math.floor(started / 1000);
    const a: Attempt = {
      number: d.attempts.length + 1,
      trigger,
      at: pgTime(started),
      responseStatus: null,
      durationMs: 0,
    };
    d.attempts.push(a);
    fetch(hook.url, {
      method: 'POST',
      body: d.body,
      signal: AbortSignal.timeout(5000),
      headers: {
        'content-type': 'application/json',
        'user-agent': 'zelkova-hooks/1.4',
        [SIGNATURE_HEADER]: signature(hook.secret, t, d.body),
        'webhook-id': d.id,
        'webhook-event': d.event,
      },
    }).then(
      async (r) => {
        await r.arrayBuffer().catch(() => undefined);
        this.settle(d, a, started, r.status, r.ok ? undefined : `receiver answered ${r.status}`);
      },
      (e: unknown) => this.settle(d, a, started, null, e instanceof Error ? e.name : 'network error'),
    );
  }

  private settle(d: Delivery, a: Attempt, started: number, status: number | null, error?: string): void {
    a.responseStatus = status;
    a.durationMs = Date.now() - started;
    if (!error) {
      d.status = 'succeeded';
      return;
    }
    a.error = error;
    const automatic = d.attempts.filter((x) => x.trigger !== 'manual').length;
    const wait = a.trigger === 'manual' ? undefined : RETRY_MS[automatic - 1];
    if (wait === undefined) {
      d.status = 'failed';
      return;
    }
    const timer = setTimeout(() => {
      this.timers.delete(timer);
      this.attempt(d, 'retry');
    }, wait);
    this.timers.add(timer);
  }

  view(d: Delivery) {
    const { body: _body, tenant: _tenant, ...rest } = d;
    return { ...rest, attemptCount: d.attempts.length };
  }

  close(): void {
    for (const t of this.timers) clearTimeout(t);
    this.timers.clear();
  }
}
