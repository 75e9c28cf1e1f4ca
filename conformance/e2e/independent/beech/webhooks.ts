// Webhook receivers and their deliveries, sent by a Sidekiq-like queue: one job per delivery, retried with
// exponential backoff, then "dead". Signed at the moment of sending: t=<unix>,v1=HMAC-SHA256(key, t.body).
import { createHmac, randomBytes, randomUUID } from 'node:crypto';
import { record } from './audit.ts';
import { ApiError, type Ctx } from './http-kit.ts';
import { type Beech, type Delivery, later, nextId, stamp, type Webhook } from './state.ts';
import { textList } from './validate.ts';

export const EVENT_NAMES = ['connection.created', 'connection.activated', 'order.created', 'order.paid'];
export const SIGNATURE_HEADER = 'X-Beech-Signature';
export const DELIVERY_HEADER = 'X-Beech-Delivery';

export function validateRegistration(body: Record<string, unknown>): void {
  const url = body.url;
  if (typeof url !== 'string' || url.length > 2048) throw new ApiError('invalid_request', 'url must be a string');
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new ApiError('invalid_request', 'url is not a valid URL');
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:')
    throw new ApiError('invalid_request', 'url must be http or https');
  const events = textList(body, 'events', 1, 20);
  const unknown = events.find((e) => !EVENT_NAMES.includes(e));
  if (unknown !== undefined) {
    throw new ApiError(
      'invalid_request',
      `events: ${unknown} is not a known event`,
      `events: one of ${EVENT_NAMES.join(', ')}`,
    );
  }
}

export function present(w: Webhook): Record<string, unknown> {
  return { id: w.id, url: w.url, events: w.events, active: w.active, createdAt: w.createdAt, created_at: w.createdAt };
}

export function registerWebhook(s: Beech, ctx: Ctx, body: Record<string, unknown>) {
  validateRegistration(body);
  const w: Webhook = {
    id: nextId(s, 'webhooks'),
    tenant: ctx.tenant ?? '-',
    url: String(body.url),
    events: [...new Set(body.events as string[])],
    signingKey: `whsec_${randomBytes(24).toString('hex')}`,
    active: true,
    createdAt: stamp(s),
  };
  s.webhooks.push(w);
  record(s, ctx, 'webhook.create', 'Webhook', w.id, { url: w.url, events: w.events });
  return {
    status: 200,
    data: {
      ...present(w),
      signingKey: w.signingKey,
      signatureHeader: SIGNATURE_HEADER,
      deliveryHeader: DELIVERY_HEADER,
    },
  };
}

export function findWebhook(s: Beech, ctx: Ctx, id: string): Webhook {
  const w = s.webhooks.find((x) => x.id === id && x.tenant === ctx.tenant && x.active);
  if (w === undefined)
    throw new ApiError('not_found', "Couldn't find Webhook", `id ${id}`, 'compare identifier and tenant header');
  return w;
}

export function deleteWebhook(s: Beech, ctx: Ctx, id: string) {
  const w = findWebhook(s, ctx, id);
  w.active = false;
  record(s, ctx, 'webhook.destroy', 'Webhook', w.id, { active: false });
  return { status: 200, data: { id: w.id, deleted: true } };
}

/** An event of a tenant: one delivery per active receiver subscribed to it. */
export function enqueueEvent(s: Beech, tenant: string, event: string, data: Record<string, unknown>): void {
  const eventId = randomUUID();
  const at = stamp(s);
  for (const w of s.webhooks) {
    if (w.tenant !== tenant || !w.active || !w.events.includes(event)) continue;
    const payload = JSON.stringify({ id: eventId, event, createdAt: at, webhookId: w.id, data });
    enqueue(s, newDelivery(s, w, eventId, event, payload, null));
  }
}

export function newDelivery(
  s: Beech,
  w: Webhook,
  eventId: string,
  event: string,
  payload: string,
  retryOf: string | null,
): Delivery {
  const d: Delivery = {
    id: nextId(s, 'webhook_deliveries'),
    webhookId: w.id,
    tenant: w.tenant,
    eventId,
    event,
    payload,
    status: 'enqueued',
    attempts: 0,
    responseStatus: null,
    lastError: null,
    retryOf,
    createdAt: stamp(s),
    deliveredAt: null,
  };
  s.deliveries.push(d);
  return d;
}

export function enqueue(s: Beech, d: Delivery, delayMs = 0): void {
  later(s, delayMs, () => void perform(s, d));
}

async function perform(s: Beech, d: Delivery): Promise<void> {
  const w = s.webhooks.find((x) => x.id === d.webhookId);
  if (w === undefined) return;
  d.attempts += 1;
  d.status = 'running';
  const t = Math.floor(Date.now() / 1000);
  const v1 = createHmac('sha256', w.signingKey).update(`${t}.${d.payload}`).digest('hex');
  try {
    const host = new URL(w.url).hostname;
    // The sandbox only delivers to loopback receivers.
    if (host !== '127.0.0.1' && host !== 'localhost' && host !== '[::1]')
      throw new Error('receiver host not allowed in the sandbox');
    const r = await fetch(w.url, {
      method: 'POST',
      headers: {
        'Content-Type': 'application/json',
        'User-Agent': 'Beech-Webhooks/1.0 (Sidekiq)',
        [SIGNATURE_HEADER]: `t=${t},v1=${v1}`,
        [DELIVERY_HEADER]: d.id,
        'X-Beech-Event': d.event,
        'X-Beech-Webhook-Id': w.id,
      },
      body: d.payload,
      signal: AbortSignal.timeout(5000),
    });
    await r.arrayBuffer().catch(() => undefined);
    d.responseStatus = r.status;
    if (r.ok) {
      d.status = 'succeeded';
      d.deliveredAt = stamp(s);
      d.lastError = null;
      return;
    }
    d.lastError = `receiver answered ${r.status}`;
  } catch (e) {
    d.lastError = e instanceof Error ? e.message.slice(0, 200) : 'delivery failed';
  }
  if (d.attempts <= s.options.maxRetries) {
    d.status = 'retrying';
    enqueue(s, d, 1000 * 3 ** (d.attempts - 1));
  } else {
    d.status = 'dead';
  }
}
