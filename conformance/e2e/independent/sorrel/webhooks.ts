// Webhook receivers, signed deliveries and the delivery log (the team's `WebhookController` and its coroutine
// `DeliveryWorker`). Ids are Exposed `Long` identities, written as JSON numbers. A delivery is signed in
// `X-Sorrel-Signature: t=<unix>,v1=<hex HMAC-SHA256 of "t.body">` and names itself in `X-Sorrel-Delivery`;
// a failed attempt is retried after 1, 2 and 4 s. The signing key is returned once, as `signingKey`.
import { createHmac, randomBytes } from 'node:crypto';
import { record } from './audit.ts';
import { ApiError, type Ctx, jsonBody, ok } from './http.ts';
import { idempotent } from './idempotency.ts';
import { instant, later, type Rec, type Store, stamp, ulid, WEBHOOK_EVENTS } from './state.ts';

const RETRY_DELAYS_MS = [1000, 2000, 4000];
const secrets = new WeakMap<Rec, string>();

function receiver(store: Store, ctx: Ctx): Rec {
  const w = store.webhooks.find((x) => String(x.id) === ctx.params.webhookId && x.tenant === ctx.tenant);
  if (!w) throw new ApiError('not_found', `Webhook ${ctx.params.webhookId} does not exist.`);
  return w;
}

function publicView(w: Rec): Rec {
  const { tenant: _t, ...rest } = w;
  return rest;
}

export function createWebhook(store: Store, ctx: Ctx): void {
  const body = jsonBody(ctx, ['url', 'events', 'description']);
  const url = body.url;
  if (typeof url !== 'string' || !/^https?:\/\/(127\.0\.0\.1|localhost)(:\d+)?(\/\S*)?$/.test(url)) {
    throw new ApiError('invalid_request', 'Field "url" must be an http(s) address on loopback in this sandbox.');
  }
  const events = body.events;
  const valid = Array.isArray(events) && events.length > 0;
  const unknown = valid ? events.find((e) => !(WEBHOOK_EVENTS as readonly unknown[]).includes(e)) : undefined;
  if (!valid || unknown !== undefined) {
    throw new ApiError('invalid_request', `Field "events": one of ${WEBHOOK_EVENTS.join(', ')}.`);
  }
  idempotent(store, ctx, 'webhook.create', body, () => {
    store.seq.webhook += 1;
    const w: Rec = { id: store.seq.webhook, url, events, active: true, createdAt: instant(), tenant: ctx.tenant };
    const key = `whsec_${randomBytes(24).toString('base64url')}`;
    secrets.set(w, key);
    store.webhooks.push(w);
    record(store, ctx, 'webhook.create', String(w.id));
    return { ...publicView(w), signingKey: key };
  });
}

export function listWebhooks(store: Store, ctx: Ctx): void {
  const list = store.webhooks.filter((w) => w.tenant === ctx.tenant).map(publicView);
  ok(ctx, { count: list.length, webhooks: list });
}

export function deleteWebhook(store: Store, ctx: Ctx): void {
  const w = receiver(store, ctx);
  idempotent(store, ctx, 'webhook.delete', { id: w.id }, () => {
    store.webhooks = store.webhooks.filter((x) => x !== w);
    record(store, ctx, 'webhook.delete', String(w.id));
    return { id: w.id, deleted: true };
  });
}

/** Queues one delivery per subscribed receiver of the tenant. */
export function dispatch(store: Store, type: string, tenant: string, connection: Rec, event: Rec): void {
  const payload = {
    id: `evt_${ulid()}`,
    type,
    createdAt: event.occurredAt,
    sequence: event.sequence,
    data: { connection },
  };
  for (const w of store.webhooks) {
    if (w.tenant === tenant && w.events.includes(type)) enqueue(store, w, payload);
  }
}

function enqueue(store: Store, w: Rec, payload: Rec, redeliveryOf?: number): Rec {
  store.seq.delivery += 1;
  const d: Rec = {
    id: store.seq.delivery,
    webhookId: w.id,
    eventId: payload.id,
    eventType: payload.type,
    status: 'PENDING',
    attemptCount: 0,
    attempts: [],
    createdAt: stamp(store),
    tenant: w.tenant,
  };
  if (redeliveryOf !== undefined) d.redeliveryOf = redeliveryOf;
  store.deliveries.push(d);
  const rawBody = JSON.stringify(payload);
  const attempt = async () => {
    const t = Math.floor(Date.now() / 1000);
    const v1 = createHmac('sha256', secrets.get(w) ?? '')
      .update(`${t}.${rawBody}`)
      .digest('hex');
    let status: number | undefined;
    let error: string | undefined;
    try {
      const r = await fetch(w.url, {
        method: 'POST',
        body: rawBody,
        signal: AbortSignal.timeout(5000),
        headers: {
          'content-type': 'application/json',
          'user-agent': 'sorrel-webhooks/1.4 (ktor-client)',
          'x-sorrel-signature': `t=${t},v1=${v1}`,
          'x-sorrel-delivery': String(d.id),
          'x-sorrel-event': payload.type,
        },
      });
      status = r.status;
      await r.arrayBuffer().catch(() => undefined);
    } catch (e) {
      error = e instanceof Error ? e.name : 'error';
    }
    d.attemptCount += 1;
    d.attempts.push({ at: stamp(store), responseStatus: status, error });
    d.lastAttemptAt = stamp(store);
    const success = status !== undefined && status >= 200 && status < 300;
    const delay = RETRY_DELAYS_MS[d.attemptCount - 1];
    d.status = success ? 'DELIVERED' : delay === undefined ? 'FAILED' : 'RETRYING';
    if (!success && delay !== undefined) later(store, delay, () => void attempt());
  };
  later(store, 0, () => void attempt());
  payloads.set(d, payload);
  return d;
}

const payloads = new WeakMap<Rec, Rec>();

function deliveryView(d: Rec): Rec {
  const { tenant: _t, ...rest } = d;
  return rest;
}

/** GET /webhooks/{webhookId}/delivery-attempts: newest first. */
export function deliveryLog(store: Store, ctx: Ctx): void {
  const w = receiver(store, ctx);
  const list = store.deliveries.filter((d) => d.webhookId === w.id && d.tenant === ctx.tenant).reverse();
  ok(ctx, { webhookId: w.id, count: list.length, deliveries: list.map(deliveryView) });
}

/** POST /webhooks/{webhookId}/delivery-attempts/{attemptId}/retry: a new delivery of the same event. */
export function redeliver(store: Store, ctx: Ctx): void {
  const w = receiver(store, ctx);
  const d = store.deliveries.find((x) => String(x.id) === ctx.params.attemptId && x.webhookId === w.id);
  const payload = d ? payloads.get(d) : undefined;
  if (!d || !payload) throw new ApiError('not_found', `Delivery ${ctx.params.attemptId} does not exist.`);
  idempotent(store, ctx, 'webhook.redeliver', { webhookId: w.id, deliveryId: d.id }, () => {
    const again = enqueue(store, w, payload, d.id);
    record(store, ctx, 'webhook.redeliver', String(d.id));
    return deliveryView(again);
  });
}
