// Webhook receivers, signed deliveries (X-Wisteria-Signature: t=<unix>,v1=<hmac-sha256 hex of "t.body">),
// retries (1 s, then 4 s; three attempts), the delivery log (a Spring page) and selective redelivery.
import { createHmac, randomBytes } from 'node:crypto';
import { recordAudit } from './audit.ts';
import type { Principal } from './auth.ts';
import { ApiError, type Call, newId, nowIso, sendOk } from './http-kit.ts';
import { readKey, withIdempotency } from './idempotency.ts';
import { type Delivery, later, type State, type Webhook } from './state.ts';

export const WEBHOOK_EVENTS = ['connection.created', 'connection.state-changed'];
export const SIGNATURE_HEADER = 'X-Wisteria-Signature';
const RETRY_DELAYS = [1000, 4000];

export function sign(key: string, t: number, body: string): string {
  return `t=${t},v1=${createHmac('sha256', key).update(`${t}.${body}`).digest('hex')}`;
}

function links(origin: string, w: Webhook) {
  const self = `${origin}/api/public/v1/webhooks/${w.id}`;
  return { self: { href: self }, deliveries: { href: `${self}/deliveries` } };
}

function view(w: Webhook, origin: string): Record<string, unknown> {
  return {
    id: w.id,
    url: w.url,
    events: [...w.events],
    status: w.status,
    createdAt: w.createdAt,
    _links: links(origin, w),
  };
}

function validate(body: Record<string, unknown>): { url: string; events: string[] } {
  const { url, events } = body;
  if (typeof url !== 'string' || url.length > 2048)
    throw new ApiError('invalid_request', 'Field url must be an http(s) address.');
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new ApiError('invalid_request', 'Field url must be an absolute http(s) address.');
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') {
    throw new ApiError('invalid_request', 'Field url must be an absolute http(s) address.');
  }
  if (!Array.isArray(events) || events.length < 1 || events.length > WEBHOOK_EVENTS.length) {
    throw new ApiError('invalid_request', `Field events must list 1 to ${WEBHOOK_EVENTS.length} event names.`);
  }
  for (const e of events) {
    if (typeof e !== 'string' || !WEBHOOK_EVENTS.includes(e)) {
      throw new ApiError(
        'invalid_request',
        'Field events names an unknown event.',
        `events: one of ${WEBHOOK_EVENTS.join(', ')}.`,
      );
    }
  }
  return { url, events: [...new Set(events as string[])] };
}

/** POST /webhooks: the signing key is in this answer (and its replay) only, as data.signingKey. */
export function registerWebhook(state: State, call: Call, who: Principal, body: Record<string, unknown>): void {
  const key = readKey(call, true);
  withIdempotency(state, call, who, key, body, () => {
    const input = validate(body);
    const w: Webhook = {
      id: newId('whk'),
      tenant: who.tenant,
      url: input.url,
      events: input.events,
      signingKey: `whsec_${randomBytes(32).toString('base64url')}`,
      status: 'ENABLED',
      createdAt: nowIso(),
    };
    state.webhooks.set(w.id, w);
    state.deliveries.set(w.id, []);
    recordAudit(
      state,
      who.tenant,
      who.clientId,
      'webhook.created',
      { type: 'webhook', id: w.id },
      { events: w.events },
    );
    return { ...view(w, call.origin), signingKey: w.signingKey };
  });
}

function owned(state: State, who: Principal, id: string): Webhook {
  const w = state.webhooks.get(id);
  if (w === undefined || w.tenant !== who.tenant || w.status === 'DELETED') {
    throw new ApiError('not_found', 'No webhook receiver with this id for the tenant.');
  }
  return w;
}

export function listWebhooks(state: State, call: Call, who: Principal): void {
  const hooks = [...state.webhooks.values()].filter((w) => w.tenant === who.tenant && w.status !== 'DELETED');
  sendOk(call, { count: hooks.length, webhooks: hooks.map((w) => view(w, call.origin)) });
}

export function getWebhook(state: State, call: Call, who: Principal, id: string): void {
  sendOk(call, view(owned(state, who, id), call.origin));
}

export function deleteWebhook(state: State, call: Call, who: Principal, id: string): void {
  const key = readKey(call, true);
  withIdempotency(state, call, who, key, {}, () => {
    const w = owned(state, who, id);
    w.status = 'DELETED';
    recordAudit(state, who.tenant, who.clientId, 'webhook.deleted', { type: 'webhook', id: w.id }, {});
    return { id: w.id, status: w.status };
  });
}

