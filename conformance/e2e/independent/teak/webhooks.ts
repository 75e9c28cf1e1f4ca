// Webhook receivers, signed deliveries and their delivery log. Deliveries go out as the team's `crest`
// client sends them, with its own retry loop (3 attempts, doubling wait), signed with OpenSSL::HMAC:
// X-Teak-Signature: t=<unix>,v1=<hex hmac-sha256 of "t.rawBody">. Records keep snake_case keys: the
// interface shows none of these fields, so the team left its JSON::Serializable names unmapped.
import { createHmac, randomBytes } from 'node:crypto';
import { record } from './audit.ts';
import { type Ctx, halt, jsonBody } from './http.ts';
import { type Rec, type Store, snowflake, WEBHOOK_EVENTS } from './state.ts';

export const SIGNATURE_HEADER = 'X-Teak-Signature';
export const DELIVERY_HEADER = 'X-Teak-Delivery';
const pending = new Set<Promise<void>>();
// Receivers and delivery attempts are Granite rows with autoincrement Int64 keys, serialized as JSON numbers
// (their fields are not shown by the interface); connections keep their string ids.
let serial = 1000;

function publicView(w: Rec): Rec {
  const { signing_secret: _secret, tenant: _tenant, ...rest } = w;
  return rest;
}

export function receiverOf(store: Store, ctx: Ctx): Rec {
  const w = store.webhooks.get(ctx.params.webhookId ?? '');
  if (!w || w.tenant !== ctx.tenant) halt('not_found', 'no such webhook receiver for this tenant');
  return w;
}

/** POST /webhooks: the signing secret is in this answer (and its idempotent replay) only. */
export function createWebhook(store: Store, ctx: Ctx): Rec {
  const body = jsonBody(ctx);
  const url = body.url;
  if (typeof url !== 'string' || !/^https?:\/\/[^\s]+$/.test(url) || !URL.canParse(url)) {
    halt('invalid_request', 'url must be an http(s) address');
  }
  const events = body.events;
  const known = WEBHOOK_EVENTS as readonly string[];
  if (!Array.isArray(events) || events.length === 0 || events.some((e) => !known.includes(e))) {
    halt('invalid_request', `events: a non-empty list, each one of ${known.join(', ')}`);
  }
  const w: Rec = {
    id: ++serial,
    url,
    events: [...new Set(events as string[])],
    active: true,
    created_at: new Date().toISOString(),
    tenant: ctx.tenant,
    signing_secret: `whsec_${randomBytes(24).toString('hex')}`,
  };
  store.webhooks.set(String(w.id), w);
  store.deliveries.set(String(w.id), []);
  record(store, ctx.tenant ?? '', 'webhook.created', ['webhook', String(w.id)], ctx.clientId ?? '');
  return { ...publicView(w), signing_secret: w.signing_secret };
}

export function listWebhooks(store: Store, ctx: Ctx): Rec {
  const mine = [...store.webhooks.values()].filter((w) => w.tenant === ctx.tenant).map(publicView);
  return { count: mine.length, webhooks: mine };
}

export function showWebhook(store: Store, ctx: Ctx): Rec {
  return publicView(receiverOf(store, ctx));
}

export function deleteWebhook(store: Store, ctx: Ctx): Rec {
  const w = receiverOf(store, ctx);
  store.webhooks.delete(String(w.id));
  record(store, ctx.tenant ?? '', 'webhook.deleted', ['webhook', String(w.id)], ctx.clientId ?? '');
  return { id: w.id, deleted: true };
}

async function send(store: Store, w: Rec, d: Rec, raw: string): Promise<void> {
  for (let attempt = 1; attempt <= 3; attempt++) {
    d.attempts = attempt;
    const t = Math.floor(Date.now() / 1000);
    const v1 = createHmac('sha256', w.signing_secret).update(`${t}.${raw}`).digest('hex');
    try {
      const r = await fetch(w.url, {
        method: 'POST',
        headers: {
          'Content-Type': 'application/json',
          'User-Agent': 'Crest/1.4 (teak)',
          [SIGNATURE_HEADER]: `t=${t},v1=${v1}`,
          [DELIVERY_HEADER]: String(d.id),
          'X-Teak-Event': d.event,
        },
        body: raw,
        signal: AbortSignal.timeout(5000),
      });
      await r.arrayBuffer().catch(() => undefined);
      d.response_code = r.status;
      if (r.ok) {
        d.status = 'succeeded';
        d.delivered_at = new Date().toISOString();
        return;
      }
    } catch {
      d.response_code = null;
    }
    if (!store.webhooks.has(String(w.id))) break;
    await new Promise((done) => setTimeout(done, 250 * 2 ** attempt));
  }
  d.status = 'failed';
}

function dispatch(store: Store, w: Rec, eventId: string, event: string, raw: string, of?: string): Rec {
  const d: Rec = { id: ++serial, webhook_id: w.id, event_id: eventId, event, status: 'pending', attempts: 0 };
  d.response_code = null;
  d.created_at = new Date().toISOString();
  if (of) d.redelivery_of = of;
  d.payload = raw;
  store.deliveries.get(String(w.id))?.push(d);
  const p = send(store, w, d, raw).finally(() => pending.delete(p));
  pending.add(p);
  return d;
}

/** Sends `event` to every receiver of the tenant subscribed to it. */
export function emit(store: Store, tenant: string, event: string, data: Rec): void {
  const eventId = `evt_${snowflake(15n)}`;
  const raw = JSON.stringify({ id: eventId, event, created_at: new Date().toISOString(), tenant, data });
  for (const w of store.webhooks.values()) {
    if (w.tenant === tenant && w.events.includes(event)) dispatch(store, w, eventId, event, raw);
  }
}

function view(d: Rec): Rec {
  const { payload: _p, ...rest } = d;
  return rest;
}

/** GET /webhooks/:webhook_id/delivery_attempts: newest first. */
export function listDeliveries(store: Store, ctx: Ctx): Rec {
  const w = receiverOf(store, ctx);
  const all = [...(store.deliveries.get(String(w.id)) ?? [])].reverse().map(view);
  return { webhook_id: w.id, count: all.length, delivery_attempts: all };
}

/** POST /webhooks/:webhook_id/delivery_attempts/:attempt_id/retry: the same event and body, sent anew. */
export function redeliver(store: Store, ctx: Ctx): Rec {
  const w = receiverOf(store, ctx);
  const d = store.deliveries.get(String(w.id))?.find((x) => String(x.id) === ctx.params.attemptId);
  if (!d) halt('not_found', 'no such delivery attempt for this receiver');
  const again = dispatch(store, w, d.event_id, d.event, d.payload, d.id);
  record(store, ctx.tenant ?? '', 'webhook.redelivered', ['delivery_attempt', String(again.id)], ctx.clientId ?? '');
  return { delivery_attempt: view(again) };
}

export async function settleDeliveries(): Promise<void> {
  await Promise.allSettled([...pending]);
}
