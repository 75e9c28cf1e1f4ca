// Webhooks: receivers per tenant, signed deliveries (`Webhook-Signature: t=<unix>,v1=<hex>`, HMAC-SHA256
// keyed with the receiver's secret over "<t>.<raw body>"), a delivery log and selective re-triggering.
// Retries: two more attempts, after 2 s and 10 s, each signed anew. Only loopback receivers (sandbox egress).
import { createHmac, randomBytes } from 'node:crypto';
import { record } from './audit.ts';
import { type Delivery, later, type State, type Webhook } from './state.ts';
import { type Answer, fail, isObject, ok, ulid } from './util.ts';

export const WEBHOOK_EVENTS = ['connection.created', 'connection.live', 'order.created', 'order.paid'];
const RETRY_DELAYS_MS = [2_000, 10_000];

export const publicWebhook = (w: Webhook) => ({
  id: w.id,
  url: w.url,
  events: w.events,
  active: w.active,
  createdAt: w.createdAt,
});

export function sign(secret: string, body: string, t = Math.floor(Date.now() / 1000)): string {
  return `t=${t},v1=${createHmac('sha256', secret).update(`${t}.${body}`).digest('hex')}`;
}

export function register(state: State, tenant: string, body: unknown, actor: string, requestId: string): Answer {
  if (!isObject(body)) return fail('invalid_request', 'body must be a JSON object');
  const { url, events } = body;
  if (typeof url !== 'string' || url.length > 2048) return fail('invalid_request', 'url must be a string');
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return fail('invalid_request', 'url must be an absolute http(s) address');
  }
  if (!/^https?:$/.test(parsed.protocol)) return fail('invalid_request', 'url must be http or https');
  if (!['127.0.0.1', 'localhost', '[::1]'].includes(parsed.hostname))
    return fail('invalid_request', 'the sandbox delivers to loopback receivers only');
  if (!Array.isArray(events) || events.length < 1 || events.length > 20)
    return fail('invalid_request', 'events must be an array of 1 to 20 event names');
  for (const e of events)
    if (typeof e !== 'string' || !WEBHOOK_EVENTS.includes(e))
      return fail('invalid_request', `events: one of ${WEBHOOK_EVENTS.join(', ')}`);
  const w: Webhook = {
    id: `wh_${ulid()}`,
    tenant,
    url,
    events: [...new Set(events as string[])],
    secret: `whsec_${randomBytes(24).toString('base64url')}`,
    createdAt: new Date().toISOString(),
    active: true,
  };
  state.webhooks.push(w);
  record(state, tenant, { action: 'webhook.created', resourceType: 'webhook', resourceId: w.id, actor, requestId });
  // The secret is in this answer only (and its idempotent replay); never listed again.
  return ok({ ...publicWebhook(w), secret: w.secret, signatureHeader: 'Webhook-Signature' });
}

export function findWebhook(state: State, tenant: string, id: string): Webhook | undefined {
  return state.webhooks.find((w) => w.id === id && w.tenant === tenant && w.active);
}

/** Fan an event of a tenant out to its subscribed receivers. */
export function emit(state: State, tenant: string, event: string, data: Record<string, unknown>): void {
  const eventId = `evt_${ulid()}`;
  const body = JSON.stringify({ id: eventId, type: event, createdAt: new Date().toISOString(), data });
  for (const w of state.webhooks)
    if (w.active && w.tenant === tenant && w.events.includes(event)) queue(state, w, eventId, event, body);
}

function queue(state: State, w: Webhook, eventId: string, event: string, body: string, retriggerOf?: string): Delivery {
  const d: Delivery = {
    id: `dlv_${ulid()}`,
    webhookId: w.id,
    tenant: w.tenant,
    eventId,
    event,
    body,
    status: 'pending',
    attempts: [],
    createdAt: new Date().toISOString(),
    ...(retriggerOf ? { retriggerOf } : {}),
  };
  state.deliveries.push(d);
  // Deliveries go through a queue whose consumer may batch for a while (Workers Queues' max_batch_timeout).
  if (state.opts.queueDelayMs > 0) later(state, state.opts.queueDelayMs, () => void attempt(state, w, d, 0));
  else void attempt(state, w, d, 0);
  return d;
}

async function attempt(state: State, w: Webhook, d: Delivery, n: number): Promise<void> {
  let status: number | null = null;
  try {
    const res = await fetch(w.url, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        'user-agent': 'hornbeam-webhooks/1',
        'Webhook-Signature': sign(w.secret, d.body),
        'Webhook-Id': d.id,
        'Webhook-Event': d.event,
      },
      body: d.body,
      signal: AbortSignal.timeout(5_000),
    });
    status = res.status;
    await res.body?.cancel();
  } catch {
    status = null;
  }
  const good = status !== null && status >= 200 && status < 300;
  // No network detail is logged (it could name internal hosts): an outcome word only.
  const outcome = good ? 'delivered' : status === null ? 'unreachable' : 'rejected';
  d.attempts.push({ at: new Date().toISOString(), responseStatus: status, outcome });
  const delay = RETRY_DELAYS_MS[n];
  if (good) d.status = 'delivered';
  else if (delay === undefined || !w.active) d.status = 'failed';
  else later(state, delay, () => void attempt(state, w, d, n + 1));
}

export const deliveryView = (d: Delivery) => ({
  id: d.id,
  webhookId: d.webhookId,
  eventId: d.eventId,
  event: d.event,
  status: d.status,
  attempts: d.attempts,
  createdAt: d.createdAt,
  retriggerOf: d.retriggerOf ?? null,
});

export function deliveryLog(state: State, tenant: string, webhookId: string | null): Answer {
  if (!webhookId) return fail('invalid_request', 'query parameter webhookId is required');
  if (!findWebhook(state, tenant, webhookId)) return fail('not_found', 'no such webhook for this tenant');
  const list = state.deliveries.filter((d) => d.webhookId === webhookId).map(deliveryView);
  return ok({ webhookId, count: list.length, deliveries: list });
}

export function retrigger(state: State, tenant: string, deliveryId: string, actor: string, requestId: string): Answer {
  const d = state.deliveries.find((x) => x.id === deliveryId && x.tenant === tenant);
  const w = d && findWebhook(state, tenant, d.webhookId);
  if (!d || !w) return fail('not_found', 'no such delivery for this tenant');
  const again = queue(state, w, d.eventId, d.event, d.body, d.id);
  record(state, tenant, {
    action: 'delivery.retriggered',
    resourceType: 'delivery',
    resourceId: again.id,
    actor,
    requestId,
  });
  return ok({ delivery: deliveryView(again) });
}

export function remove(state: State, tenant: string, id: string, actor: string, requestId: string): Answer {
  const w = findWebhook(state, tenant, id);
  if (!w) return fail('not_found', 'no such webhook for this tenant');
  w.active = false;
  record(state, tenant, { action: 'webhook.deleted', resourceType: 'webhook', resourceId: id, actor, requestId });
  return ok({ id, deleted: true });
}
