// Webhook receivers and their deliveries, sent the way an RQ worker would: one job per delivery, POSTed with
// `X-Locust-Signature: t=<unix>,v1=<hex>` and retried on failure with `Retry(max=3, interval=[10, 30, 60])`.
// The delivery log is its own resource: GET /webhook-deliveries?webhook_id=<id>, POST /webhook-deliveries/<id>/retry.
import { createHmac, randomBytes } from 'node:crypto';
import { record } from './audit.ts';
import { ApiError, type Ctx, jsonBody, ok } from './http.ts';
import { idempotent, requireKey } from './idempotency.ts';
import { dumps } from './pyjson.ts';
import { isoformat, type Rec, type Store, WEBHOOK_EVENTS } from './state.ts';
import { check, type Errors } from './validate.ts';

const RETRY_SECONDS = [10, 30, 60];

export function sign(secret: string, t: number, body: string): string {
  return `t=${t},v1=${createHmac('sha256', secret).update(`${t}.${body}`).digest('hex')}`;
}

/** marshmallow `fields.Int` for the integer keys of the webhook tables, when the team exposes them as numbers. */
function idOut(store: Store, v: string | null): string | number | null {
  return store.options.numericIds && v !== null ? Number(v) : v;
}

function publicView(store: Store, w: Rec): Rec {
  const { secret: _s, tenant: _t, ...rest } = w;
  return { ...rest, id: idOut(store, w.id) };
}

export function createWebhook(store: Store, ctx: Ctx): void {
  const key = requireKey(ctx);
  const body = jsonBody(ctx);
  const errors: Errors = {};
  if (typeof body.url !== 'string' || !/^https?:\/\/[^\s]+$/.test(body.url)) errors.url = ['Not a valid URL.'];
  const events = body.events;
  if (!Array.isArray(events) || events.length === 0) errors.events = ['Shorter than minimum length 1.'];
  else if (events.some((e) => typeof e !== 'string' || !WEBHOOK_EVENTS.includes(e))) {
    errors.events = [`Must be one of: ${WEBHOOK_EVENTS.join(', ')}.`];
  }
  check(errors, body, ['url', 'events']);
  idempotent(store, ctx, key, body, () => {
    const hook: Rec = {
      id: String(store.nextId('webhooks')),
      url: body.url,
      events: [...(events as string[])],
      active: true,
      created_at: isoformat(),
      tenant: ctx.tenant,
      secret: `whsec_${randomBytes(24).toString('hex')}`,
    };
    store.webhooks.push(hook);
    record(store, ctx.tenant ?? '', ctx.clientId ?? '', 'webhook.create', hook.id);
    // Shown this once (and in the stored replay of this very call); never readable afterwards.
    return { ...publicView(store, hook), signing_secret: hook.secret };
  });
}

export function listWebhooks(store: Store, ctx: Ctx): void {
  const webhooks = store.webhooks.filter((w) => w.tenant === ctx.tenant && w.active).map((w) => publicView(store, w));
  ok(ctx, { count: webhooks.length, webhooks });
}

export function getWebhook(store: Store, ctx: Ctx, id: string): void {
  const hook = store.webhooks.find((w) => w.id === id && w.tenant === ctx.tenant && w.active);
  if (!hook) throw new ApiError('not_found', 'Webhook not found.');
  ok(ctx, publicView(store, hook));
}

export function deleteWebhook(store: Store, ctx: Ctx, id: string): void {
  requireKey(ctx);
  const hook = store.webhooks.find((w) => w.id === id && w.tenant === ctx.tenant && w.active);
  if (!hook) throw new ApiError('not_found', 'Webhook not found.');
  hook.active = false;
  record(store, ctx.tenant ?? '', ctx.clientId ?? '', 'webhook.delete', hook.id);
  ok(ctx, { id: idOut(store, hook.id), deleted: true });
}

