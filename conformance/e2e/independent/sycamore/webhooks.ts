// Webhook receivers: registration (signing key issued in the answer), signed deliveries (X-Sycamore-Signature:
// t=<unix>,v1=<hex>), two retries, the delivery log and resend. Deliveries are queued like a Laravel job.
import { request } from 'node:http';
import { audit } from './events.ts';
import { ApiError, type Ctx, ok, readJson } from './http.ts';
import { type Delivery, later, type State, type Webhook } from './state.ts';
import { iso, newId, secret, signBody } from './util.ts';
import { idempotent, onlyFields, readKey } from './validate.ts';

export const WEBHOOK_EVENTS = ['connection.created', 'connection.activated', 'order.created', 'order.paid'];
const RETRY_DELAYS_MS = [1000, 5000];

function publicView(w: Webhook) {
  return { id: w.id, url: w.url, events: w.events, status: 'active', created_at: w.created_at };
}

export async function createWebhook(state: State, ctx: Ctx): Promise<void> {
  readKey(ctx, true);
  const body = await readJson(ctx);
  onlyFields(body, ['url', 'events', 'description']);
  const url = body.url;
  if (typeof url !== 'string' || url.length > 2048 || !/^https?:\/\/[^\s]+$/i.test(url) || !URL.canParse(url)) {
    throw new ApiError('invalid_request', 'url: must be an http(s) address', 'Send the receiver address.');
  }
  const events = body.events;
  if (!Array.isArray(events) || events.length === 0 || events.length > 20) {
    throw new ApiError(
      'invalid_request',
      'events: must be a list of 1 to 20 event names',
      `events: one of ${WEBHOOK_EVENTS.join(', ')}`,
    );
  }
  for (const e of events) {
    if (typeof e !== 'string' || !WEBHOOK_EVENTS.includes(e)) {
      throw new ApiError(
        'invalid_request',
        `events: unknown event ${String(e)}`,
        `events: one of ${WEBHOOK_EVENTS.join(', ')}`,
      );
    }
  }
  const tenant = ctx.tenant ?? '';
  idempotent(state, ctx, 'webhook.create', body, () => {
    const w: Webhook = {
      id: newId('whk'),
      tenant,
      url,
      events: [...new Set(events as string[])],
      signingKey: secret('whsec_', 32),
      created_at: iso(),
      deleted: false,
    };
    state.webhooks.set(w.id, w);
    state.deliveries.set(w.id, []);
    audit(state, tenant, ctx.clientId ?? '', 'webhook.created', w.id);
    return { ...publicView(w), signing_secret: w.signingKey, signature_header: 'X-Sycamore-Signature' };
  });
}

/** The tenant's receiver, or 404 (another tenant's receiver does not exist for this one). */
function own(state: State, ctx: Ctx, id: string, evenDeleted = false): Webhook {
  const w = state.webhooks.get(id);
  if (!w || (w.deleted && !evenDeleted) || w.tenant !== ctx.tenant) throw gone(id);
  return w;
}

const gone = (id: string) => new ApiError('not_found', `no webhook ${id}`, 'Compare identifier and tenant header.');

export async function deleteWebhook(state: State, ctx: Ctx, id: string): Promise<void> {
  readKey(ctx, true);
  await readJson(ctx).catch(() => ({}));
  // A removed receiver is still found here, so the removal repeated with its key replays instead of 404.
  const w = own(state, ctx, id, true);
  idempotent(state, ctx, `webhook.delete|${id}`, {}, () => {
    if (w.deleted) throw gone(id);
    w.deleted = true;
    audit(state, w.tenant, ctx.clientId ?? '', 'webhook.deleted', w.id);
    return { id: w.id, deleted: true };
  });
}

function view(d: Delivery) {
  const { body: _body, ...rest } = d;
  return rest;
}

/** The delivery log arrived with 2026-07-01; optionally a 2026-06-12 caller does not see it. */
function since2026_07_01(state: State, ctx: Ctx): void {
  if (state.opts.versionGatedDeliveryLog && ctx.version === '2026-06-12') {
    throw new ApiError(
      'not_found',
      'The delivery log is part of version 2026-07-01.',
      'Send Service-Version: 2026-07-01.',
    );
  }
}

