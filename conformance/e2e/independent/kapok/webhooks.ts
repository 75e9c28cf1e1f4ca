// Webhook receivers, signed deliveries (header Kapok-Signature: t=<unix>,v1=<hmac-sha256 hex over "t.body">),
// three attempts (now, +1 s, +5 s), the delivery log (cursor paged, newest first) and re-triggering.
import { createHmac, randomBytes } from 'node:crypto';
import { pageLimit, record } from './audit.ts';
import { ApiError, bad, nowIso, onlyFields, uuidv7 } from './http-util.ts';
import type { Ctx } from './router.ts';
import { type Delivery, later, type State, type Webhook } from './state.ts';

export const EVENTS = ['connection.created', 'connection.live', 'order.created', 'order.paid'];
const BACKOFF_MS = [1000, 5000];

export function registerWebhook(ctx: Ctx) {
  const body = ctx.body();
  onlyFields(body, ['url', 'events'], ctx.s.opts.strictBodies);
  const url = body.url;
  if (typeof url !== 'string' || url.length > 2048) throw bad('url must be an http(s) address');
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw bad('url must be an http(s) address');
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') throw bad('url must be an http(s) address');
  const events = body.events;
  if (!Array.isArray(events) || events.length < 1 || events.length > EVENTS.length)
    throw bad(`events must list 1 to ${EVENTS.length} names`, `events: one of ${EVENTS.join(', ')}`);
  for (const e of events)
    if (typeof e !== 'string' || !EVENTS.includes(e))
      throw bad('unknown event name', `events: one of ${EVENTS.join(', ')}`);
  const hook: Webhook = {
    id: uuidv7(),
    tenant: ctx.caller.tenant,
    url,
    events: [...new Set(events as string[])],
    signingKey: `whsec_${randomBytes(32).toString('base64url')}`,
    createdAt: nowIso(),
  };
  ctx.s.webhooks.set(hook.id, hook);
  record(ctx.s, hook.tenant, 'webhook.create', hook.id);
  const { tenant: _t, signingKey, ...shown } = hook;
  return { ...shown, signingKey, signatureHeader: 'Kapok-Signature' };
}

export function sign(key: string, t: number, body: string): string {
  return `t=${t},v1=${createHmac('sha256', key).update(`${t}.${body}`).digest('hex')}`;
}

async function attempt(s: State, d: Delivery): Promise<void> {
  const hook = s.webhooks.get(d.webhookId);
  if (!hook) return;
  d.attempts++;
  d.lastAttemptAt = nowIso();
  const t = Math.floor(Date.now() / 1000);
  try {
    const r = await fetch(hook.url, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        'kapok-signature': sign(hook.signingKey, t, d.body),
        'kapok-event': d.event,
        'kapok-delivery': d.id,
        'user-agent': 'kapok-webhooks/1',
      },
      body: d.body,
      signal: AbortSignal.timeout(5000),
    });
    await r.arrayBuffer().catch(() => undefined);
    d.responseStatus = r.status;
    d.status = r.ok ? 'delivered' : 'failed';
  } catch {
    d.responseStatus = null;
    d.status = 'failed';
  }
  const wait = BACKOFF_MS[d.attempts - 1];
  if (d.status === 'failed' && wait !== undefined) {
    d.status = 'pending';
    later(s, wait, () => void attempt(s, d));
  }
}

function enqueue(
  s: State,
  hook: Webhook,
  event: string,
  eventId: string,
  body: string,
  retryOf: string | null,
): Delivery {
  const d: Delivery = {
    id: uuidv7(),
    webhookId: hook.id,
    eventId,
    event,
    body,
    attempts: 0,
    status: 'pending',
    responseStatus: null,
    createdAt: nowIso(),
    lastAttemptAt: null,
    retryOf,
  };
  s.deliveries.set(d.id, d);
  void attempt(s, d);
  return d;
}

/** One event to every receiver of the tenant subscribed to it. */
export function emit(s: State, tenant: string, event: string, data: Record<string, unknown>): void {
  for (const hook of s.webhooks.values()) {
    if (hook.tenant !== tenant || !hook.events.includes(event)) continue;
    const eventId = uuidv7();
    const body = JSON.stringify({ id: eventId, type: event, at: nowIso(), webhookId: hook.id, data });
    enqueue(s, hook, event, eventId, body, null);
  }
}

const view = ({ body: _b, ...d }: Delivery) => d;

function ownHook(ctx: Ctx, id: string): Webhook {
  const hook = ctx.s.webhooks.get(id);
  if (!hook || hook.tenant !== ctx.caller.tenant) throw new ApiError('not_found', 'webhook not found');
  return hook;
}

export function listDeliveries(ctx: Ctx) {
  const hook = ownHook(ctx, ctx.params.id ?? '');
  const limit = pageLimit(ctx, ctx.s.opts.deliveryPageSize, 100);
  const all = [...ctx.s.deliveries.values()].filter((d) => d.webhookId === hook.id).reverse();
  const cursor = ctx.url.searchParams.get('cursor');
  let start = 0;
  if (cursor !== null) {
    const id = Buffer.from(cursor, 'base64url').toString('utf8');
    const i = all.findIndex((d) => d.id === id);
    if (i < 0) throw bad('cursor is not a cursor this log issued');
    start = i + 1;
  }
  const page = all.slice(start, start + limit);
  const last = page[page.length - 1];
  const more = start + limit < all.length && last;
  return {
    webhookId: hook.id,
    count: page.length,
    deliveries: page.map(view),
    next_cursor: more ? Buffer.from(last.id).toString('base64url') : null,
  };
}

export function retryDelivery(ctx: Ctx) {
  const d = ctx.s.deliveries.get(ctx.params.id ?? '');
  const hook = d && ctx.s.webhooks.get(d.webhookId);
  if (!d || !hook || hook.tenant !== ctx.caller.tenant) throw new ApiError('not_found', 'delivery not found');
  const again = enqueue(ctx.s, hook, d.event, d.eventId, d.body, d.id);
  record(ctx.s, hook.tenant, 'delivery.retry', again.id);
  return view(again);
}
