// Webhook receivers, signed deliveries with retries, the delivery log and its re-trigger.
import { createHmac, randomBytes } from 'node:crypto';
import { request as httpRequest } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { record } from './audit.ts';
import { type Ctx, invalid, jsonObject, newId, notFound, nowIso, type Reply } from './http.ts';
import { DELIVERY_RETRY_DELAYS, WEBHOOK_DELIVERY_HEADER, WEBHOOK_EVENTS, WEBHOOK_SIGNATURE_HEADER } from './options.ts';
import type { Delivery, State, Webhook } from './state.ts';

const publicWebhook = (w: Webhook) => ({
  id: w.id,
  url: w.url,
  events: w.events,
  active: w.active,
  createdAt: w.createdAt,
  signatureHeader: WEBHOOK_SIGNATURE_HEADER,
});
const publicDelivery = (d: Delivery) => {
  const { body: _b, tenant: _t, ...rest } = d;
  return rest;
};

/** `t=<unix-seconds>,v1=<hex hmac-sha256 of "<t>.<raw body>">`. */
export function signature(secret: string, body: string, t = Math.floor(Date.now() / 1000)) {
  return `t=${t},v1=${createHmac('sha256', secret).update(`${t}.${body}`).digest('hex')}`;
}

/** One POST on its own connection (no keep-alive), 5 s timeout; resolves to the status. */
function post(url: string, body: string, headers: Record<string, string>): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = (url.startsWith('https:') ? httpsRequest : httpRequest)(
      url,
      {
        method: 'POST',
        agent: false,
        headers: { ...headers, 'content-length': String(Buffer.byteLength(body)) },
        timeout: 5000,
      },
      (res) => {
        res.resume();
        res.on('end', () => resolve(res.statusCode ?? 0));
        res.on('error', reject);
      },
    );
    req.on('timeout', () => req.destroy(new Error('receiver timed out')));
    req.on('error', reject);
    req.end(body);
  });
}

async function attempt(state: State, d: Delivery) {
  const w = state.webhooks.get(d.webhookId);
  if (!w || state.closed) return;
  d.attempts++;
  d.lastAttemptAt = nowIso();
  try {
    const status = await post(w.url, d.body, {
      'content-type': 'application/json',
      'user-agent': 'mahogany-webhooks/2026-07-01',
      [WEBHOOK_SIGNATURE_HEADER]: signature(w.secret, d.body),
      [WEBHOOK_DELIVERY_HEADER]: d.id,
      'sap-webhook-event': d.event,
    });
    const ok = status >= 200 && status < 300;
    d.lastStatusCode = status;
    d.lastError = ok ? null : `receiver answered ${status}`;
    if (ok) {
      d.status = 'delivered';
      return;
    }
  } catch (e) {
    d.lastStatusCode = null;
    d.lastError = e instanceof Error ? e.message : 'delivery failed';
  }
  const delay = DELIVERY_RETRY_DELAYS[d.attempts - 1];
  if (delay === undefined) d.status = 'failed';
  else state.later(delay, () => void attempt(state, d));
}

function enqueue(state: State, w: Webhook, eventId: string, event: string, body: string, from: string | null) {
  const d: Delivery = {
    id: newId(),
    webhookId: w.id,
    tenant: w.tenant,
    eventId,
    event,
    status: 'pending',
    attempts: 0,
    lastStatusCode: null,
    lastError: null,
    createdAt: nowIso(),
    lastAttemptAt: null,
    retriggeredFrom: from,
    body,
  };
  state.deliveries.set(d.id, d);
  state.later(0, () => void attempt(state, d));
  return d;
}

/** Wires the fan-out of tenant events to their subscribed receivers (CloudEvents-style JSON body). */
export function installWebhooks(state: State) {
  state.onEvent = (tenant, event, data) => {
    const eventId = newId();
    const body = JSON.stringify({
      specversion: '1.0',
      id: eventId,
      type: event,
      source: '/api/public/v1',
      time: nowIso(),
      tenant,
      datacontenttype: 'application/json',
      data,
    });
    for (const w of state.webhooks.values()) {
      if (w.tenant === tenant && w.active && w.events.includes(event)) enqueue(state, w, eventId, event, body, null);
    }
  };
}

