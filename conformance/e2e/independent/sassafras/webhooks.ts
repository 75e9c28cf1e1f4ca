// Webhook subscriptions (registered at POST /webhooks, managed under /webhook-subscriptions), signed deliveries,
// the delivery log and resend. Signature header X-Sassafras-Signature: t=<unix s>,v1=<hex HMAC-SHA256(t.body)>.
import { createHmac, randomBytes } from 'node:crypto';
import { request } from 'node:http';
import { record } from './audit.ts';
import { ApiError, type Caller, type Ctx, newId, ok, stamp } from './http-kit.ts';
import { once, requireKey } from './idempotency.ts';
import type { Delivery, Store, Subscription } from './state.ts';
import { onlyFields, textList } from './validate.ts';

export const EVENT_NAMES = [
  'connection.created',
  'connection.activated',
  'connection.suspended',
  'order.created',
  'order.paid',
];
/** Attempts after the first, on a non-2xx answer or a network error. */
const RETRY_DELAYS_MS = [1000, 5000];

export function sign(key: string, t: number, body: string): string {
  return `t=${t},v1=${createHmac('sha256', key).update(`${t}.${body}`, 'utf8').digest('hex')}`;
}

function subscriptionView(s: Subscription): Record<string, unknown> {
  return { id: s.id, url: s.url, events: s.events, status: s.status, createdAt: s.createdAt };
}

function deliveryView(d: Delivery): Record<string, unknown> {
  const { body: _body, tenant: _tenant, ...rest } = d;
  return rest;
}

export function register(store: Store, ctx: Ctx, caller: Caller, body: Record<string, unknown>): void {
  requireKey(ctx);
  onlyFields(body, ['url', 'events'], ctx.lenientBinding);
  const url = body.url;
  let parsed: URL | undefined;
  try {
    parsed = typeof url === 'string' ? new URL(url) : undefined;
  } catch {
    parsed = undefined;
  }
  if (!parsed || (parsed.protocol !== 'http:' && parsed.protocol !== 'https:')) {
    throw new ApiError(
      'invalid_request',
      "The field 'url' is invalid.",
      "'url' must be an absolute http or https address.",
    );
  }
  const target = parsed.toString();
  const events = textList(body, 'events', 1, 20, 2, 120);
  const unknown = events.find((e) => !EVENT_NAMES.includes(e));
  if (unknown)
    throw new ApiError(
      'invalid_request',
      "The field 'events' is invalid.",
      `Unknown event '${unknown}'.`,
      `events: one of ${EVENT_NAMES.join(', ')}`,
    );
  const redact = store.options.redactKeyOnReplay;
  once(
    store,
    ctx,
    body,
    () => {
      const s: Subscription = {
        id: newId(),
        tenant: caller.tenant,
        url: target,
        events: [...new Set(events)],
        signingKey: `whsec_${randomBytes(32).toString('base64url')}`,
        createdAt: stamp(),
        status: 'Active',
      };
      store.subscriptions.push(s);
      record(store, caller.tenant, 'webhook-subscription.create', 'webhook-subscription', s.id, {
        actor: caller.clientId,
        requestId: ctx.requestId,
        idempotencyKey: ctx.idempotencyKey,
      });
      return { ...subscriptionView(s), signingKey: s.signingKey, signatureHeader: 'X-Sassafras-Signature' };
    },
    (data) => {
      if (!redact) return data;
      const { signingKey: _k, ...rest } = data as Record<string, unknown>;
      return rest;
    },
  );
}

function findSubscription(store: Store, caller: Caller, id: string): Subscription {
  const s = store.subscriptions.find((x) => x.id === id && x.tenant === caller.tenant);
  if (!s)
    throw new ApiError(
      'not_found',
      'The webhook subscription does not exist.',
      undefined,
      'Compare identifier and tenant header.',
    );
  return s;
}

export function getSubscription(store: Store, ctx: Ctx, caller: Caller, id: string): void {
  ok(ctx, subscriptionView(findSubscription(store, caller, id)));
}

