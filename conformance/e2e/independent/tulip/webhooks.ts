// Webhook receivers and the fs2 dispatcher: each event a receiver subscribed to becomes a delivery, POSTed with
// `X-Tulip-Signature: t=<unix>,v1=<hmac-sha256 hex of "t.body">`, retried on failure with exponential backoff
// and full jitter (cats-retry's `fullJitter`), logged with every attempt, and sent again on request.
import { createHmac, randomBytes, randomUUID } from 'node:crypto';
import { record } from './audit.ts';
import { type Ctx, invalid, notFound, ok, print, type Rec } from './http.ts';
import type { Store } from './state.ts';

export const SIGNATURE_HEADER = 'X-Tulip-Signature';
export const DELIVERY_HEADER = 'X-Tulip-Delivery';
export const EVENTS = ['connection.created', 'connection.activated', 'order.created', 'order.paid'];
const MAX_ATTEMPTS = 5;
const BASE_DELAY_MS = 200;

export function register(store: Store, ctx: Ctx): Rec {
  const body = (ctx.body ?? {}) as Rec;
  let url: URL;
  try {
    url = new URL(String(body.url));
  } catch {
    throw invalid('url: an absolute http(s) address');
  }
  if (!/^https?:$/.test(url.protocol)) throw invalid('url: an absolute http(s) address');
  const events = body.events;
  if (!Array.isArray(events) || events.length === 0 || events.some((e) => !EVENTS.includes(e))) {
    throw invalid(`events: non-empty array, each one of ${EVENTS.join(', ')}`);
  }
  const hook: Rec = {
    id: randomUUID(),
    url: url.toString(),
    events: [...new Set(events as string[])],
    status: 'enabled',
    createdAt: store.now(),
  };
  const signingKey = `whsec_${randomBytes(24).toString('base64url')}`;
  store.webhooks.set(hook.id, { ...hook, tenant: ctx.tenant, signingKey });
  record(store, ctx, 'webhook.created', 'webhook', hook.id);
  // The key is in this answer only (and its idempotent replay); no read shows it again.
  if (store.options.nestedWebhookAnswer) return { webhook: hook, secret: { value: signingKey, shownOnce: true } };
  return { ...hook, signingKey };
}

export function ownHook(store: Store, ctx: Ctx): Rec {
  const hook = store.webhooks.get(ctx.params.webhookId ?? '');
  if (!hook || hook.tenant !== ctx.tenant) throw notFound('Webhook');
  return hook;
}

export function remove(store: Store, ctx: Ctx): Rec {
  const hook = ownHook(store, ctx);
  store.webhooks.delete(hook.id);
  record(store, ctx, 'webhook.deleted', 'webhook', hook.id);
  return { id: hook.id, deleted: true };
}

function view(d: Rec): Rec {
  const { body: _b, tenant: _t, ...rest } = d;
  return rest;
}

export function listDeliveries(store: Store, ctx: Ctx): void {
  const hook = ownHook(store, ctx);
  const list = [...store.deliveries.values()].filter((d) => d.webhookId === hook.id).reverse();
  ok(ctx, { webhookId: hook.id, count: list.length, deliveries: list.map(view) });
}

export function redeliver(store: Store, ctx: Ctx): Rec {
  const hook = ownHook(store, ctx);
  const d = store.deliveries.get(ctx.params.deliveryId ?? '');
  if (!d || d.webhookId !== hook.id) throw notFound('Delivery');
  record(store, ctx, 'webhook.delivery.retried', 'delivery', d.id);
  void attempt(store, d, 0, 'manual');
  return { ...view(d), status: 'retrying' };
}

/** Fan an event out to every receiver of the tenant subscribed to it. */
export function dispatch(store: Store, tenant: string, event: string, data: Rec): void {
  for (const hook of store.webhooks.values()) {
    if (hook.tenant !== tenant || !hook.events.includes(event)) continue;
    const eventId = randomUUID();
    const body = store.options.cloudEvents
      ? print({
          specversion: '1.0',
          id: eventId,
          source: `urn:tulip:${tenant}`,
          type: event,
          time: store.now(),
          datacontenttype: 'application/json',
          data,
        })
      : print({ id: eventId, type: event, createdAt: store.now(), tenant, data });
    const d: Rec = {
      id: randomUUID(),
      webhookId: hook.id,
      eventId,
      event,
      tenant,
      body,
      status: 'pending',
      attempts: [],
    };
    d.createdAt = store.now();
    store.deliveries.set(d.id, d);
    void attempt(store, d, 0, 'automatic');
  }
}

async function attempt(store: Store, d: Rec, n: number, trigger: string): Promise<void> {
  const hook = store.webhooks.get(d.webhookId);
  if (!hook) return;
  const t = Math.floor(Date.now() / 1000);
  const v1 = createHmac('sha256', hook.signingKey).update(`${t}.${d.body}`).digest('hex');
  const at = store.now();
  let status = 0;
  try {
    const r = await fetch(hook.url, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        [SIGNATURE_HEADER]: `t=${t},v1=${v1}`,
        [DELIVERY_HEADER]: d.id,
        'X-Tulip-Event': d.event,
      },
      body: d.body,
      signal: AbortSignal.timeout(5000),
    });
    status = r.status;
    await r.arrayBuffer();
  } catch {
    status = 0;
  }
  const success = status >= 200 && status < 300;
  d.attempts.push({ number: d.attempts.length + 1, at, trigger, responseStatus: status || undefined, success });
  d.status = success ? 'delivered' : n + 1 < MAX_ATTEMPTS ? 'retrying' : 'failed';
  if (!success && n + 1 < MAX_ATTEMPTS) {
    store.later(Math.random() * BASE_DELAY_MS * 2 ** n, () => void attempt(store, d, n + 1, 'retry'));
  }
}
