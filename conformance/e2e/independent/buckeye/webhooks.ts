// Webhook receivers and their signed deliveries. Header `Buckeye-Signature: t=<unix>,v1=<hex>` where v1 is
// HMAC-SHA256 (signing key) over `<t>.<raw body>`; `Buckeye-Delivery` names the delivery in the log,
// `Buckeye-Event` the event. A failed attempt is retried after 2 s and 10 s, then the delivery is failed.
import { createHmac, randomBytes } from 'node:crypto';
import { record } from './audit.ts';
import type { Access } from './auth.ts';
import { badRequest, type Ctx, notFound } from './http-kit.ts';
import { type Delivery, later, type State, type Webhook } from './state.ts';
import { newId, strings, timestamp } from './values.ts';

export const SIGNATURE_HEADER = 'Buckeye-Signature';
const RETRY_DELAYS = [2000, 10_000];
export const WEBHOOK_EVENTS = ['connection.created', 'connection.enabled', 'order.created', 'order.paid'];

export function sign(key: string, body: string, t = Math.floor(Date.now() / 1000)): string {
  return `t=${t},v1=${createHmac('sha256', key).update(`${t}.${body}`).digest('hex')}`;
}

/** The receiver as listed (the signing key is shown in the creation answer only). */
export const view = (w: Webhook) => ({
  id: w.id,
  url: w.url,
  events: w.events,
  active: w.active,
  createdAt: w.createdAt,
});

export function createWebhook(state: State, ctx: Ctx, access: Access, body: Record<string, unknown>) {
  const url = body.url;
  if (typeof url !== 'string' || url.length > 2048) throw badRequest('url must be a string of at most 2048 characters');
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw badRequest('url must be an absolute http or https address');
  }
  if (parsed.protocol !== 'https:' && parsed.protocol !== 'http:')
    throw badRequest('url must be an http or https address');
  const events = strings(body, 'events', 1, WEBHOOK_EVENTS.length, 2, 80);
  const unknown = events.filter((e) => !WEBHOOK_EVENTS.includes(e));
  if (unknown.length > 0)
    throw badRequest(`unknown event ${unknown.join(', ')}`, `events: one of ${WEBHOOK_EVENTS.join(', ')}`);
  return () => {
    const hook: Webhook = {
      id: newId('whk'),
      tenant: access.tenant,
      url,
      events,
      signingKey: `whsk_${randomBytes(32).toString('base64url')}`,
      createdAt: timestamp(),
      active: true,
    };
    state.webhooks.set(hook.id, hook);
    record(state, access.tenant, access.clientId, 'webhook.created', { type: 'webhook', id: hook.id }, ctx.requestId);
    return {
      ...view(hook),
      signingKey: hook.signingKey,
      signature: {
        header: SIGNATURE_HEADER,
        format: 't=<unix-seconds>,v1=<hex hmac-sha256 over t.body>',
        toleranceSeconds: 300,
      },
    };
  };
}

/** The tenant's own receiver, or 404 (another tenant's is not told apart from a missing one). */
export function ownWebhook(state: State, access: Access, id: string): Webhook {
  const hook = state.webhooks.get(id);
  if (!hook || hook.tenant !== access.tenant || !hook.active) throw notFound('webhook not found', `no webhook ${id}`);
  return hook;
}

export function deleteWebhook(state: State, ctx: Ctx, access: Access, id: string) {
  const hook = ownWebhook(state, access, id);
  return () => {
    hook.active = false;
    record(state, access.tenant, access.clientId, 'webhook.deleted', { type: 'webhook', id: hook.id }, ctx.requestId);
    return { id: hook.id, deleted: true };
  };
}

async function attempt(state: State, d: Delivery, trigger: 'event' | 'retry' | 'manual', round: number): Promise<void> {
  const hook = state.webhooks.get(d.webhookId);
  if (!hook) return;
  const entry: Delivery['attempts'][number] = { at: timestamp(), statusCode: null, trigger };
  d.attempts.push(entry);
  try {
    const res = await fetch(hook.url, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        'user-agent': 'buckeye-webhooks/1.0',
        [SIGNATURE_HEADER]: sign(hook.signingKey, d.body),
        'Buckeye-Delivery': d.id,
        'Buckeye-Event': d.event,
      },
      body: d.body,
      signal: AbortSignal.timeout(5000),
    });
    entry.statusCode = res.status;
    await res.body?.cancel();
    if (res.ok) {
      d.status = 'succeeded';
      return;
    }
  } catch (err) {
    entry.error = err instanceof Error && err.name === 'TimeoutError' ? 'timeout' : 'connection_failed';
  }
  const delay = RETRY_DELAYS[round];
  if (delay === undefined) {
    d.status = 'failed';
    return;
  }
  later(state, delay, () => void attempt(state, d, 'retry', round + 1));
}

/** One more attempt of a logged delivery, under its own id (the in-place redelivery). */
export function resendDelivery(state: State, d: Delivery): Delivery {
  d.status = 'pending';
  void attempt(state, d, 'manual', RETRY_DELAYS.length);
  return d;
}

export function startDelivery(
  state: State,
  hook: Webhook,
  eventId: string,
  event: string,
  body: string,
  redeliveryOf?: string,
): Delivery {
  const d: Delivery = {
    id: newId('dlv'),
    webhookId: hook.id,
    tenant: hook.tenant,
    eventId,
    event,
    body,
    status: 'pending',
    attempts: [],
    createdAt: timestamp(),
  };
  if (redeliveryOf) d.redeliveryOf = redeliveryOf;
  state.deliveries.set(d.id, d);
  const first = () => void attempt(state, d, redeliveryOf ? 'manual' : 'event', 0);
  // An outbox relay: deliveries leave after `relayDelayMs` (0: at once).
  if (state.options.relayDelayMs > 0) later(state, state.options.relayDelayMs, first);
  else first();
  return d;
}

/** Sends one event to every active receiver of the tenant subscribed to it. */
export function deliverEvent(
  state: State,
  tenant: string,
  event: { id: string; type: string; createdAt: string; data: unknown },
): void {
  const body = JSON.stringify({ id: event.id, type: event.type, createdAt: event.createdAt, tenant, data: event.data });
  for (const hook of state.webhooks.values()) {
    if (hook.tenant === tenant && hook.active && hook.events.includes(event.type))
      startDelivery(state, hook, event.id, event.type, body);
  }
}
