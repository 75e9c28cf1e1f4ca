// An Anypoint MQ-style queue for webhook deliveries: an event is published once per subscribed receiver, a
// poller takes due messages, signs and POSTs them; a failed attempt goes back with a delay (1 s, 4 s, 16 s),
// after the 4th attempt the delivery goes to the dead-letter state. Every delivery and attempt is logged.
import { createHmac, randomUUID } from 'node:crypto';
import { stamp } from './time.ts';

export const SIGNATURE_HEADER = 'X-Acacia-Signature';
export const DELIVERY_ID_HEADER = 'X-Acacia-Delivery-Id';
const BACKOFF_MS = [1000, 4000, 16000];

export interface Attempt {
  attempt: number;
  at: string;
  outcome: 'delivered' | 'failed';
  responseStatus: number | null;
  error: string | null;
  durationMs: number;
}

export interface Delivery {
  deliveryId: string;
  webhookId: string;
  tenant: string;
  eventId: string;
  event: string;
  status: 'queued' | 'delivered' | 'retrying' | 'dead-lettered';
  createdAt: string;
  redeliveryOf: string | null;
  attempts: Attempt[];
  url: string;
  signingKey: string;
  body: string;
}

export interface Queue {
  deliveries: Map<string, Delivery>;
  due: { deliveryId: string; at: number }[];
  poller: NodeJS.Timeout | undefined;
  inFlight: Set<Promise<void>>;
}

export function createQueue(): Queue {
  const q: Queue = { deliveries: new Map(), due: [], poller: undefined, inFlight: new Set() };
  q.poller = setInterval(() => poll(q), 20);
  q.poller.unref();
  return q;
}

export function sign(key: string, t: number, body: string): string {
  return `t=${t},v1=${createHmac('sha256', key).update(`${t}.${body}`).digest('hex')}`;
}

/** Publishes one delivery of a (possibly earlier) event to one receiver. */
export function enqueue(
  q: Queue,
  d: {
    webhookId: string;
    tenant: string;
    eventId: string;
    event: string;
    url: string;
    signingKey: string;
    body: string;
    redeliveryOf?: string;
  },
): Delivery {
  const delivery: Delivery = {
    ...d,
    deliveryId: randomUUID(),
    status: 'queued',
    createdAt: stamp(),
    redeliveryOf: d.redeliveryOf ?? null,
    attempts: [],
  };
  q.deliveries.set(delivery.deliveryId, delivery);
  q.due.push({ deliveryId: delivery.deliveryId, at: Date.now() });
  return delivery;
}

function poll(q: Queue): void {
  const now = Date.now();
  const ready = q.due.filter((m) => m.at <= now);
  if (ready.length === 0) return;
  q.due = q.due.filter((m) => m.at > now);
  for (const m of ready) {
    const d = q.deliveries.get(m.deliveryId);
    if (!d) continue;
    const p = attempt(q, d).finally(() => q.inFlight.delete(p));
    q.inFlight.add(p);
  }
}

async function attempt(q: Queue, d: Delivery): Promise<void> {
  const started = Date.now();
  const t = Math.floor(started / 1000);
  let status: number | null = null;
  let error: string | null = null;
  try {
    const res = await fetch(d.url, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        'user-agent': 'acacia-webhooks/1.0',
        [SIGNATURE_HEADER]: sign(d.signingKey, t, d.body),
        [DELIVERY_ID_HEADER]: d.deliveryId,
        'X-Acacia-Event': d.event,
        'X-Acacia-Webhook-Id': d.webhookId,
      },
      body: d.body,
      redirect: 'manual',
      signal: AbortSignal.timeout(5000),
    });
    status = res.status;
    await res.body?.cancel();
  } catch (e) {
    // Only the error's code is kept: no address or stack of the attempt reaches the log.
    const cause = (e as { cause?: { code?: unknown } }).cause;
    error = typeof cause?.code === 'string' ? cause.code : (e as Error).name;
  }
  const ok = status !== null && status >= 200 && status < 300;
  d.attempts.push({
    attempt: d.attempts.length + 1,
    at: stamp(started),
    outcome: ok ? 'delivered' : 'failed',
    responseStatus: status,
    error,
    durationMs: Date.now() - started,
  });
  if (ok) {
    d.status = 'delivered';
    // At-least-once (ACACIA_AT_LEAST_ONCE, hand-started only): an acknowledged message is sometimes redelivered
    // by the broker; here every first delivery is sent once more, same delivery id, signed anew.
    if (process.env.ACACIA_AT_LEAST_ONCE === '1' && d.attempts.length === 1)
      q.due.push({ deliveryId: d.deliveryId, at: Date.now() + 50 });
    return;
  }
  const wait = BACKOFF_MS[d.attempts.length - 1];
  if (wait === undefined) {
    d.status = 'dead-lettered';
    return;
  }
  d.status = 'retrying';
  q.due.push({ deliveryId: d.deliveryId, at: Date.now() + wait });
}

/** The delivery log's view of a delivery (no signing key, no body). */
export function view(d: Delivery): Record<string, unknown> {
  return {
    deliveryId: d.deliveryId,
    webhookId: d.webhookId,
    eventId: d.eventId,
    event: d.event,
    status: d.status,
    createdAt: d.createdAt,
    redeliveryOf: d.redeliveryOf,
    attemptCount: d.attempts.length,
    attempts: d.attempts,
  };
}

export async function closeQueue(q: Queue): Promise<void> {
  if (q.poller) clearInterval(q.poller);
  q.due = [];
  await Promise.allSettled([...q.inFlight]);
}
