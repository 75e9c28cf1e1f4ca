// Webhook receivers and their delivery log. Each delivery runs in its own worker (an OTP supervisor restarts a
// failed one with a growing pause, at most 4 attempts); the log keeps one row per delivery with its attempts.
import { createHmac, randomBytes } from 'node:crypto';
import { request } from 'node:http';
import { appendAudit } from './audit.ts';
import { type Ctx, invalid, jsonBody, notFound, ok } from './http.ts';
import { idempotent } from './idempotency.ts';
import { EVENT_NAMES, iso, type Rec, type Store, uuid7 } from './state.ts';

export const SIGNATURE_HEADER = 'x-bayberry-signature';
export const DELIVERY_HEADER = 'x-bayberry-delivery';
const RETRY_MS = [1000, 2000, 4000];

function sign(secret: string, raw: string): string {
  const t = Math.floor(Date.now() / 1000);
  return `t=${t},v1=${createHmac('sha256', secret).update(`${t}.${raw}`).digest('hex')}`;
}

function post(url: string, raw: string, headers: Record<string, string>): Promise<number> {
  return new Promise((resolve) => {
    const req = request(url, {
      method: 'POST',
      headers: { ...headers, 'content-length': Buffer.byteLength(raw) },
      timeout: 5000,
    });
    req.on('response', (res) => {
      res.resume();
      resolve(res.statusCode ?? 0);
    });
    req.on('timeout', () => req.destroy());
    req.on('error', () => resolve(0));
    req.end(raw);
  });
}

/** One delivery worker: signs afresh on every attempt (a new t), retries non-2xx answers. */
async function run(store: Store, delivery: Rec, secret: string, url: string): Promise<void> {
  for (let attempt = 0; attempt <= RETRY_MS.length; attempt++) {
    if (store.closed) return;
    const status = await post(url, delivery.raw, {
      'content-type': 'application/json',
      'user-agent': 'bayberry-webhooks/1.0',
      [SIGNATURE_HEADER]: sign(secret, delivery.raw),
      [DELIVERY_HEADER]: delivery.id,
    });
    delivery.attempts += 1;
    delivery.response_status = status;
    delivery.last_attempt_at = iso();
    if (status >= 200 && status < 300) {
      delivery.status = 'delivered';
      return;
    }
    delivery.status = attempt < RETRY_MS.length ? 'retrying' : 'failed';
    await new Promise((r) => setTimeout(r, RETRY_MS[attempt] ?? 0));
  }
}

export function start(store: Store, hook: Rec, eventId: string, type: string, raw: string, redeliveryOf?: string): Rec {
  const delivery: Rec = {
    id: uuid7(),
    webhook_id: hook.id,
    event_id: eventId,
    event_type: type,
    status: 'pending',
    attempts: 0,
    response_status: null,
    created_at: iso(),
    last_attempt_at: null,
    redelivery_of: redeliveryOf ?? null,
    raw,
  };
  store.deliveries.push(delivery);
  void run(store, delivery, hook.signing_secret, hook.url);
  return delivery;
}

export const shown = (d: Rec): Rec => {
  const { raw: _raw, ...rest } = d;
  return rest;
};

export function dispatch(store: Store, tenant: string, type: string, data: Rec): void {
  const eventId = uuid7();
  const raw = JSON.stringify({ id: eventId, type, created_at: iso(), tenant, data });
  for (const hook of store.webhooks.filter((h) => h.tenant === tenant && h.events.includes(type)))
    start(store, hook, eventId, type, raw);
}

export function createWebhook(store: Store, ctx: Ctx): void {
  idempotent(store, ctx, 'webhook.create', () => {
    const body = jsonBody(ctx);
    if (typeof body.url !== 'string' || !/^https?:\/\/[^\s/]+/.test(body.url))
      throw invalid('url: an http or https address');
    const events = body.events;
    if (
      !Array.isArray(events) ||
      events.length === 0 ||
      events.some((e) => typeof e !== 'string' || !EVENT_NAMES.includes(e))
    ) {
      throw invalid(`events: one of ${EVENT_NAMES.join(', ')}`);
    }
    const hook: Rec = {
      id: `wh_${randomBytes(9).toString('hex')}`,
      url: body.url,
      events,
      status: 'active',
      created_at: iso(),
    };
    const signing_secret = `whsec_${randomBytes(24).toString('base64url')}`;
    store.webhooks.push({ ...hook, tenant: ctx.tenant, signing_secret });
    appendAudit(store, ctx.tenant ?? '', {
      action: 'webhook.create',
      resource_type: 'webhook',
      resource_id: hook.id,
      actor: ctx.clientId ?? '',
      request_id: ctx.requestId,
    });
    return ok(ctx, { ...hook, signing_secret });
  });
}

export function own(store: Store, ctx: Ctx, id: string): Rec {
  const hook = store.webhooks.find((h) => h.id === id && h.tenant === ctx.tenant);
  if (!hook) throw notFound('webhook');
  return hook;
}

const view = (h: Rec): Rec => ({ id: h.id, url: h.url, events: h.events, status: h.status, created_at: h.created_at });

export function listWebhooks(store: Store, ctx: Ctx): void {
  const list = store.webhooks.filter((h) => h.tenant === ctx.tenant).map(view);
  ok(ctx, { count: list.length, webhooks: list });
}

export const getWebhook = (store: Store, ctx: Ctx, id: string) => ok(ctx, view(own(store, ctx, id)));

export function deleteWebhook(store: Store, ctx: Ctx, id: string): void {
  idempotent(store, ctx, `webhook.delete:${id}`, () => {
    const hook = own(store, ctx, id);
    store.webhooks = store.webhooks.filter((h) => h !== hook);
    appendAudit(store, ctx.tenant ?? '', {
      action: 'webhook.delete',
      resource_type: 'webhook',
      resource_id: id,
      actor: ctx.clientId ?? '',
      request_id: ctx.requestId,
    });
    return ok(ctx, { id, deleted: true });
  });
}
