// Webhook receivers and the delivery "actor": every delivery is POSTed to the receiver, signed
// `t=<unix>,v1=<hex HMAC-SHA256 of "${t}.${body}">` in X-Buttonwood-Signature, and retried by a backoff
// supervisor (1 s, 2 s, 4 s) until a 2xx. Each attempt lands in the delivery log, GET
// /webhooks/{id}/delivery-attempts; POST .../delivery-attempts/{deliveryId}/retry sends the same event again.
import { createHmac } from 'node:crypto';
import { record } from './audit.ts';
import { bad, type Ctx, jsonBody, notFound, ok } from './http.ts';
import { idempotent } from './idempotency.ts';
import { type Delivery, instant, newId, type Rec, type Store, secret, WEBHOOK_EVENTS } from './state.ts';

export const SIGNATURE_HEADER = 'x-buttonwood-signature';
export const DELIVERY_HEADER = 'x-buttonwood-delivery';
const BACKOFF_MS = [1000, 2000, 4000];

const view = (w: Rec) => ({ id: w.id, url: w.url, events: w.events, createdAt: w.createdAt });

export function registerWebhook(store: Store, ctx: Ctx): void {
  idempotent(
    store,
    ctx,
    (body) => {
      const url = body.url;
      if (typeof url !== 'string' || !/^https?:\/\/\S+$/.test(url) || url.length > 2048)
        throw bad('url must be an http(s) URL');
      const events = body.events;
      if (
        !Array.isArray(events) ||
        events.length < 1 ||
        events.some((e) => typeof e !== 'string' || !WEBHOOK_EVENTS.includes(e))
      ) {
        throw bad(
          'events must be a non-empty list of known event names',
          `events: one of ${WEBHOOK_EVENTS.join(', ')}`,
        );
      }
      const w = {
        id: newId(),
        tenant: ctx.tenant as string,
        url,
        events: [...new Set(events as string[])],
        signingKey: `whsec_${secret(24)}`,
        createdAt: instant(),
      };
      store.webhooks.set(w.id, w);
      record(store, w.tenant, 'webhook.created', w.id, ctx.requestId);
      return { ...view(w), signingKey: w.signingKey };
    },
    // The signing key is shown exactly once: a replay answers the registration without it.
    ({ signingKey: _k, ...rest }) => rest,
  );
}

function own(store: Store, ctx: Ctx, id: string) {
  const w = store.webhooks.get(id);
  if (!w || w.tenant !== ctx.tenant) throw notFound(`Webhook ${id}`);
  return w;
}

export function getWebhook(store: Store, ctx: Ctx, id: string): void {
  ok(ctx, view(own(store, ctx, id)));
}

export function deleteWebhook(store: Store, ctx: Ctx, id: string): void {
  own(store, ctx, id);
  idempotent(store, ctx, () => {
    store.webhooks.delete(id);
    record(store, ctx.tenant as string, 'webhook.deleted', id, ctx.requestId);
    return { id, deleted: true };
  });
}

/** Fans an event out to the tenant's receivers subscribed to it. */
export function emit(store: Store, tenant: string, event: string, data: Rec): void {
  for (const w of store.webhooks.values()) {
    if (w.tenant !== tenant || !w.events.includes(event)) continue;
    const eventId = newId();
    const body = JSON.stringify({ id: eventId, type: event, createdAt: instant(), data });
    const d: Delivery = { id: newId(), webhookId: w.id, eventId, event, body, attempts: [], state: 'pending' };
    store.deliveries.push(d);
    void attempt(store, d, 0);
  }
}

async function attempt(store: Store, d: Delivery, retry: number): Promise<void> {
  const w = store.webhooks.get(d.webhookId);
  if (!w) return;
  const t = Math.floor(Date.now() / 1000);
  const v1 = createHmac('sha256', w.signingKey).update(`${t}.${d.body}`).digest('hex');
  const at = instant();
  try {
    const res = await fetch(w.url, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        [SIGNATURE_HEADER]: `t=${t},v1=${v1}`,
        [DELIVERY_HEADER]: d.id,
        'x-buttonwood-event': d.event,
      },
      body: d.body,
      signal: AbortSignal.timeout(5000),
    });
    await res.arrayBuffer().catch(() => undefined);
    d.attempts.push({ at, status: res.status });
    if (res.ok) {
      d.state = 'delivered';
      return;
    }
  } catch (e) {
    d.attempts.push({ at, status: null, error: (e as Error).name });
  }
  const wait = BACKOFF_MS[retry];
  if (wait === undefined) d.state = 'failed';
  else store.later(wait, () => void attempt(store, d, retry + 1));
}

const entry = (d: Delivery) => ({ id: d.id, eventId: d.eventId, event: d.event, state: d.state, attempts: d.attempts });

export function deliveryLog(store: Store, ctx: Ctx, id: string): void {
  own(store, ctx, id);
  const deliveries = store.deliveries.filter((d) => d.webhookId === id).map(entry);
  ok(ctx, { webhookId: id, count: deliveries.length, deliveries });
}

export function redeliver(store: Store, ctx: Ctx, id: string, deliveryId: string): void {
  own(store, ctx, id);
  const d = store.deliveries.find((x) => x.id === deliveryId && x.webhookId === id);
  if (!d) throw notFound(`Delivery ${deliveryId}`);
  if (ctx.raw.trim() === '') ctx.raw = '{}';
  jsonBody(ctx);
  idempotent(store, ctx, () => {
    d.state = 'pending';
    void attempt(store, d, BACKOFF_MS.length);
    return { ...entry(d), state: 'queued' };
  });
}
