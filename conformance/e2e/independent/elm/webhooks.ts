// Webhook receivers, an outbox polled every 500 ms, signed deliveries (X-Elm-Signature), the delivery
// log and redelivery.
import { createHmac, randomBytes, randomUUID } from 'node:crypto';
import type { Audit } from './audit.ts';
import { record } from './audit.ts';
import type { Ctx } from './http.ts';
import { allowQuery, HttpError, onlyFields, readJsonObject, sendOk } from './http.ts';
import type { Idempotency } from './idempotency.ts';
import { requireKey, runIdempotent } from './idempotency.ts';

export const WEBHOOK_EVENTS = ['*', 'ConnectionCreated', 'ConnectionActivated', 'order.created', 'order.paid'];
const MAX_ATTEMPTS = 4;

type Webhook = { id: string; tenant: string; url: string; events: string[]; secret: string; createdAt: string };
type Delivery = {
  id: string;
  webhookId: string;
  eventId: string;
  event: string;
  body: string;
  status: 'Pending' | 'Succeeded' | 'Failed';
  attempts: number;
  lastStatusCode: number | null;
  redeliveryOf: string | null;
  createdAt: string;
  lastAttemptAt: string | null;
  nextAttemptAt: number;
};

export type Webhooks = {
  hooks: Map<string, Webhook>;
  deliveries: Delivery[];
  polling: boolean;
  timer?: NodeJS.Timeout;
};
export type WebhookDeps = { webhooks: Webhooks; idem: Idempotency; audit: Audit };

export function createWebhooks(pollMs: number): Webhooks {
  const state: Webhooks = { hooks: new Map(), deliveries: [], polling: false };
  state.timer = setInterval(() => void pollOutbox(state), pollMs);
  state.timer.unref();
  return state;
}

function view(d: Delivery): Record<string, unknown> {
  const { body: _body, nextAttemptAt: _next, ...rest } = d;
  return rest;
}

function enqueue(
  state: Webhooks,
  hook: Webhook,
  eventId: string,
  event: string,
  body: string,
  redeliveryOf: string | null,
): Delivery {
  const delivery: Delivery = {
    id: randomUUID(),
    webhookId: hook.id,
    eventId,
    event,
    body,
    status: 'Pending',
    attempts: 0,
    lastStatusCode: null,
    redeliveryOf,
    createdAt: new Date().toISOString(),
    lastAttemptAt: null,
    nextAttemptAt: Date.now(),
  };
  state.deliveries.push(delivery);
  return delivery;
}

// Called for every event of a tenant: one outbox entry per subscribed receiver.
export function fanOut(state: Webhooks, tenant: string, type: string, data: Record<string, unknown>): void {
  const eventId = `evt_${randomBytes(12).toString('hex')}`;
  const body = JSON.stringify({ id: eventId, type, occurredAt: new Date().toISOString(), data });
  for (const hook of state.hooks.values()) {
    if (hook.tenant === tenant && (hook.events.includes('*') || hook.events.includes(type))) {
      enqueue(state, hook, eventId, type, body, null);
    }
  }
}

async function attempt(state: Webhooks, d: Delivery): Promise<void> {
  const hook = state.hooks.get(d.webhookId);
  if (!hook) {
    d.status = 'Failed';
    return;
  }
  const t = Math.floor(Date.now() / 1000);
  const signature = createHmac('sha256', hook.secret).update(`${t}.${d.body}`).digest('hex');
  d.attempts += 1;
  d.lastAttemptAt = new Date().toISOString();
  try {
    const answer = await fetch(hook.url, {
      method: 'POST',
      headers: {
        'Content-Type': 'application/json; charset=utf-8',
        'User-Agent': 'Elm-Webhooks/1.0',
        'X-Elm-Signature': `t=${t},v1=${signature}`,
        'X-Elm-Delivery': d.id,
        'X-Elm-Event': d.event,
      },
      body: d.body,
      signal: AbortSignal.timeout(5000),
    });
    d.lastStatusCode = answer.status;
    await answer.body?.cancel();
    if (answer.ok) {
      d.status = 'Succeeded';
      return;
    }
  } catch {
    d.lastStatusCode = null;
  }
  if (d.attempts >= MAX_ATTEMPTS) d.status = 'Failed';
  else d.nextAttemptAt = Date.now() + 1000 * 2 ** d.attempts;
}