/** POST /webhooks: the signing key is in this answer only (and in a replay of the same call). */
export function createWebhook(ctx: Ctx): Reply {
  const body = jsonObject(ctx);
  const url = body.url;
  let parsed: URL | undefined;
  try {
    parsed = typeof url === 'string' && url.length <= 2048 ? new URL(url) : undefined;
  } catch {
    parsed = undefined;
  }
  if (!parsed || (parsed.protocol !== 'http:' && parsed.protocol !== 'https:')) {
    throw invalid('Field url is invalid', 'url: absolute http(s) address of the receiver');
  }
  const events = body.events;
  if (!Array.isArray(events) || events.length < 1 || events.length > 20) {
    throw invalid('Field events is invalid', `events: array of 1 to 20 names, one of ${WEBHOOK_EVENTS.join(', ')}`);
  }
  for (const e of events) {
    if (typeof e !== 'string' || !WEBHOOK_EVENTS.includes(e)) {
      throw invalid('Field events holds an unknown event name', `events: one of ${WEBHOOK_EVENTS.join(', ')}`);
    }
  }
  const w: Webhook = {
    id: newId(),
    tenant: ctx.tenant as string,
    url: parsed.toString(),
    events: [...new Set(events as string[])],
    active: true,
    createdAt: nowIso(),
    secret: `whsec_${randomBytes(32).toString('base64url')}`,
  };
  ctx.state.webhooks.set(w.id, w);
  record(ctx, 'webhook.create', 'Webhook', w.id);
  return {
    data: {
      ...publicWebhook(w),
      signingSecret: w.secret,
      signatureScheme: 't=<unix-seconds>,v1=<hex hmac-sha256 of "<t>.<raw body>">',
      secretNotice: 'The signing secret is shown only in this response; store it now.',
    },
  };
}

function own(ctx: Ctx): Webhook {
  const w = ctx.state.webhooks.get(ctx.params.webhookId ?? '');
  if (!w || w.tenant !== ctx.tenant) throw notFound('Webhook');
  return w;
}

function paging(ctx: Ctx) {
  const n = (name: string, fallback: number, max: number) => {
    const v = ctx.url.searchParams.get(name);
    if (v === null) return fallback;
    if (!/^\d{1,9}$/.test(v)) throw invalid(`Query parameter ${name} is invalid`, `${name}: integer, minimum 0`);
    return Math.min(Number(v), max);
  };
  return { top: Math.max(1, n('$top', 100, 500)), skip: n('$skip', 0, 1_000_000) };
}

export function listWebhooks(ctx: Ctx): Reply {
  const { top, skip } = paging(ctx);
  const all = [...ctx.state.webhooks.values()].filter((w) => w.tenant === ctx.tenant);
  const webhooks = all.slice(skip, skip + top).map(publicWebhook);
  return { data: { count: webhooks.length, total: all.length, skip, top, webhooks } };
}

export const getWebhook = (ctx: Ctx): Reply => ({ data: publicWebhook(own(ctx)) });

export function deleteWebhook(ctx: Ctx): Reply {
  const w = own(ctx);
  ctx.state.webhooks.delete(w.id);
  record(ctx, 'webhook.delete', 'Webhook', w.id);
  return { data: { id: w.id, deleted: true } };
}

/** GET /webhooks/{webhookId}/deliveries: newest first. */
export function listDeliveries(ctx: Ctx): Reply {
  const w = own(ctx);
  const { top, skip } = paging(ctx);
  const all = [...ctx.state.deliveries.values()].filter((d) => d.webhookId === w.id).reverse();
  const deliveries = all.slice(skip, skip + top).map(publicDelivery);
  return { data: { webhookId: w.id, count: deliveries.length, total: all.length, skip, top, deliveries } };
}

/** POST /webhooks/{webhookId}/deliveries/{deliveryId}/retry: sends the same event again as a new delivery. */
export function retryDelivery(ctx: Ctx): Reply {
  const w = own(ctx);
  const d = ctx.state.deliveries.get(ctx.params.deliveryId ?? '');
  if (!d || d.webhookId !== w.id) throw notFound('Delivery');
  const again = enqueue(ctx.state, w, d.eventId, d.event, d.body, d.id);
  record(ctx, 'webhook.delivery.retry', 'Delivery', again.id);
  return { data: publicDelivery(again) };
}