export function listDeliveries(state: State, ctx: Ctx, id: string): void {
  since2026_07_01(state, ctx);
  const w = own(state, ctx, id);
  const list = [...(state.deliveries.get(w.id) ?? [])].reverse().map(view);
  ok(ctx, { webhook_id: w.id, count: list.length, deliveries: list });
}

/** POST …/deliveries/{deliveryId}/resend: a new delivery of the same event, signed afresh; key required. */
export async function resend(state: State, ctx: Ctx, id: string, deliveryId: string): Promise<void> {
  since2026_07_01(state, ctx);
  readKey(ctx, true);
  await readJson(ctx).catch(() => ({}));
  const w = own(state, ctx, id);
  const original = (state.deliveries.get(w.id) ?? []).find((d) => d.id === deliveryId);
  if (!original) throw new ApiError('not_found', `no delivery ${deliveryId}`, 'GET the delivery log of the webhook.');
  idempotent(state, ctx, `delivery.resend|${id}|${deliveryId}`, {}, () => {
    if (state.opts.resendSameDelivery) {
      // The same delivery record is sent again (one more attempt), as a re-dispatched queue job would be.
      original.status = 'queued';
      later(state, state.opts.queueDelayMs, () => attempt(state, w, original, true));
      audit(state, w.tenant, ctx.clientId ?? '', 'delivery.resent', original.id);
      return { ...view(original), status: 'queued' };
    }
    const d = enqueue(state, w, original.event, original.event_id, original.body, original.id);
    audit(state, w.tenant, ctx.clientId ?? '', 'delivery.resent', d.id);
    return view(d);
  });
}

/** Queues one delivery per subscribed receiver of the tenant. */
export function notify(state: State, tenant: string, event: string, payload: Record<string, unknown>): void {
  for (const w of state.webhooks.values()) {
    if (w.deleted || w.tenant !== tenant || !w.events.includes(event)) continue;
    const eventId = newId('evt');
    const body = JSON.stringify({ id: eventId, event, created_at: iso(), webhook_id: w.id, data: payload });
    enqueue(state, w, event, eventId, body, null);
  }
}

function enqueue(
  state: State,
  w: Webhook,
  event: string,
  eventId: string,
  body: string,
  resendOf: string | null,
): Delivery {
  const d: Delivery = {
    id: newId('dlv'),
    webhook_id: w.id,
    event_id: eventId,
    event,
    status: 'queued',
    attempts: 0,
    response_status: null,
    resend_of: resendOf,
    created_at: iso(),
    delivered_at: null,
    body,
  };
  state.deliveries.get(w.id)?.push(d);
  later(state, state.opts.queueDelayMs, () => attempt(state, w, d));
  return d;
}

function attempt(state: State, w: Webhook, d: Delivery, once = false): void {
  d.attempts++;
  const t = Math.floor(Date.now() / 1000);
  const retry = (status: number | null) => {
    d.response_status = status;
    const wait = once ? undefined : RETRY_DELAYS_MS[d.attempts - 1];
    if (wait === undefined || w.deleted) d.status = 'failed';
    else {
      d.status = 'retrying';
      later(state, wait, () => attempt(state, w, d));
    }
  };
  const req = request(w.url, {
    method: 'POST',
    timeout: 5000,
    headers: {
      'Content-Type': 'application/json',
      'User-Agent': 'sycamore-webhooks/1.0',
      'X-Sycamore-Signature': signBody(w.signingKey, t, d.body),
      'X-Sycamore-Event': d.event,
      'X-Sycamore-Delivery': d.id,
      'X-Sycamore-Event-Id': d.event_id,
    },
  });
  req.on('response', (res) => {
    res.resume();
    const code = res.statusCode ?? 0;
    if (code >= 200 && code < 300) {
      d.status = 'delivered';
      d.response_status = code;
      d.delivered_at = iso();
    } else retry(code);
  });
  req.on('timeout', () => req.destroy());
  req.on('error', () => retry(null));
  req.end(d.body);
}
