// Webhook receivers (whk_…), signed deliveries and the delivery log. A delivery is POSTed as JSON
// {id, type, createdAt, data}; X-Webhook-Signature carries t=<unix seconds>,v1=<hex HMAC-SHA256 over
// "<t>.<raw body>"> keyed with the receiver's signing key, computed at each send. A failed attempt is
// retried twice (2 s, 10 s) under the same delivery id; POST …/deliveries/{id}/retry sends the event
// again as a new delivery (retryOf names the first).
import { createHmac, randomBytes } from 'node:crypto';
import { record } from './audit.ts';
import { tenantOf } from './auth.ts';
import { newId, newUuid, nowIso, onReplica } from './catalog.ts';
import { invalid, sendOk } from './http-kit.ts';
import { runKeyed } from './idempotency.ts';
import { type Ctx, type Delivery, HttpError, type State, type Webhook } from './types.ts';
import { url } from './validate.ts';

export const WEBHOOK_EVENTS = [
  'connection.created',
  'connection.activated',
  'connection.paused',
  'order.created',
  'order.paid',
];
const RETRY_DELAYS_MS = [2000, 10_000];

const view = (w: Webhook) => ({ id: w.id, url: w.url, events: w.events, active: w.active, createdAt: w.createdAt });

function deliveryView(d: Delivery) {
  return {
    id: d.id,
    webhookId: d.webhookId,
    eventId: d.eventId,
    event: d.event,
    status: d.status,
    attempts: d.attempt,
    responseStatus: d.responseStatus,
    error: d.error,
    retryOf: d.retryOf,
    createdAt: d.createdAt,
    deliveredAt: d.deliveredAt,
    payload: JSON.parse(d.body) as unknown,
  };
}

export function registerWebhook(ctx: Ctx, body: Record<string, unknown>) {
  const target = url(body, 'url');
  const events = body.events;
  if (!Array.isArray(events) || events.length < 1 || events.length > 20) {
    throw invalid('events must be a list of 1 to 20 event names.', 'field: events');
  }
  for (const e of events) {
    if (typeof e !== 'string' || !WEBHOOK_EVENTS.includes(e)) {
      throw invalid(`events may name only ${WEBHOOK_EVENTS.join(', ')}.`, 'field: events');
    }
  }
  const tenant = tenantOf(ctx);
  runKeyed(ctx, body, {
    required: true,
    perform: () => {
      const w: Webhook = {
        id: newId('whk'),
        tenant,
        url: target,
        events: [...new Set(events as string[])],
        signingKey: `whsec_${randomBytes(24).toString('hex')}`,
        active: true,
        createdAt: nowIso(),
      };
      ctx.state.webhooks.set(w.id, w);
      record(
        ctx.state,
        ctx,
        tenant,
        'webhook.created',
        { type: 'webhook', id: w.id },
        { url: w.url, events: w.events },
      );
      return { ...view(w), signingKey: w.signingKey };
    },
    replayView: ctx.state.options.redactKeyOnReplay ? ({ signingKey: _, ...rest }) => rest : undefined,
  });
}

export function ownWebhook(ctx: Ctx, id: string): Webhook {
  const w = ctx.state.webhooks.get(id);
  if (!w || w.tenant !== tenantOf(ctx))
    throw new HttpError(
      404,
      'not_found',
      'No such webhook receiver.',
      undefined,
      'Compare identifier and tenant header.',
    );
  return w;
}

export function listWebhooks(ctx: Ctx) {
  const list = [...ctx.state.webhooks.values()].filter((w) => w.tenant === tenantOf(ctx)).map(view);
  sendOk(ctx, { count: list.length, webhooks: list });
}

export const showWebhook = (ctx: Ctx, id: string) => sendOk(ctx, view(ownWebhook(ctx, id)));

export function deleteWebhook(ctx: Ctx, id: string) {
  const w = ownWebhook(ctx, id);
  runKeyed(ctx, undefined, {
    required: true,
    perform: () => {
      ctx.state.webhooks.delete(w.id);
      record(ctx.state, ctx, w.tenant, 'webhook.deleted', { type: 'webhook', id: w.id }, {});
      return { id: w.id, deleted: true };
    },
  });
}

