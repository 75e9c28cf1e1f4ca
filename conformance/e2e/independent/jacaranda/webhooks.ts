// Webhook receivers and their deliveries: signed (Jacaranda-Signature: t=<unix>,v1=<hex HMAC-SHA256 over
// "<t>.<raw body>">), retried twice on failure (after 1 s and 4 s), logged per receiver, re-triggered on request.
import { createHmac } from 'node:crypto';
import { ApiError, pageToken, paging } from './http.ts';
import { type Choices, later, nowIso, randomToken, type State, snowflake, type WebhookReceiver } from './state.ts';

export const WEBHOOK_EVENTS = ['connection.created', 'connection.activated', 'order.created', 'order.paid'];
/** The name an event is published under, by the upperEvents choice. */
export function eventName(c: Choices, base: string): string {
  return c.upperEvents && base.startsWith('connection.') ? base.replace('.', '_').toUpperCase() : base;
}

export function eventNames(c: Choices): string[] {
  return WEBHOOK_EVENTS.map((e) => eventName(c, e));
}

const RETRY_DELAYS_MS = [1000, 4000];

interface Attempt {
  attempt_time: string;
  response_status: number;
  outcome: string;
}

export interface Delivery {
  id: string;
  receiver: string;
  tenant: string;
  event: string;
  event_id: string;
  state: string;
  attempts: Attempt[];
  body: string;
  create_time: string;
}

export interface Deliveries {
  list: Delivery[];
}

export function newDeliveries(): Deliveries {
  return { list: [] };
}

/** POST /webhooks body: url (http or https) and 1..20 known event names; other fields refused. */
export function validateWebhook(c: Choices, body: Record<string, unknown>): { url: string; events: string[] } {
  const names = eventNames(c);
  for (const k of Object.keys(body)) {
    if (k !== 'url' && k !== 'events') throw new ApiError('invalid_request', `unknown field ${k}`);
  }
  const { url, events } = body;
  let parsed: URL | undefined;
  try {
    parsed = typeof url === 'string' && url.length <= 2048 ? new URL(url) : undefined;
  } catch {
    parsed = undefined;
  }
  if (!parsed || (parsed.protocol !== 'http:' && parsed.protocol !== 'https:')) {
    throw new ApiError('invalid_request', 'url must be an absolute http or https address');
  }
  if (!Array.isArray(events) || events.length < 1 || events.length > 20) {
    throw new ApiError('invalid_request', 'events must list 1 to 20 event names');
  }
  for (const e of events) {
    if (typeof e !== 'string' || !names.includes(e)) {
      throw new ApiError('invalid_request', 'unknown event name', { detail: `events: one of ${names.join(', ')}` });
    }
  }
  return { url: String(url), events: [...new Set(events as string[])] };
}

export function createReceiver(state: State, tenant: string, v: { url: string; events: string[] }): WebhookReceiver {
  const r: WebhookReceiver = {
    id: snowflake(),
    tenant,
    url: v.url,
    events: v.events,
    signingKey: `whsec_${randomToken(32)}`,
    createTime: nowIso(),
  };
  state.webhooks.set(r.id, r);
  return r;
}

export function receiverView(r: WebhookReceiver) {
  return { id: r.id, url: r.url, events: r.events, createTime: r.createTime };
}

function signature(key: string, body: string): string {
  const t = Math.floor(Date.now() / 1000);
  return `t=${t},v1=${createHmac('sha256', key).update(`${t}.${body}`).digest('hex')}`;
}

async function attempt(state: State, d: Delivery, retriesLeft: number): Promise<void> {
  const r = state.webhooks.get(d.receiver);
  if (!r) return;
  let status = 0;
  try {
    const res = await fetch(r.url, {
      method: 'POST',
      headers: {
        'Content-Type': 'application/json',
        'User-Agent': 'jacaranda-webhooks/1',
        'Jacaranda-Signature': signature(r.signingKey, d.body),
        'Jacaranda-Delivery-Id': d.id,
        'Jacaranda-Event': d.event,
      },
      body: d.body,
      signal: AbortSignal.timeout(5000),
    });
    status = res.status;
    await res.arrayBuffer().catch(() => undefined);
  } catch {
    status = 0;
  }
  const ok = status >= 200 && status < 300;
  d.attempts.push({
    attempt_time: nowIso(),
    response_status: status,
    outcome: ok ? 'OUTCOME_SUCCEEDED' : status ? 'OUTCOME_REJECTED' : 'OUTCOME_UNREACHABLE',
  });
  d.state = ok ? 'DELIVERY_STATE_SUCCEEDED' : retriesLeft > 0 ? 'DELIVERY_STATE_RETRYING' : 'DELIVERY_STATE_FAILED';
  if (!ok && retriesLeft > 0) {
    const delay = RETRY_DELAYS_MS[RETRY_DELAYS_MS.length - retriesLeft] ?? 4000;
    later(state, delay, () => void attempt(state, d, retriesLeft - 1));
  }
}

/** Sends an event to every receiver of the tenant subscribed to it. */
export function emit(state: State, dl: Deliveries, tenant: string, base: string, data: unknown): void {
  const event = eventName(state.choices, base);
  for (const r of state.webhooks.values()) {
    if (r.tenant !== tenant || !r.events.includes(event)) continue;
    const eventId = snowflake();
    const body = JSON.stringify({ id: eventId, type: event, createTime: nowIso(), data });
    const d: Delivery = {
      id: snowflake(),
      receiver: r.id,
      tenant,
      event,
      event_id: eventId,
      state: 'DELIVERY_STATE_PENDING',
      attempts: [],
      body,
      create_time: nowIso(),
    };
    dl.list.push(d);
    void attempt(state, d, RETRY_DELAYS_MS.length);
  }
}

function deliveryView(d: Delivery) {
  return {
    id: d.id,
    receiver: d.receiver,
    event: d.event,
    event_id: d.event_id,
    state: d.state,
    attempts: d.attempts,
    create_time: d.create_time,
  };
}

/** GET /webhook-deliveries?receiver=… oldest first, paged like the audit log (page_size default 20, at most 100). */
export function deliveryLog(state: State, dl: Deliveries, tenant: string, q: URLSearchParams) {
  const receiver = q.get('receiver');
  if (!receiver)
    throw new ApiError('invalid_request', 'query parameter receiver is required', { hint: 'the webhook id' });
  const r = state.webhooks.get(receiver);
  if (!r || r.tenant !== tenant) throw new ApiError('not_found', 'no such webhook receiver');
  const all = dl.list.filter((d) => d.receiver === receiver);
  const { start, size } = paging(q, state.choices.deliveryPageSize);
  const list = all.slice(start, start + size).map(deliveryView);
  const next = start + size < all.length ? pageToken(start + size) : '';
  return {
    receiver,
    count: list.length,
    deliveries: list,
    ...(next || !state.choices.omitEmpty ? { next_page_token: next } : {}),
    total_size: all.length,
  };
}

/** POST /webhook-deliveries/{id}:retry — sends the logged delivery again, signed now. */
export function retryDelivery(state: State, dl: Deliveries, tenant: string, id: string) {
  const d = dl.list.find((x) => x.id === id && x.tenant === tenant);
  if (!d || !state.webhooks.has(d.receiver)) throw new ApiError('not_found', 'no such delivery');
  d.state = 'DELIVERY_STATE_PENDING';
  void attempt(state, d, 0);
  return { delivery: deliveryView(d) };
}
