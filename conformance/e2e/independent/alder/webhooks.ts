// Webhook receivers and their deliveries: signed POSTs (Webhook-Signature: t=<unix>,v1=<hex HMAC-SHA256
// over "<t>.<raw body>">), a delivery log and a retry endpoint. Two automatic retries (2 s, 10 s).
import { createHmac, randomBytes } from 'node:crypto';
import { ApiError, type Call, ok } from './http.ts';
import { type Delivery, later, type State, type Webhook } from './state.ts';
import { paginate, textList } from './validate.ts';

export const EVENTS = [
  'connection.created',
  'connection.activated',
  'connection.paused',
  'order.created',
  'order.paid',
];
export const SIGNATURE_HEADER = 'Webhook-Signature';
const BACKOFF_MS = [2000, 10_000];
const LOOPBACK = new Set(['127.0.0.1', 'localhost', '[::1]']);

function view(w: Webhook, withSecret: boolean): Record<string, unknown> {
  const { tenant: _t, secret, ...rest } = w;
  return withSecret ? { ...rest, signing_secret: secret } : rest;
}

function deliveryView(d: Delivery): Record<string, unknown> {
  const { tenant: _t, body, ...rest } = d;
  return { ...rest, payload: JSON.parse(body) };
}

export function registerWebhook(state: State, call: Call, body: Record<string, unknown>): Record<string, unknown> {
  const url = body.url;
  if (typeof url !== 'string' || url.length > 2048 || !/^https?:\/\/[^\s]+$/i.test(url) || !URL.canParse(url)) {
    throw new ApiError('invalid_request', 'Request body is invalid', 'url must be an http or https address');
  }
  const events = textList(body, 'events', [1, 20], [2, 120]);
  if (events.some((e) => !EVENTS.includes(e))) {
    throw new ApiError('invalid_request', 'Request body is invalid', `events: one of ${EVENTS.join(', ')}`);
  }
  const at = new Date().toISOString();
  const hook: Webhook = {
    id: ++state.seq.webhook,
    tenant: call.tenant ?? '',
    url,
    events: [...new Set(events)],
    active: true,
    created_by: call.clientId ?? '',
    created_at: at,
    updated_at: at,
    secret: `whsec_${randomBytes(24).toString('hex')}`,
  };
  state.webhooks.push(hook);
  return view(hook, true);
}

export function findWebhook(state: State, call: Call, id: string | null): Webhook {
  if (id === null || !/^\d{1,15}$/.test(id)) {
    throw new ApiError('invalid_request', 'webhook_id is invalid', 'webhook_id must be a webhook id (integer)');
  }
  const hook = state.webhooks.find((w) => w.id === Number(id) && w.tenant === call.tenant && w.active);
  if (!hook) throw new ApiError('not_found', 'Webhook not found', undefined, 'compare identifier and tenant header');
  return hook;
}

export function removeWebhook(state: State, call: Call, id: string): Record<string, unknown> {
  const hook = findWebhook(state, call, id);
  hook.active = false;
  hook.updated_at = new Date().toISOString();
  return view(hook, false);
}

/** Fans an event of a tenant out to every active receiver subscribed to it. */
export function deliverEvent(state: State, tenant: string, event: string, data: Record<string, unknown>): void {
  for (const hook of state.webhooks) {
    if (hook.tenant !== tenant || !hook.active || !hook.events.includes(event)) continue;
    const id = ++state.seq.delivery;
    const at = new Date().toISOString();
    const body = JSON.stringify({ id, event, webhook_id: hook.id, created_at: at, data });
    const d: Delivery = {
      id,
      webhook_id: hook.id,
      tenant,
      event,
      body,
      status: 'pending',
      attempts: 0,
      response_status: null,
      last_error: null,
      created_at: at,
      updated_at: at,
    };
    state.deliveries.push(d);
    later(state, 0, () => void attempt(state, d, 0));
  }
}

async function attempt(state: State, d: Delivery, retry: number): Promise<void> {
  const hook = state.webhooks.find((w) => w.id === d.webhook_id);
  if (!hook) return;
  const t = Math.floor(Date.now() / 1000);
  const v1 = createHmac('sha256', hook.secret).update(`${t}.${d.body}`).digest('hex');
  d.attempts += 1;
  try {
    // A sandbox delivers to receivers on this machine only (invented test data never leaves it).
    if (!LOOPBACK.has(new URL(hook.url).hostname)) throw new Error('not a loopback receiver');
    const res = await fetch(hook.url, {
      method: 'POST',
      redirect: 'manual',
      signal: AbortSignal.timeout(5000),
      headers: {
        'Content-Type': 'application/json',
        'User-Agent': 'alder-webhooks/1.0',
        [SIGNATURE_HEADER]: `t=${t},v1=${v1}`,
        'Webhook-Delivery': String(d.id),
        'Webhook-Event': d.event,
      },
      body: d.body,
    });
    await res.arrayBuffer().catch(() => undefined);
    d.response_status = res.status;
    d.status = res.ok ? 'delivered' : 'failed';
    d.last_error = res.ok ? null : `receiver answered HTTP ${res.status}`;
  } catch {
    d.response_status = null;
    d.status = 'failed';
    d.last_error = 'receiver could not be reached';
  }
  d.updated_at = new Date().toISOString();
  const wait = BACKOFF_MS[retry];
  if (d.status === 'failed' && wait !== undefined) later(state, wait, () => void attempt(state, d, retry + 1));
}

/** GET /webhook_deliveries?webhook_id=: the receiver's deliveries, newest first, paged on request. */
export function listDeliveries(state: State, call: Call): void {
  const hook = findWebhook(state, call, call.url.searchParams.get('webhook_id'));
  const list = state.deliveries.filter((d) => d.webhook_id === hook.id).reverse();
  const page = paginate(list, call.url, call.origin, call.headers);
  ok(call, {
    webhook_id: hook.id,
    count: page.items.length,
    total: page.total,
    deliveries: page.items.map(deliveryView),
  });
}

/** POST /webhook_deliveries/{id}/retry: sends the logged delivery again (same body, fresh signature). */
export function retryDelivery(state: State, call: Call, id: string): Record<string, unknown> {
  const d = /^\d{1,15}$/.test(id)
    ? state.deliveries.find((x) => x.id === Number(id) && x.tenant === call.tenant)
    : undefined;
  if (!d) throw new ApiError('not_found', 'Delivery not found', undefined, 'compare identifier and tenant header');
  d.status = 'pending';
  d.updated_at = new Date().toISOString();
  later(state, 0, () => void attempt(state, d, BACKOFF_MS.length));
  return deliveryView(d);
}