export function deliveryLog(ctx: Ctx, id: string) {
  const w = ownWebhook(ctx, id);
  const list = [...ctx.state.deliveries.values()]
    .filter((d) => d.webhookId === w.id && onReplica(d.createdAt, ctx.state.options.replicaLagMs))
    .reverse()
    .map(deliveryView);
  sendOk(ctx, { webhookId: w.id, count: list.length, deliveries: list });
}

export function retryDelivery(ctx: Ctx, id: string, deliveryId: string, body: Record<string, unknown> | undefined) {
  const w = ownWebhook(ctx, id);
  const original = ctx.state.deliveries.get(deliveryId);
  if (!original || original.webhookId !== w.id) throw new HttpError(404, 'not_found', 'No such delivery.');
  runKeyed(ctx, body, {
    required: true,
    perform: () => {
      if (ctx.state.options.retrySameDelivery) {
        // Another attempt of the same delivery (same id, attempt + 1), as a "Redeliver" button does.
        record(ctx.state, ctx, w.tenant, 'webhook.delivery_retried', { type: 'webhook_delivery', id: original.id }, {});
        original.status = 'pending';
        later(ctx.state, 0, () => attempt(ctx.state, w, original));
        return deliveryView(original);
      }
      const d = newDelivery(
        ctx.state,
        w,
        original.eventId,
        original.event,
        original.body,
        original.retryOf ?? original.id,
      );
      record(
        ctx.state,
        ctx,
        w.tenant,
        'webhook.delivery_retried',
        { type: 'webhook_delivery', id: d.id },
        { retryOf: d.retryOf },
      );
      later(ctx.state, 0, () => attempt(ctx.state, w, d));
      return deliveryView(d);
    },
  });
}

function newDelivery(state: State, w: Webhook, eventId: string, event: string, body: string, retryOf: string | null) {
  const d: Delivery = {
    id: newId('dlv'),
    webhookId: w.id,
    eventId,
    event,
    body,
    attempt: 0,
    retryOf,
    status: 'pending',
    responseStatus: null,
    error: null,
    createdAt: nowIso(),
    deliveredAt: null,
  };
  state.deliveries.set(d.id, d);
  return d;
}

function later(state: State, ms: number, fn: () => void) {
  if (state.closed) return;
  const timer = setTimeout(() => {
    state.timers.delete(timer);
    fn();
  }, ms);
  state.timers.add(timer);
}

export const sign = (key: string, t: number, body: string): string =>
  `t=${t},v1=${createHmac('sha256', key).update(`${t}.${body}`).digest('hex')}`;

async function attempt(state: State, w: Webhook, d: Delivery) {
  if (state.closed) return;
  d.attempt += 1;
  const t = Math.floor(Date.now() / 1000);
  try {
    const res = await fetch(w.url, {
      method: 'POST',
      headers: {
        'Content-Type': 'application/json',
        'User-Agent': 'Juniper-Webhooks/1.0',
        'X-Webhook-Signature': sign(w.signingKey, t, d.body),
        'X-Webhook-Id': w.id,
        'X-Webhook-Delivery': d.id,
        'X-Webhook-Event': d.event,
        'X-Webhook-Attempt': String(d.attempt),
      },
      body: d.body,
      signal: AbortSignal.timeout(5000),
    });
    await res.arrayBuffer().catch(() => undefined);
    d.responseStatus = res.status;
    d.error = res.ok ? null : `receiver answered ${res.status}`;
  } catch (err) {
    d.responseStatus = null;
    d.error = (err as Error).name === 'TimeoutError' ? 'timed out after 5 s' : 'receiver not reachable';
  }
  d.deliveredAt = nowIso();
  if (d.error === null) d.status = 'succeeded';
  else {
    const delay = RETRY_DELAYS_MS[d.attempt - 1];
    d.status = delay === undefined ? 'failed' : 'retrying';
    if (delay !== undefined) later(state, delay, () => attempt(state, w, d));
  }
}

// Called after a committed change: one delivery per subscribed receiver of the tenant.
export function dispatch(state: State, tenant: string, event: string, data: Record<string, unknown>) {
  for (const w of state.webhooks.values()) {
    if (w.tenant !== tenant || !w.active || !w.events.includes(event)) continue;
    const eventId = newUuid();
    const body = JSON.stringify({ id: eventId, type: event, createdAt: nowIso(), data });
    const d = newDelivery(state, w, eventId, event, body, null);
    later(state, 0, () => attempt(state, w, d));
  }
}
