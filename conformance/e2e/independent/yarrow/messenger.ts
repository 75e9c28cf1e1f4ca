// Webhook deliveries through a Symfony Messenger-like async transport: a queued message is taken by the
// worker after a short delay, signed at send time and POSTed; failures are retried 3 times (1 s, 2 s, 4 s,
// the "multiplier: 2" retry strategy). Every attempt is kept in the delivery log.
import { createHmac, randomUUID } from 'node:crypto';
import { API } from './catalog.ts';

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
  status: number | null;
  error: string | null;
}

export interface Delivery {
  '@id': string;
  id: string;
  webhookId: string;
  event: string;
  eventId: string;
  status: 'queued' | 'delivered' | 'retrying' | 'failed';
  attempts: Attempt[];
  createdAt: string;
  redeliveryOf: string | null;
  body: string;
}

const BACKOFF_MS = [1000, 2000, 4000];

export function createMessenger(delayMs: number) {
  const deliveries: Delivery[] = [];
  const timers = new Set<NodeJS.Timeout>();
  let closed = false;

  const later = (ms: number, fn: () => void) => {
    if (closed) return;
    const t = setTimeout(() => {
      timers.delete(t);
      fn();
    }, ms);
    timers.add(t);
  };

  async function send(hook: Webhook, d: Delivery): Promise<void> {
    const t = Math.floor(Date.now() / 1000);
    const sig = createHmac('sha256', hook.secret).update(`${t}.${d.body}`).digest('hex');
    const attempt: Attempt = { at: new Date().toISOString(), status: null, error: null };
    d.attempts.push(attempt);
    try {
      const r = await fetch(hook.url, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          'user-agent': 'Symfony HttpClient (yarrow webhooks)',
          'webhook-signature': `t=${t},v1=${sig}`,
          'webhook-id': d.id,
          'webhook-event': d.event,
        },
        body: d.body,
        signal: AbortSignal.timeout(5000),
      });
      attempt.status = r.status;
      await r.arrayBuffer().catch(() => undefined);
      if (r.ok) {
        d.status = 'delivered';
        return;
      }
    } catch (e) {
      attempt.error = e instanceof Error ? e.name : 'error';
    }
    const wait = BACKOFF_MS[d.attempts.length - 1];
    if (wait === undefined) d.status = 'failed';
    else {
      d.status = 'retrying';
      later(wait, () => void send(hook, d));
    }
  }

  return {
    deliveries,
    dispatch(
      hook: Webhook,
      event: string,
      eventId: string,
      body: string,
      redeliveryOf: string | null = null,
    ): Delivery {
      const id = randomUUID();
      const d: Delivery = {
        '@id': `${API}/webhook_deliveries/${id}`,
        id,
        webhookId: hook.id,
        event,
        eventId,
        status: 'queued',
        attempts: [],
        createdAt: new Date().toISOString(),
        redeliveryOf,
        body,
      };
      deliveries.push(d);
      later(delayMs, () => void send(hook, d));
      return d;
    },
    close() {
      closed = true;
      for (const t of timers) clearTimeout(t);
      timers.clear();
    },
  };
}
export type Messenger = ReturnType<typeof createMessenger>;

/** What the delivery log shows: the record without its raw body, plus the payload as sent. */
export function deliveryView(d: Delivery) {
  const { body, ...rest } = d;
  return { ...rest, payload: JSON.parse(body) };
}
