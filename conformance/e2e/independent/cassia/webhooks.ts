// Webhook receivers and their signed deliveries: the go-loop of the original posts each event, retrying with
// its own backoff (1 s, 4 s, 16 s), and records every delivery in the receiver's delivery log.
import { createHmac, randomBytes } from 'node:crypto';
import { appendAudit } from './audit.ts';
import { type Ctx, fail, jsonBody } from './http.ts';
import { EVENT_NAMES, instant, nextId, type Rec, type Store } from './state.ts';

export const SIGNATURE_HEADER = 'x-cassia-signature';
export const DELIVERY_HEADER = 'x-cassia-delivery';
const BACKOFF_MS = [1000, 4000, 16000];

const publicView = ({ tenant: _t, secret: _s, ...w }: Rec) => w;

export function createWebhook(ctx: Ctx): Rec {
  const body = jsonBody(ctx);
  let url: URL | undefined;
  try {
    url = new URL(String(body.url));
  } catch {
    fail('invalid_request', 'Bad url', 'url must be an absolute http(s) address');
  }
  if (!url || !/^https?:$/.test(url.protocol)) return fail('invalid_request', 'Bad url', 'http or https only');
  const events = body.events;
  if (!Array.isArray(events) || events.length === 0 || events.some((e) => !EVENT_NAMES.includes(e)))
    fail('invalid_request', 'Unknown event names', `events: one of ${EVENT_NAMES.join(', ')}`);
  const hook: Rec = { id: nextId(ctx.store, 'wh'), url: url.href, events, active: true, createdAt: instant() };
  const secret = `whsec_${randomBytes(24).toString('hex')}`;
  ctx.store.webhooks.push({ ...hook, tenant: ctx.tenant, secret });
  appendAudit(ctx.store, ctx.tenant as string, ctx.clientId ?? '', 'webhook.created', hook.id);
  // The signing key appears in this answer only (and in its idempotent replay), never on a read.
  return { ...hook, signingKey: secret };
}

export function findWebhook(ctx: Ctx, id: string): Rec {
  const hook = ctx.store.webhooks.find((w) => w.id === id && w.tenant === ctx.tenant && w.active);
  if (!hook) return fail('not_found', 'Webhook not found', `No webhook ${id} for this tenant`);
  return hook;
}

export const listWebhooks = (ctx: Ctx): Rec => {
  const hooks = ctx.store.webhooks.filter((w) => w.tenant === ctx.tenant && w.active).map(publicView);
  return { count: hooks.length, webhooks: hooks };
};

export function deleteWebhook(ctx: Ctx, id: string): Rec {
  const hook = findWebhook(ctx, id);
  hook.active = false;
  appendAudit(ctx.store, ctx.tenant as string, ctx.clientId ?? '', 'webhook.deleted', hook.id);
  return { id: hook.id, deleted: true };
}

const deliveryView = ({ tenant: _t, body: _b, ...d }: Rec) => d;

export function deliveryLog(ctx: Ctx, id: string): Rec {
  const hook = findWebhook(ctx, id);
  const deliveries = ctx.store.deliveries.filter((d) => d.webhookId === hook.id).map(deliveryView);
  return { webhookId: hook.id, count: deliveries.length, deliveries };
}

export function redeliver(ctx: Ctx, id: string, deliveryId: string): Rec {
  const hook = findWebhook(ctx, id);
  const old = ctx.store.deliveries.find((d) => d.id === deliveryId && d.webhookId === hook.id);
  if (!old) return fail('not_found', 'Delivery not found', `No delivery ${deliveryId} for ${hook.id}`);
  appendAudit(ctx.store, ctx.tenant as string, ctx.clientId ?? '', 'webhook.redelivered', old.id);
  return deliveryView(enqueue(ctx.store, hook, old.eventId, old.event, old.body, old.id));
}

/** Fans an event out to the tenant's receivers subscribed to its type. */
export function deliverEvent(store: Store, tenant: string, e: Rec) {
  const body = JSON.stringify({ id: `evt_${e.seq}`, type: e.type, createdAt: e.at, tenant, data: e.data });
  for (const hook of store.webhooks)
    if (hook.active && hook.tenant === tenant && hook.events.includes(e.type))
      enqueue(store, hook, `evt_${e.seq}`, e.type, body);
}

function enqueue(store: Store, hook: Rec, eventId: string, event: string, body: string, redeliveryOf?: string) {
  const d: Rec = { id: nextId(store, 'dlv'), webhookId: hook.id, eventId, event, status: 'pending', attempts: 0 };
  if (redeliveryOf) d.redeliveryOf = redeliveryOf;
  Object.assign(d, { responseStatus: null, createdAt: instant(), lastAttemptAt: null, tenant: hook.tenant, body });
  store.deliveries.push(d);
  void attempt(store, hook, d);
  return d;
}

async function attempt(store: Store, hook: Rec, d: Rec) {
  const t = Math.floor(Date.now() / 1000);
  const v1 = createHmac('sha256', hook.secret).update(`${t}.${d.body}`).digest('hex');
  d.attempts += 1;
  d.lastAttemptAt = instant();
  try {
    const res = await fetch(hook.url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', [SIGNATURE_HEADER]: `t=${t},v1=${v1}`, [DELIVERY_HEADER]: d.id },
      body: d.body,
      signal: AbortSignal.timeout(5000),
    });
    d.responseStatus = res.status;
    await res.arrayBuffer().catch(() => undefined);
    if (res.ok) {
      d.status = 'delivered';
      return;
    }
  } catch {
    d.responseStatus = null;
  }
  const wait = BACKOFF_MS[d.attempts - 1];
  if (wait === undefined) {
    d.status = 'failed';
    return;
  }
  d.status = 'retrying';
  const timer = setTimeout(() => {
    store.timers.delete(timer);
    void attempt(store, hook, d);
  }, wait);
  store.timers.add(timer);
}
