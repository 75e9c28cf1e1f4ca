// Webhook receivers, signed deliveries (X-Mangrove-Signature: t=<unix>,v1=<hex HMAC-SHA256 of "t.body">),
// Sidekiq-style retries ((n**4) + 15 + rand(10 * (n + 1)) seconds, 5 attempts), the delivery log and
// redelivery (a new delivery of the same event, same event id).
import { createHmac, randomBytes } from 'node:crypto';
import { ApiError, type Ctx, iso, onlyFields } from './http.ts';
import { type Delivery, later, nextId, type Store, WEBHOOK_EVENTS, type Webhook } from './state.ts';

const MAX_ATTEMPTS = 5;

export function createWebhook(store: Store, ctx: Ctx, body: Record<string, unknown>): Webhook {
  onlyFields(body, ['url', 'events', 'description']);
  const url = body.url;
  let parsed: URL | undefined;
  try {
    parsed = typeof url === 'string' ? new URL(url) : undefined;
  } catch {
    parsed = undefined;
  }
  if (!parsed || !['http:', 'https:'].includes(parsed.protocol) || typeof url !== 'string' || url.length > 2048) {
    throw new ApiError('invalid_request', 'url must be an absolute http(s) URL', 'param: url');
  }
  const events = body.events;
  const known: readonly string[] = WEBHOOK_EVENTS;
  if (!Array.isArray(events) || events.length < 1 || events.length > known.length) {
    throw new ApiError('invalid_request', `events must list 1 to ${known.length} event names`, 'param: events');
  }
  for (const e of events) {
    if (typeof e !== 'string' || !known.includes(e)) {
      throw new ApiError('invalid_request', `events: one of ${known.join(', ')}`, 'param: events');
    }
  }
  if (new Set(events).size !== events.length) {
    throw new ApiError('invalid_request', 'events must not repeat a name', 'param: events');
  }
  const hook: Webhook = {
    id: nextId(store, 'webhooks'),
    tenant: ctx.tenant,
    url,
    events: events as string[],
    secret: `whsec_${randomBytes(24).toString('base64url')}`,
    active: true,
    created_at: iso(),
  };
  store.webhooks.push(hook);
  return hook;
}

/** The public view of a receiver (the signing key only in the creation answer). */
export function webhookView(hook: Webhook): Record<string, unknown> {
  return { id: hook.id, url: hook.url, events: hook.events, active: hook.active, created_at: hook.created_at };
}

export function deliveryView(d: Delivery): Record<string, unknown> {
  const { body, tenant, ...rest } = d;
  return { ...rest, payload: JSON.parse(body) };
}

export function findWebhook(store: Store, ctx: Ctx, id: string): Webhook {
  const hook = store.webhooks.find((w) => w.id === id && w.tenant === ctx.tenant && w.active);
  if (!hook) throw new ApiError('not_found', 'webhook not found');
  return hook;
}

/** Sends one event to every receiver of the tenant subscribed to it. */
export function emit(store: Store, tenant: string, event: string, data: Record<string, unknown>): void {
  const hooks = store.webhooks.filter((w) => w.tenant === tenant && w.active && w.events.includes(event));
  if (hooks.length === 0) return;
  const eventId = nextId(store, 'events');
  const body = JSON.stringify({ id: eventId, type: event, created_at: iso(), data });
  for (const hook of hooks) enqueue(store, hook, eventId, event, body, null);
}

export function enqueue(
  store: Store,
  hook: Webhook,
  eventId: string,
  event: string,
  body: string,
  redeliveryOf: string | null,
): Delivery {
  const d: Delivery = {
    id: nextId(store, 'webhook_deliveries'),
    webhook_id: hook.id,
    tenant: hook.tenant,
    event_id: eventId,
    event,
    body,
    status: 'pending',
    attempts: 0,
    response_status: null,
    redelivery_of: redeliveryOf,
    created_at: iso(),
    last_attempt_at: null,
    next_retry_at: null,
  };
  store.deliveries.push(d);
  later(store, 0, () => void attempt(store, hook, d));
  return d;
}

/** Redelivery in place (Sidekiq's "retry now" on the dead job): the same delivery, one more attempt. */
export function retryNow(store: Store, hook: Webhook, d: Delivery): Delivery {
  d.status = 'pending';
  later(store, 0, () => void attempt(store, hook, d));
  return d;
}

export function sign(secret: string, t: number, body: string): string {
  return `t=${t},v1=${createHmac('sha256', secret).update(`${t}.${body}`).digest('hex')}`;
}

async function attempt(store: Store, hook: Webhook, d: Delivery): Promise<void> {
  d.attempts += 1;
  d.last_attempt_at = iso();
  d.next_retry_at = null;
  const t = Math.floor(Date.now() / 1000);
  let status = 0;
  try {
    const res = await fetch(hook.url, {
      method: 'POST',
      body: d.body,
      redirect: 'manual',
      signal: AbortSignal.timeout(5000),
      headers: {
        'content-type': 'application/json',
        'user-agent': 'Mangrove-Webhooks/1.0',
        'X-Mangrove-Signature': sign(hook.secret, t, d.body),
        'X-Mangrove-Event': d.event,
        'X-Mangrove-Delivery': d.id,
      },
    });
    status = res.status;
    await res.arrayBuffer().catch(() => undefined);
  } catch {
    status = 0;
  }
  d.response_status = status || null;
  if (status >= 200 && status < 300) {
    d.status = 'succeeded';
    return;
  }
  if (d.attempts >= MAX_ATTEMPTS) {
    d.status = 'failed';
    return;
  }
  // Sidekiq's default backoff, in the store's "seconds".
  const n = d.attempts - 1;
  const seconds = n ** 4 + 15 + Math.floor(Math.random() * 10 * (n + 1));
  const ms = seconds * store.options.retrySecondMs;
  d.next_retry_at = iso(Date.now() + ms);
  later(store, ms, () => void attempt(store, hook, d));
}