/** Enqueues one delivery per receiver of the tenant subscribed to the event. */
export function dispatch(store: Store, tenant: string, event: string, data: Rec): void {
  const eventId = String(store.nextId('events'));
  for (const hook of store.webhooks) {
    if (hook.tenant !== tenant || !hook.active || !hook.events.includes(event)) continue;
    // The worker signs and sends `json.dumps(payload)` as is: default separators, non-ASCII escaped.
    const payload = dumps({ id: eventId, event, created_at: isoformat(), data }, { ensureAscii: true });
    deliver(store, hook, newDelivery(store, hook, eventId, event, payload, null));
  }
}

function newDelivery(store: Store, hook: Rec, eventId: string, event: string, payload: string, of: string | null): Rec {
  const d: Rec = {
    id: String(store.nextId('deliveries')),
    webhook_id: hook.id,
    event_id: eventId,
    event,
    status: 'queued',
    attempts: 0,
    response_status: null,
    redelivery_of: of,
    created_at: isoformat(),
    delivered_at: null,
    payload,
  };
  store.deliveries.push(d);
  return d;
}

function deliver(store: Store, hook: Rec, d: Rec): void {
  const t = Math.floor(Date.now() / 1000);
  d.attempts += 1;
  fetch(hook.url, {
    method: 'POST',
    body: d.payload,
    headers: {
      'content-type': 'application/json',
      'user-agent': 'locust-webhooks/1.0 (rq)',
      'x-locust-signature': sign(hook.secret, t, d.payload),
      'x-locust-event': d.event,
      'x-locust-delivery': d.id,
    },
    signal: AbortSignal.timeout(10_000),
  })
    .then(async (r) => {
      await r.arrayBuffer().catch(() => undefined);
      d.response_status = r.status;
      if (r.ok) {
        d.status = 'delivered';
        d.delivered_at = isoformat();
      } else retry(store, hook, d);
    })
    .catch(() => retry(store, hook, d));
}

function retry(store: Store, hook: Rec, d: Rec): void {
  const wait = RETRY_SECONDS[d.attempts - 1];
  if (wait === undefined || !hook.active) {
    d.status = 'failed';
    return;
  }
  d.status = 'retrying';
  store.later(wait * 1000, () => deliver(store, hook, d));
}

function deliveryView(store: Store, d: Rec): Rec {
  const { payload: _p, ...rest } = d;
  const ids = ['id', 'webhook_id', 'event_id', 'redelivery_of'] as const;
  return { ...rest, ...Object.fromEntries(ids.map((k) => [k, idOut(store, d[k])])) };
}

export function listDeliveries(store: Store, ctx: Ctx): void {
  const id = ctx.query.get('webhook_id');
  if (id === null)
    throw new ApiError(
      'invalid_request',
      'Missing webhook_id.',
      '{"webhook_id": ["Missing data for required field."]}',
    );
  const hook = store.webhooks.find((w) => w.id === id && w.tenant === ctx.tenant);
  if (!hook) throw new ApiError('not_found', 'Webhook not found.');
  const deliveries = store.deliveries
    .filter((d) => d.webhook_id === hook.id)
    .reverse()
    .map((d) => deliveryView(store, d));
  ok(ctx, { webhook_id: idOut(store, hook.id), count: deliveries.length, deliveries });
}

/** POST /webhook-deliveries/<id>/retry: a new delivery of the same event (same body, a fresh signature). */
export function redeliver(store: Store, ctx: Ctx, id: string): void {
  const key = requireKey(ctx);
  const d = store.deliveries.find((x) => x.id === id);
  const hook = d && store.webhooks.find((w) => w.id === d.webhook_id && w.tenant === ctx.tenant);
  if (!d || !hook) throw new ApiError('not_found', 'Delivery not found.');
  idempotent(store, ctx, key, { delivery: id }, () => {
    // RQ's `job.requeue()` runs the same delivery again; otherwise a new delivery of the same event is enqueued.
    const again = store.options.requeueSameDelivery
      ? d
      : newDelivery(store, hook, d.event_id, d.event, d.payload, d.id);
    record(store, ctx.tenant ?? '', ctx.clientId ?? '', 'webhook_delivery.retry', again.id);
    deliver(store, hook, again);
    return deliveryView(store, again);
  });
}
