// Webhook receivers: registration issues the signing key once; events fan out to subscribed receivers
// (sent by deliveries.ts); every delivery is kept in the receiver's delivery-attempts log, retried on request.
import { randomBytes } from 'node:crypto';
import { record } from './audit.ts';
import { send } from './deliveries.ts';
import { ApiError, type Ctx, jsonBody, ok } from './http.ts';
import { once } from './idempotency.ts';
import { civilNow, EVENT_NAMES, type Rec, type Store, uuid } from './state.ts';

function receiverOf(ctx: Ctx, id: string): Rec {
  const hook = ctx.store.webhooks.get(id);
  if (!hook || hook.tenant !== ctx.tenant)
    throw new ApiError('not_found', `Webhook '${id}' does not exist for this tenant.`);
  return hook;
}

/** The receiver as shown: never its key, which only the registration's answer carries. */
const view = (h: Rec): Rec => ({ id: h.id, url: h.url, events: h.events, status: h.status, createdAt: h.createdAt });

export function createWebhook(ctx: Ctx): void {
  const body = jsonBody(ctx);
  let url: URL | undefined;
  try {
    url = typeof body.url === 'string' ? new URL(body.url) : undefined;
  } catch {}
  if (!url || !['http:', 'https:'].includes(url.protocol))
    throw new ApiError('invalid_request', "Field 'url' must be an http(s) URL.");
  const events = body.events;
  if (
    !Array.isArray(events) ||
    events.length < 1 ||
    !events.every((e) => (EVENT_NAMES as readonly string[]).includes(e))
  ) {
    throw new ApiError(
      'invalid_request',
      `Field 'events' must list event names, each one of ${EVENT_NAMES.join(', ')}.`,
    );
  }
  once(ctx, 'webhook.create', body, () => {
    const hook = {
      id: uuid(),
      tenant: ctx.tenant,
      url: url.toString(),
      events,
      status: 'ACTIVE',
      createdAt: civilNow(),
      signingKey: `mqs_${randomBytes(24).toString('hex')}`,
    };
    ctx.store.webhooks.set(hook.id, hook);
    ctx.store.attempts.set(hook.id, []);
    record(ctx.store, ctx.tenant ?? '', ctx.clientId ?? '', 'webhook.create', 'webhook', hook.id);
    return ctx.store.options.cloudEvents
      ? { ...view(hook), credentials: { hmacSecret: hook.signingKey } }
      : { ...view(hook), signingKey: hook.signingKey };
  });
}

export function listWebhooks(ctx: Ctx): void {
  const hooks = [...ctx.store.webhooks.values()]
    .filter((h) => h.tenant === ctx.tenant && h.status === 'ACTIVE')
    .map(view);
  ok(ctx, { count: hooks.length, webhooks: hooks });
}

export function deleteWebhook(ctx: Ctx, id: string): void {
  const hook = receiverOf(ctx, id);
  hook.status = 'DELETED';
  ctx.store.webhooks.delete(id);
  record(ctx.store, ctx.tenant ?? '', ctx.clientId ?? '', 'webhook.delete', 'webhook', id);
  ok(ctx, view(hook));
}

export function deliveryLog(ctx: Ctx, id: string): void {
  receiverOf(ctx, id);
  const attempts = ctx.store.attempts.get(id) ?? [];
  ok(ctx, { webhookId: id, count: attempts.length, deliveryAttempts: attempts.map(({ payload: _p, ...a }) => a) });
}

export function redeliver(ctx: Ctx, id: string, attemptId: string): void {
  const hook = receiverOf(ctx, id);
  const prior = (ctx.store.attempts.get(id) ?? []).find((a) => a.id === attemptId);
  if (!prior) throw new ApiError('not_found', `Delivery attempt '${attemptId}' does not exist for this webhook.`);
  once(ctx, `webhook.redeliver:${attemptId}`, { attemptId }, () => {
    const attempt = send(ctx.store, hook, prior.event, prior.eventId, prior.payload, attemptId);
    record(ctx.store, ctx.tenant ?? '', ctx.clientId ?? '', 'webhook.redeliver', 'deliveryAttempt', attempt.id);
    const { payload: _p, ...shown } = attempt;
    return shown;
  });
}

/** Fans an event out to the tenant's receivers subscribed to it. */
export function dispatch(store: Store, tenant: string, event: string, data: Rec): void {
  for (const hook of store.webhooks.values()) {
    if (hook.tenant !== tenant || !hook.events.includes(event)) continue;
    const eventId = uuid();
    const body = store.options.cloudEvents
      ? {
          specversion: '1.0',
          id: eventId,
          source: '/api/public/v1',
          type: event,
          time: civilNow(),
          datacontenttype: 'application/json',
          tenant,
          data,
        }
      : { eventId, event, occurredAt: civilNow(), tenant, data };
    send(store, hook, event, eventId, JSON.stringify(body));
  }
}