export function deleteSubscription(store: Store, ctx: Ctx, caller: Caller, id: string): void {
  requireKey(ctx);
  once(store, ctx, {}, () => {
    const s = findSubscription(store, caller, id);
    store.subscriptions = store.subscriptions.filter((x) => x !== s);
    record(store, caller.tenant, 'webhook-subscription.delete', 'webhook-subscription', s.id, {
      actor: caller.clientId,
      requestId: ctx.requestId,
      idempotencyKey: ctx.idempotencyKey,
    });
    return { id: s.id, deleted: true };
  });
}

export function listDeliveries(store: Store, ctx: Ctx, caller: Caller, id: string): void {
  const s = findSubscription(store, caller, id);
  const deliveries = store.deliveries.filter((d) => d.subscriptionId === s.id).map(deliveryView);
  ok(ctx, { subscriptionId: s.id, count: deliveries.length, deliveries });
}

export function resend(store: Store, ctx: Ctx, caller: Caller, id: string, deliveryId: string): void {
  requireKey(ctx);
  once(store, ctx, {}, () => {
    const s = findSubscription(store, caller, id);
    const original = store.deliveries.find((d) => d.id === deliveryId && d.subscriptionId === s.id);
    if (!original)
      throw new ApiError(
        'not_found',
        'The delivery does not exist.',
        undefined,
        'List the deliveries of the subscription first.',
      );
    const d = enqueue(store, s, original.eventId, original.eventType, original.body, original.id);
    record(store, caller.tenant, 'webhook-delivery.resend', 'webhook-delivery', d.id, {
      actor: caller.clientId,
      requestId: ctx.requestId,
      idempotencyKey: ctx.idempotencyKey,
    });
    return deliveryView(d);
  });
}

/** Fans an event out to the tenant's subscriptions for it; the event id stays the same on every resend. */
export function notify(store: Store, tenant: string, type: string, data: Record<string, unknown>): void {
  for (const s of store.subscriptions.filter((x) => x.tenant === tenant && x.events.includes(type))) {
    const eventId = newId();
    const body = JSON.stringify({ id: eventId, type, occurredAt: stamp(), subscriptionId: s.id, data });
    enqueue(store, s, eventId, type, body);
  }
}

function enqueue(
  store: Store,
  s: Subscription,
  eventId: string,
  eventType: string,
  body: string,
  resendOf?: string,
): Delivery {
  const d: Delivery = {
    id: newId(),
    subscriptionId: s.id,
    tenant: s.tenant,
    eventId,
    eventType,
    body,
    status: 'Pending',
    attempts: [],
    createdAt: stamp(),
    ...(resendOf ? { resendOf } : {}),
  };
  store.deliveries.push(d);
  store.later(0, () => attempt(store, s, d, 0));
  return d;
}

function attempt(store: Store, s: Subscription, d: Delivery, n: number): void {
  const t = Math.floor(Date.now() / 1000);
  let settled = false;
  const done = (statusCode: number | null, error?: string) => {
    if (settled) return;
    settled = true;
    d.attempts.push({ at: stamp(), statusCode, ...(error ? { error } : {}) });
    if (statusCode !== null && statusCode >= 200 && statusCode < 300) d.status = 'Succeeded';
    else if (n < RETRY_DELAYS_MS.length) store.later(RETRY_DELAYS_MS[n] ?? 1000, () => attempt(store, s, d, n + 1));
    else d.status = 'Failed';
  };
  const req = request(s.url, {
    method: 'POST',
    timeout: 5000,
    headers: {
      'Content-Type': 'application/json; charset=utf-8',
      'Content-Length': Buffer.byteLength(d.body),
      'User-Agent': 'Sassafras-Webhooks/1.0',
      'X-Sassafras-Signature': sign(s.signingKey, t, d.body),
      'X-Sassafras-Event': d.eventType,
      'X-Sassafras-Delivery': d.id,
      'X-Sassafras-Event-Id': d.eventId,
    },
  });
  req.on('response', (res) => {
    res.resume();
    done(res.statusCode ?? null);
  });
  // The log says only that the receiver could not be reached: no address or stack of ours goes out.
  req.on('timeout', () => req.destroy(new Error('timeout')));
  req.on('error', (e) => done(null, e.message === 'timeout' ? 'ReceiverTimeout' : 'ReceiverUnreachable'));
  req.end(d.body);
}