async function pollOutbox(state: Webhooks): Promise<void> {
  if (state.polling) return;
  state.polling = true;
  try {
    const due = state.deliveries.filter((d) => d.status === 'Pending' && d.nextAttemptAt <= Date.now());
    await Promise.all(due.map((d) => attempt(state, d)));
  } finally {
    state.polling = false;
  }
}

export async function createWebhook(ctx: Ctx, deps: WebhookDeps): Promise<void> {
  allowQuery(ctx, []);
  const key = requireKey(ctx);
  const { body } = await readJsonObject(ctx);
  onlyFields(body, ['url', 'events']);
  let url: URL;
  try {
    url = new URL(String(body.url));
  } catch {
    throw new HttpError('invalid_request', "The field 'url' must be an absolute http(s) URL.");
  }
  if (typeof body.url !== 'string' || !['http:', 'https:'].includes(url.protocol)) {
    throw new HttpError('invalid_request', "The field 'url' must be an absolute http(s) URL.");
  }
  const events = body.events;
  if (
    !Array.isArray(events) ||
    events.length < 1 ||
    events.length > 20 ||
    !events.every((e) => typeof e === 'string' && WEBHOOK_EVENTS.includes(e))
  ) {
    throw new HttpError('invalid_request', `The field 'events' must list 1 to 20 of: ${WEBHOOK_EVENTS.join(', ')}.`);
  }
  const tenant = ctx.tenant ?? '';
  runIdempotent(ctx, deps.idem, key, body, () => {
    const hook: Webhook = {
      id: randomUUID(),
      tenant,
      url: url.toString(),
      events: events as string[],
      secret: `whsec_${randomBytes(32).toString('base64url')}`,
      createdAt: new Date().toISOString(),
    };
    deps.webhooks.hooks.set(hook.id, hook);
    record(deps.audit, tenant, ctx.clientId ?? '', 'webhook.created', 'webhook', hook.id);
    return { id: hook.id, url: hook.url, events: hook.events, createdAt: hook.createdAt, secret: hook.secret };
  });
}

function ownHook(ctx: Ctx, state: Webhooks, id: string): Webhook {
  const hook = state.hooks.get(id);
  if (!hook || hook.tenant !== ctx.tenant) throw new HttpError('not_found', `Webhook '${id}' was not found.`);
  return hook;
}

export function listDeliveries(ctx: Ctx, deps: WebhookDeps, id: string): void {
  allowQuery(ctx, []);
  const hook = ownHook(ctx, deps.webhooks, id);
  const list = deps.webhooks.deliveries
    .filter((d) => d.webhookId === hook.id)
    .reverse()
    .map(view);
  sendOk(ctx, { webhookId: hook.id, count: list.length, deliveries: list });
}

export async function redeliver(ctx: Ctx, deps: WebhookDeps, id: string, deliveryId: string): Promise<void> {
  allowQuery(ctx, []);
  const key = requireKey(ctx);
  const hook = ownHook(ctx, deps.webhooks, id);
  const original = deps.webhooks.deliveries.find((d) => d.id === deliveryId && d.webhookId === hook.id);
  if (!original) throw new HttpError('not_found', `Delivery '${deliveryId}' was not found.`);
  const tenant = ctx.tenant ?? '';
  // The fingerprint covers the body only; the target ids are part of it so one key cannot redeliver two.
  runIdempotent(ctx, deps.idem, key, { redeliver: deliveryId, webhookId: id }, () => {
    const copy = enqueue(deps.webhooks, hook, original.eventId, original.event, original.body, original.id);
    record(deps.audit, tenant, ctx.clientId ?? '', 'webhook.delivery.redelivered', 'delivery', copy.id);
    return view(copy);
  });
}

export function deleteWebhook(ctx: Ctx, deps: WebhookDeps, id: string): void {
  allowQuery(ctx, []);
  requireKey(ctx);
  const hook = ownHook(ctx, deps.webhooks, id);
  deps.webhooks.hooks.delete(hook.id);
  record(deps.audit, ctx.tenant ?? '', ctx.clientId ?? '', 'webhook.deleted', 'webhook', hook.id);
  sendOk(ctx, { id: hook.id, deleted: true });
}
