// The BullMQ "webhooks" queue in miniature: one job per delivery, up to 5 attempts with exponential
// backoff (base * 2^(attempt-1); DOGWOOD_BACKOFF_MS shortens it), each attempt signed afresh.
import { createHmac } from 'node:crypto';
import { type Delivery, later, type State, type Webhook } from './state.ts';
import { cuid } from './util.ts';

export const SIGNATURE_HEADER = 'X-Dogwood-Signature';
export const DELIVERY_HEADER = 'X-Dogwood-Delivery';
export const WEBHOOK_EVENTS = ['connection.created', 'connection.updated', 'order.created', 'order.paid'];
const MAX_ATTEMPTS = 5;

export function sign(secret: string, t: number, body: string): string {
  const v1 = createHmac('sha256', secret).update(`${t}.${body}`).digest('hex');
  return `t=${t},v1=${v1}`;
}

/** Queues one delivery of an event body to a receiver. */
export function enqueue(
  state: State,
  hook: Webhook,
  eventId: string,
  eventType: string,
  payload: string,
  retriggeredFrom?: number,
): Delivery {
  const d: Delivery = {
    id: ++state.seq.delivery,
    webhookId: hook.id,
    eventId,
    eventType,
    payload,
    trigger: retriggeredFrom ? 'manual' : 'event',
    status: 'queued',
    attempts: 0,
    maxAttempts: MAX_ATTEMPTS,
    responseStatus: null,
    lastError: null,
    createdAt: new Date().toISOString(),
    lastAttemptAt: null,
    nextAttemptAt: new Date().toISOString(),
  };
  if (retriggeredFrom) d.retriggeredFrom = retriggeredFrom;
  state.deliveries.push(d);
  later(state, 0, () => void attempt(state, hook, d));
  return d;
}

async function attempt(state: State, hook: Webhook, d: Delivery): Promise<void> {
  d.attempts++;
  d.lastAttemptAt = new Date().toISOString();
  d.nextAttemptAt = null;
  const t = Math.floor(Date.now() / 1000);
  try {
    const res = await fetch(hook.url, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        'user-agent': 'Dogwood-Webhooks/1.0',
        [SIGNATURE_HEADER]: sign(hook.secret, t, d.payload),
        ...(state.opts.noDeliveryHeader ? {} : { [DELIVERY_HEADER]: String(d.id) }),
        'X-Dogwood-Event': d.eventType,
        'X-Dogwood-Attempt': String(d.attempts),
      },
      body: d.payload,
      signal: AbortSignal.timeout(5000),
      redirect: 'manual',
    });
    await res.arrayBuffer().catch(() => undefined);
    d.responseStatus = res.status;
    if (res.status >= 200 && res.status < 300) {
      d.status = 'succeeded';
      d.lastError = null;
      return;
    }
    d.lastError = `receiver answered ${res.status}`;
  } catch (e) {
    d.responseStatus = null;
    d.lastError = e instanceof Error ? e.name : 'delivery failed';
  }
  if (d.attempts >= d.maxAttempts) {
    d.status = 'failed';
    return;
  }
  d.status = 'retrying';
  const wait = state.opts.backoffMs * 2 ** (d.attempts - 1);
  d.nextAttemptAt = new Date(Date.now() + wait).toISOString();
  later(state, wait, () => void attempt(state, hook, d));
}

/** Fans an event of a tenant out to its receivers subscribed to it. */
export function emit(state: State, tenant: string, eventType: string, data: Record<string, unknown>): void {
  const hooks = state.webhooks.filter(
    (h) => h.tenant === tenant && h.status === 'active' && h.events.includes(eventType),
  );
  if (hooks.length === 0) return;
  const eventId = `evt_${cuid()}`;
  const payload = JSON.stringify({ id: eventId, type: eventType, createdAt: new Date().toISOString(), tenant, data });
  for (const h of hooks) enqueue(state, h, eventId, eventType, payload);
}

/** A delivery as the log shows it (no payload signature, no secret). */
export function deliveryView(d: Delivery, stringIds = false): Record<string, unknown> {
  const { payload, ...rest } = d;
  const ids = stringIds
    ? {
        id: String(d.id),
        webhookId: String(d.webhookId),
        ...(d.retriggeredFrom ? { retriggeredFrom: String(d.retriggeredFrom) } : {}),
      }
    : {};
  return { ...rest, ...ids, request: { body: JSON.parse(payload) as unknown } };
}
