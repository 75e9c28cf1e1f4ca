// Webhook receivers, signed deliveries (X-Rowan-Signature: t=…,v1=…), the delivery log and resends.
import { createHmac, randomBytes } from 'node:crypto';
import { ApiError, type Ctx, ok, paginate } from './http-util.ts';
import type { Delivery, RowanState, Webhook } from './state.ts';
import { newId } from './state.ts';

export const WEBHOOK_EVENTS = [
  'connection.created',
  'connection.live',
  'connection.on_hold',
  'order.created',
  'order.paid',
];
/** Retries after a failed attempt (a Celery task's countdown), then the delivery stays `failed`. */
const RETRY_DELAYS_MS = [1000, 5000];

export function registerWebhook(
  state: RowanState,
  tenant: string,
  body: Record<string, unknown>,
  requestId: string,
): { status: number; data: unknown } {
  const url = body.url;
  if (typeof url !== 'string' || url.length > 2000) throw new ApiError('invalid_request', 'url: a URL is required.');
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new ApiError('invalid_request', 'url: enter a valid URL.');
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') {
    throw new ApiError('invalid_request', 'url: only http and https receivers.');
  }
  const events = body.events;
  if (!Array.isArray(events) || events.length < 1 || events.length > 20) {
    throw new ApiError('invalid_request', 'events: a list of 1 to 20 event names is required.');
  }
  for (const e of events) {
    if (typeof e !== 'string' || !WEBHOOK_EVENTS.includes(e)) {
      throw new ApiError(
        'invalid_request',
        `events: unknown event ${String(e)}.`,
        `Known: ${WEBHOOK_EVENTS.join(', ')}.`,
      );
    }
  }
  const hook: Webhook = {
    id: newId('whk'),
    tenant,
    url,
    events: [...new Set(events as string[])],
    secret: `whsec_${randomBytes(24).toString('hex')}`,
    active: true,
    createdAt: new Date().toISOString(),
  };
  state.webhooks.set(hook.id, hook);
  state.record(tenant, {
    action: 'webhook.created',
    resourceType: 'webhook',
    resourceId: hook.id,
    requestId,
    actor: 'client',
  });
  return {
    status: 200,
    data: {
      id: hook.id,
      url: hook.url,
      events: hook.events,
      active: true,
      secret: hook.secret,
      createdAt: hook.createdAt,
    },
  };
}

export function sign(secret: string, body: string, t = Math.floor(Date.now() / 1000)): string {
  return `t=${t},v1=${createHmac('sha256', secret).update(`${t}.${body}`).digest('hex')}`;
}

/** Fans an event out to the tenant's receivers subscribed to it. */
export function deliverEvent(state: RowanState, tenant: string, event: string, data: Record<string, unknown>): void {
  for (const hook of state.webhooks.values()) {
    if (hook.tenant !== tenant || !hook.active || !hook.events.includes(event)) continue;
    const eventId = newId('evt');
    const body = JSON.stringify({
      id: eventId,
      type: event,
      createdAt: new Date().toISOString(),
      webhookId: hook.id,
      data,
    });
    attempt(state, hook, { eventId, event, body, trigger: 'event' }, 1);
  }
}

function attempt(
  state: RowanState,
  hook: Webhook,
  what: { eventId: string; event: string; body: string; trigger: string },
  n: number,
): Delivery {
  const d: Delivery = {
    id: newId('dlv'),
    webhookId: hook.id,
    eventId: what.eventId,
    event: what.event,
    body: what.body,
    attempt: n,
    trigger: what.trigger,
    status: 'pending',
    responseStatus: null,
    createdAt: new Date().toISOString(),
    deliveredAt: null,
  };
  const log = state.deliveries.get(hook.id) ?? [];
  log.push(d);
  state.deliveries.set(hook.id, log);
  void send(state, hook, d, what);
  return d;
}

async function send(
  state: RowanState,
  hook: Webhook,
  d: Delivery,
  what: { eventId: string; event: string; body: string; trigger: string },
): Promise<void> {
  try {
    const res = await fetch(hook.url, {
      method: 'POST',
      headers: {
        'Content-Type': 'application/json',
        'User-Agent': 'Rowan-Webhooks/1.0',
        'X-Rowan-Signature': sign(hook.secret, d.body),
        'X-Rowan-Delivery': d.id,
        'X-Rowan-Event': d.event,
      },
      body: d.body,
      signal: AbortSignal.timeout(10_000),
    });
    await res.arrayBuffer().catch(() => undefined);
    d.responseStatus = res.status;
    d.status = res.ok ? 'delivered' : 'failed';
  } catch {
    d.status = 'failed';
  }
  d.deliveredAt = new Date().toISOString();
  const delay = RETRY_DELAYS_MS[d.attempt - 1];
  if (d.status === 'failed' && delay !== undefined && what.trigger !== 'resend') {
    state.later(delay, () => attempt(state, hook, { ...what, trigger: 'retry' }, d.attempt + 1));
  }
}

function present(d: Delivery): Record<string, unknown> {
  const { body: _body, ...rest } = d;
  return rest;
}

function ownHook(state: RowanState, tenant: string, id: string): Webhook {
  const hook = state.webhooks.get(id);
  // Another tenant's receiver is not told apart from a missing one.
  if (!hook || hook.tenant !== tenant) throw new ApiError('not_found', 'No webhook with this id.');
  return hook;
}

export function listDeliveries(ctx: Ctx, state: RowanState, tenant: string, id: string): void {
  const hook = ownHook(state, tenant, id);
  const all = [...(state.deliveries.get(hook.id) ?? [])].reverse().map(present);
  const p = paginate(ctx, all, 50);
  ok(ctx, { count: p.count, next: p.next, previous: p.previous, results: p.page });
}

export function resendDelivery(
  state: RowanState,
  tenant: string,
  id: string,
  deliveryId: string,
): { status: number; data: unknown } {
  const hook = ownHook(state, tenant, id);
  const original = (state.deliveries.get(hook.id) ?? []).find((d) => d.id === deliveryId);
  if (!original) throw new ApiError('not_found', 'No delivery with this id.');
  const d = attempt(
    state,
    hook,
    { eventId: original.eventId, event: original.event, body: original.body, trigger: 'resend' },
    1,
  );
  return { status: 200, data: { ...present(d), resentFrom: original.id } };
}