function deliveryView(d: Delivery): Record<string, unknown> {
  const { payload: _payload, ...rest } = d;
  return { ...rest };
}

export function listDeliveries(state: State, call: Call, who: Principal, id: string): void {
  owned(state, who, id);
  const num = (name: string, dflt: number, min: number, max: number) => {
    const raw = call.query.get(name);
    if (raw === null) return dflt;
    if (!/^\d{1,6}$/.test(raw) || Number(raw) < min || Number(raw) > max)
      throw new ApiError('invalid_request', `Query parameter ${name} is malformed.`);
    return Number(raw);
  };
  const page = num('page', 0, 0, 100_000);
  const size = Math.min(num('size', 50, 1, 500), state.options.maxPageSize);
  const all = [...(state.deliveries.get(id) ?? [])].reverse();
  const content = all.slice(page * size, page * size + size).map(deliveryView);
  const totalPages = Math.ceil(all.length / size);
  sendOk(call, { content, page: { number: page, size, totalElements: all.length, totalPages } });
}

export function redeliver(
  state: State,
  call: Call,
  who: Principal,
  id: string,
  deliveryId: string,
  body: unknown,
): void {
  const key = readKey(call, true);
  withIdempotency(state, call, who, key, body, () => {
    const w = owned(state, who, id);
    const original = state.deliveries.get(id)?.find((d) => d.id === deliveryId);
    if (original === undefined) throw new ApiError('not_found', 'No delivery with this id for the receiver.');
    const d = newDelivery(state, w, original.eventId, original.event, original.payload, original.id);
    recordAudit(
      state,
      who.tenant,
      who.clientId,
      'webhook.redelivery-requested',
      { type: 'delivery', id: d.id },
      { webhookId: w.id, redeliveryOf: original.id },
    );
    void attempt(state, w, d);
    return deliveryView(d);
  });
}

function newDelivery(
  state: State,
  w: Webhook,
  eventId: string,
  event: string,
  payload: string,
  of: string | null,
): Delivery {
  const d: Delivery = {
    id: newId('dlv'),
    webhookId: w.id,
    eventId,
    event,
    payload,
    status: 'PENDING',
    attempts: 0,
    responseStatus: null,
    error: null,
    redeliveryOf: of,
    createdAt: nowIso(),
    lastAttemptAt: null,
  };
  state.deliveries.get(w.id)?.push(d);
  return d;
}

/** Queues one delivery per receiver of the tenant subscribed to `event`. */
export function dispatch(state: State, tenant: string, event: string, data: Record<string, unknown>): void {
  for (const w of state.webhooks.values()) {
    if (w.tenant !== tenant || w.status !== 'ENABLED' || !w.events.includes(event)) continue;
    const eventId = newId('evt');
    const payload = JSON.stringify({ id: eventId, type: event, createdAt: nowIso(), tenant, data });
    const d = newDelivery(state, w, eventId, event, payload, null);
    void attempt(state, w, d);
  }
}

async function attempt(state: State, w: Webhook, d: Delivery): Promise<void> {
  d.attempts += 1;
  d.lastAttemptAt = nowIso();
  const t = Math.floor(Date.now() / 1000);
  try {
    const res = await fetch(w.url, {
      method: 'POST',
      headers: {
        'Content-Type': 'application/json',
        [SIGNATURE_HEADER]: sign(w.signingKey, t, d.payload),
        'X-Wisteria-Delivery': d.id,
        'X-Wisteria-Event': d.event,
        'User-Agent': 'wisteria-webhooks/1.0',
      },
      body: d.payload,
      signal: AbortSignal.timeout(5000),
    });
    await res.arrayBuffer().catch(() => undefined);
    d.responseStatus = res.status;
    d.error = res.ok ? null : `receiver answered ${res.status}`;
    if (res.ok) {
      d.status = 'SUCCEEDED';
      return;
    }
  } catch {
    d.responseStatus = null;
    d.error = 'receiver not reachable';
  }
  const delay = RETRY_DELAYS[d.attempts - 1];
  if (delay === undefined || w.status !== 'ENABLED') {
    d.status = 'FAILED';
    return;
  }
  d.status = 'RETRYING';
  later(state, delay, () => void attempt(state, w, d));
}
