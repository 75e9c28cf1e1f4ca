// Webhook receivers of a tenant, signed deliveries (Hickory-Signature: t=..,v1=.., Hickory-Timestamp), the
// event log with nested attempts, and replay of one event. Retries: 3 attempts in all (after 1 s and 5 s).
import { createHmac } from 'node:crypto';
import { request as httpRequest } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { record } from './audit.ts';
import { later, type State, type Webhook, type WebhookEvent } from './state.ts';
import { ApiError, type Ctx, nanoid, type Result, stamp } from './util.ts';

export const EVENT_NAMES = [
  'connection.created',
  'connection.activated',
  'connection.suspended',
  'order.created',
  'order.paid',
];
const RETRY_MS = [1000, 5000];

function view(w: Webhook): Record<string, unknown> {
  return { id: w.id, url: w.url, events: w.events, state: w.state, createdAt: w.createdAt, description: w.description };
}

export function createWebhook(state: State, ctx: Ctx, body: Record<string, unknown>): Result {
  const url = String(body.url);
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new ApiError('invalid_request', 'url must be an absolute http(s) address.');
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') {
    throw new ApiError('invalid_request', 'url must be an absolute http(s) address.');
  }
  const events = body.events as string[];
  const unknown = events.find((e) => !EVENT_NAMES.includes(e));
  if (unknown)
    throw new ApiError('invalid_request', `Unknown event ${unknown}: events: one of ${EVENT_NAMES.join(', ')}.`);
  const w: Webhook = {
    id: nanoid(),
    tenant: ctx.tenant ?? '',
    url,
    events: [...events],
    description: typeof body.description === 'string' ? body.description : undefined,
    signingKey: `whsec_${nanoid()}${nanoid()}`,
    state: 'active',
    createdAt: stamp(state.options.timeOffsetMin),
    log: [],
  };
  state.webhooks.set(w.id, w);
  record(state, w.tenant, 'webhook.created', ctx.clientId ?? '', { type: 'webhook', id: w.id }, ctx.idempotencyKey);
  // The signing key is shown in this answer only (and its idempotent replay); never again.
  return { status: 200, data: { ...view(w), signingKey: w.signingKey } };
}

export function ownWebhook(state: State, ctx: Ctx): Webhook {
  const w = state.webhooks.get(ctx.params.id ?? '');
  if (!w || w.tenant !== ctx.tenant) throw new ApiError('not_found', 'No webhook with this id for this tenant.');
  return w;
}

export function listWebhooks(state: State, ctx: Ctx): Result {
  const list = [...state.webhooks.values()].filter((w) => w.tenant === ctx.tenant).map(view);
  return { status: 200, data: { count: list.length, webhooks: list } };
}

export function deleteWebhook(state: State, ctx: Ctx): Result {
  const w = ownWebhook(state, ctx);
  state.webhooks.delete(w.id);
  record(state, w.tenant, 'webhook.deleted', ctx.clientId ?? '', { type: 'webhook', id: w.id }, ctx.idempotencyKey);
  return { status: 200, data: { id: w.id, deleted: true } };
}

export function eventLog(state: State, ctx: Ctx): Result {
  const w = ownWebhook(state, ctx);
  const events = w.log.map((e) => ({
    event_id: e.event_id,
    type: e.type,
    created_at: e.created_at,
    delivery_attempts: e.delivery_attempts,
  }));
  return { status: 200, data: { count: events.length, events } };
}

export function replayEvent(state: State, ctx: Ctx): Result {
  const w = ownWebhook(state, ctx);
  const event = w.log.find((e) => e.event_id === ctx.params.eventId);
  if (!event) throw new ApiError('not_found', 'No event with this id for this webhook.');
  const attemptId = deliver(state, w, event, 'replay', 0);
  record(
    state,
    w.tenant,
    'webhook.event.replayed',
    ctx.clientId ?? '',
    { type: 'webhook-event', id: event.event_id },
    ctx.idempotencyKey,
  );
  return { status: 200, data: { event_id: event.event_id, attempt_id: attemptId, status: 'pending' } };
}

/** Emits an event of a tenant to every receiver subscribed to it. */
export function emit(state: State, tenant: string, type: string, data: Record<string, unknown>): void {
  for (const w of state.webhooks.values()) {
    if (w.tenant !== tenant || !w.events.includes(type)) continue;
    const event_id = nanoid();
    const created_at = stamp(state.options.timeOffsetMin);
    const payload = JSON.stringify({ id: event_id, type, created_at, data });
    const event: WebhookEvent = { event_id, type, created_at, payload, delivery_attempts: [] };
    w.log.push(event);
    const send = () => {
      deliver(state, w, event, 'event', 0);
      if (state.options.duplicateDeliveries) deliver(state, w, event, 'duplicate', RETRY_MS.length);
    };
    if (state.options.relayDelayMs > 0) later(state, state.options.relayDelayMs, send);
    else send();
  }
}

/** One signed attempt; a failed automatic attempt is retried on the schedule. Returns the attempt id. */
function deliver(state: State, w: Webhook, event: WebhookEvent, trigger: string, retry: number): string {
  const attempt = { attempt_id: nanoid(), status: 'pending', at: stamp(state.options.timeOffsetMin), trigger };
  event.delivery_attempts.push(attempt);
  const t = Math.floor(Date.now() / 1000);
  const v1 = createHmac('sha256', w.signingKey).update(`${t}.${event.payload}`).digest('hex');
  let settled = false;
  const settle = (ok: boolean, status?: number) => {
    if (settled) return;
    settled = true;
    Object.assign(attempt, { status: ok ? 'delivered' : 'failed' }, status ? { http_status: status } : {});
    const wait = RETRY_MS[retry];
    if (!ok && trigger === 'event' && wait !== undefined && state.webhooks.has(w.id)) {
      later(state, wait, () => deliver(state, w, event, trigger, retry + 1));
    }
  };
  const request = w.url.startsWith('https:') ? httpsRequest : httpRequest;
  const req = request(w.url, {
    method: 'POST',
    timeout: 5000,
    headers: {
      'content-type': 'application/json',
      'content-length': Buffer.byteLength(event.payload),
      'user-agent': 'hickory-webhooks/1.0',
      'hickory-signature': `t=${t},v1=${v1}`,
      'hickory-timestamp': String(t),
      'hickory-event-id': event.event_id,
      'hickory-event-type': event.type,
    },
  });
  req.on('response', (res) => {
    res.resume();
    settle((res.statusCode ?? 500) < 300, res.statusCode);
  });
  req.on('timeout', () => req.destroy());
  req.on('error', () => settle(false));
  req.end(event.payload);
  return attempt.attempt_id;
}
