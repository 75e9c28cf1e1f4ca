// The webhook job as Sidekiq runs it: each delivery a job that POSTs the event signed
// (X-Basswood-Signature: t=<unix>,v1=<hex HMAC-SHA256 of "t.body">), recorded in the delivery log, retried on
// failure on Sidekiq's schedule ((count ** 4) + 15 + rand(10) * (count + 1) seconds), here at most 5 times.
import { createHmac } from 'node:crypto';
import { nextId, type Rec, rubyTime, type Store } from './state.ts';

export const SIGNATURE_HEADER = 'X-Basswood-Signature';
export const DELIVERY_HEADER = 'X-Basswood-Delivery';
const MAX_RETRIES = 5;

/** A timer the store can cancel on close (a Sidekiq scheduled job). */
export function later(store: Store, ms: number, fn: () => void): void {
  const t = setTimeout(() => {
    store.timers.delete(t);
    fn();
  }, ms);
  t.unref();
  store.timers.add(t);
}

async function perform(store: Store, d: Rec): Promise<void> {
  const hook = store.webhooks.find((w) => w.row.id === d.webhook_id);
  if (!hook?.row.active) return;
  const t = Math.floor(Date.now() / 1000);
  const v1 = createHmac('sha256', hook.secret).update(`${t}.${d.body}`).digest('hex');
  d.attempts += 1;
  d.last_attempt_at = rubyTime(store);
  try {
    const res = await fetch(hook.row.url, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        'user-agent': 'Basswood-Webhooks/1.0 (Sidekiq)',
        [SIGNATURE_HEADER]: `t=${t},v1=${v1}`,
        [DELIVERY_HEADER]: String(d.id),
        'X-Basswood-Event': d.event,
      },
      body: d.body,
      signal: AbortSignal.timeout(5000),
    });
    d.response_status = res.status;
    await res.arrayBuffer().catch(() => undefined);
    d.status = res.ok ? 'succeeded' : 'failed';
  } catch {
    d.response_status = null;
    d.status = 'failed';
  }
  if (d.status === 'failed' && d.attempts <= MAX_RETRIES) {
    const count = d.attempts - 1;
    const seconds = count ** 4 + 15 + Math.floor(Math.random() * 10) * (count + 1);
    d.status = 'retrying';
    d.next_retry_at = rubyTime(store, new Date(Date.now() + seconds * 1000));
    later(store, seconds * 1000, () => void perform(store, d));
  } else d.next_retry_at = null;
}

/** Enqueues one delivery of a stored event to a receiver (a new job, as `DeliveryJob.perform_async`). */
export function enqueue(store: Store, webhookId: number, event: Rec, redeliveryOf: number | null = null): Rec {
  const d: Rec = {
    id: nextId(store, 'deliveries'),
    webhook_id: webhookId,
    event_id: event.id,
    event: event.event,
    status: 'enqueued',
    attempts: 0,
    response_status: null,
    redelivery_of: redeliveryOf,
    created_at: rubyTime(store),
    last_attempt_at: null,
    next_retry_at: null,
    body: event.raw,
  };
  store.deliveries.push(d);
  later(store, store.options.deliveryDelayMs, () => void perform(store, d));
  return d;
}

/** Sidekiq's "retry now" on a logged attempt: the same job runs again, counted on the same log entry. */
export function retryNow(store: Store, d: Rec): Rec {
  later(store, store.options.deliveryDelayMs, () => void perform(store, d));
  return d;
}

/** An event of the tenant to every active receiver subscribed to it. */
export function dispatchEvent(store: Store, tenant: string, name: string, data: Rec): void {
  const id = nextId(store, 'events');
  const raw = JSON.stringify({ id, event: name, tenant, created_at: rubyTime(store), data });
  for (const w of store.webhooks) {
    if (w.tenant === tenant && w.row.active && w.row.events.includes(name))
      enqueue(store, w.row.id, { id, event: name, raw });
  }
}

/** A delivery as the log shows it (the raw body stays in the job). */
export function deliveryView(d: Rec): Rec {
  const { body: _body, ...view } = d;
  return view;
}
