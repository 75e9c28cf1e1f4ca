// Webhook receivers and deliveries: an arq-like job per delivery, retried with a deferred back-off,
// signed `t=<unix>,v1=<hmac-sha256 hex of "t.rawBody">` in X-Myrtle-Signature.
import { createHmac, randomBytes, randomUUID } from 'node:crypto';
import { ApiError, type Ctx, isoNow, pyDumps, type Rec } from './http.ts';
import type { Store } from './state.ts';

export const EVENT_NAMES = ['connection.created', 'connection.state_changed', 'order.created', 'order.paid'];
const TRIES = 3;

export function createWebhook(s: Store, ctx: Ctx, body: Rec): Rec {
  const url = body.url;
  if (typeof url !== 'string' || !/^https?:\/\/[^\s]+$/.test(url) || url.length > 2000)
    throw new ApiError('invalid_request', 'Field url must be an http(s) address.');
  const events = body.events;
  if (!Array.isArray(events) || events.length < 1 || !events.every((e) => EVENT_NAMES.includes(e)))
    throw new ApiError('invalid_request', `Field events: one of ${EVENT_NAMES.join(', ')}.`);
  const hook = { id: randomUUID(), url, events, active: true, createdAt: isoNow() };
  const signingKey = `whsec_${randomBytes(24).toString('hex')}`;
  s.webhooks.push({ ...hook, tenant: ctx.tenant, signingKey });
  // The key appears in this answer only; the stored row keeps it for signing, never for reading.
  return { ...hook, signingKey };
}

function own(s: Store, ctx: Ctx, id: string): Rec {
  const hook = s.webhooks.find((w) => w.id === id && w.tenant === ctx.tenant && w.active);
  if (!hook) throw new ApiError('not_found', 'Webhook not found.');
  return hook;
}

export function deleteWebhook(s: Store, ctx: Ctx, id: string): Rec {
  const hook = own(s, ctx, id);
  hook.active = false;
  return { id, deleted: true };
}

export function listDeliveries(s: Store, ctx: Ctx, id: string): Rec {
  own(s, ctx, id);
  const deliveries = s.deliveries.filter((d) => d.webhookId === id).map(({ body: _b, ...d }) => d);
  return { count: deliveries.length, deliveries };
}

export function redeliver(s: Store, ctx: Ctx, id: string, deliveryId: string): Rec {
  own(s, ctx, id);
  const d = s.deliveries.find((x) => x.webhookId === id && x.id === deliveryId);
  if (!d) throw new ApiError('not_found', 'Delivery not found.');
  const again: Rec = { ...d, id: randomUUID(), redeliveryOf: d.id, status: 'queued', tries: 0, createdAt: isoNow() };
  s.deliveries.push(again);
  void attempt(s, again);
  const { body: _b, ...shown } = again;
  return shown;
}

export function deliverEvent(s: Store, tenant: string, event: string, data: Rec): void {
  for (const w of s.webhooks.filter((x) => x.tenant === tenant && x.active && x.events.includes(event))) {
    const eventId = randomUUID();
    const body = pyDumps({ id: eventId, type: event, createdAt: isoNow(), data });
    const d = {
      id: randomUUID(),
      webhookId: w.id,
      eventId,
      event,
      status: 'queued',
      tries: 0,
      createdAt: isoNow(),
      body,
    };
    s.deliveries.push(d);
    void attempt(s, d);
  }
}

async function attempt(s: Store, d: Rec): Promise<void> {
  const hook = s.webhooks.find((w) => w.id === d.webhookId);
  if (!hook) return;
  d.tries += 1;
  const t = Math.floor(Date.now() / 1000);
  const sig = createHmac('sha256', hook.signingKey).update(`${t}.${d.body}`).digest('hex');
  try {
    const r = await fetch(hook.url, {
      method: 'POST',
      headers: {
        'Content-Type': 'application/json',
        'X-Myrtle-Signature': `t=${t},v1=${sig}`,
        'X-Myrtle-Delivery': d.id,
      },
      body: d.body,
      signal: AbortSignal.timeout(5000),
    });
    d.status = r.ok ? 'delivered' : 'failed';
    d.responseStatus = r.status;
  } catch {
    d.status = 'failed';
  }
  // arq's Retry(defer=...): a failed job is deferred and tried again, a few times only.
  if (d.status === 'failed' && d.tries < TRIES) setTimeout(() => void attempt(s, d), 1000 * d.tries).unref();
}
