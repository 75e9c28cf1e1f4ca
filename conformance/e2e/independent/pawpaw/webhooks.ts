// Webhook receivers and their delivery attempts: signed POSTs (Pawpaw-Signature: t=…,v1=…), a @Scheduled
// retry of failed attempts with backoff, the delivery-attempt log (a Micronaut Data Page) and a retry endpoint.
import { createHmac, randomBytes, randomUUID } from 'node:crypto';
import { record } from './audit.ts';
import { bad, type Ctx, HttpProblem, jsonBody, ok } from './http.ts';
import { idempotent } from './idempotency.ts';
import { page } from './paging.ts';
import { EVENTS, instant, type Rec, type Store } from './state.ts';

export const SIGNATURE_HEADER = 'Pawpaw-Signature';
export const DELIVERY_HEADER = 'Pawpaw-Delivery-Id';
const MAX_ATTEMPTS = 5;

export function register(store: Store, ctx: Ctx) {
  idempotent(store, ctx, () => {
    const body = jsonBody(ctx);
    const url = body.url;
    if (typeof url !== 'string' || !/^https?:\/\/127\.0\.0\.1(:\d+)?(\/|$)/.test(url))
      throw bad('url: must be an http(s) URL this sandbox can reach (127.0.0.1)');
    const events = body.events;
    if (!Array.isArray(events) || events.length === 0 || events.some((e) => !EVENTS.includes(e)))
      throw bad(`events: one of ${EVENTS.join(', ')}`);
    const signingKey = `whsec_${randomBytes(24).toString('base64url')}`;
    const hook = {
      id: randomUUID(),
      tenant: ctx.tenant,
      url,
      events,
      status: 'ENABLED',
      createdAt: instant(undefined, store.options.utcOffsetMinutes),
      signingKey,
    };
    store.webhooks.push(hook);
    record(store, String(ctx.tenant), 'WEBHOOK_CREATED', hook.id, ctx.clientId, { url });
    // The key is in this answer only (and its replay); listings never show it.
    return { ...view(hook), signingKey, signatureHeader: SIGNATURE_HEADER };
  });
}

const view = ({ tenant: _t, signingKey: _k, ...h }: Rec) => h;

export function find(store: Store, ctx: Ctx, id: string): Rec {
  const hook = store.webhooks.find((h) => h.id === id && h.tenant === ctx.tenant && h.status !== 'DELETED');
  if (!hook)
    throw new HttpProblem('not_found', `Webhook ${id} not found`, undefined, 'Compare identifier and tenant header.');
  return hook;
}

export function list(store: Store, ctx: Ctx) {
  const hooks = store.webhooks.filter((h) => h.tenant === ctx.tenant && h.status !== 'DELETED').map(view);
  ok(ctx, { count: hooks.length, webhooks: hooks });
}

export function remove(store: Store, ctx: Ctx, id: string) {
  idempotent(store, ctx, () => {
    const hook = find(store, ctx, id);
    hook.status = 'DELETED';
    record(store, String(ctx.tenant), 'WEBHOOK_DELETED', hook.id, ctx.clientId, {});
    return view(hook);
  });
}

export function dispatch(store: Store, tenant: string, type: string, event: Rec) {
  const body = JSON.stringify({ id: event.eventId, type, createdAt: event.occurredAt, data: event.connection });
  for (const hook of store.webhooks)
    if (hook.tenant === tenant && hook.status === 'ENABLED' && hook.events.includes(type)) {
      const d = newDelivery(store, hook, event.eventId, type, body);
      // The outbox row waits for the relay job; otherwise the first attempt goes out at once.
      if (store.options.outbox) d.nextAttemptAt = Date.now();
      else void attempt(store, d);
    }
}

function newDelivery(store: Store, hook: Rec, eventId: string, type: string, body: string, of?: string): Rec {
  const d: Rec = {
    id: randomUUID(),
    webhookId: hook.id,
    eventId,
    event: type,
    status: 'PENDING',
    attempts: 0,
    createdAt: instant(undefined, store.options.utcOffsetMinutes),
    body,
  };
  if (of) d.redeliveryOf = of;
  store.deliveries.push(d);
  return d;
}

async function attempt(store: Store, d: Rec) {
  const hook = store.webhooks.find((h) => h.id === d.webhookId);
  if (!hook) return;
  d.attempts += 1;
  d.lastAttemptAt = instant(undefined, store.options.utcOffsetMinutes);
  const t = Math.floor(Date.now() / 1000);
  const v1 = createHmac('sha256', hook.signingKey).update(`${t}.${d.body}`).digest('hex');
  try {
    const r = await fetch(hook.url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', [SIGNATURE_HEADER]: `t=${t},v1=${v1}`, [DELIVERY_HEADER]: d.id },
      body: d.body,
      signal: AbortSignal.timeout(5000),
    });
    d.responseStatus = r.status;
    d.status = r.ok ? 'SUCCEEDED' : 'FAILED';
  } catch {
    d.responseStatus = null;
    d.status = 'FAILED';
  }
  if (d.status === 'FAILED' && d.attempts < MAX_ATTEMPTS)
    d.nextAttemptAt = Date.now() + store.options.schedulerMs * 2 ** (d.attempts - 1);
  else delete d.nextAttemptAt;
}

/** The @Scheduled(fixedDelay) job: failed attempts due for a retry are sent again. */
export function retryDue(store: Store) {
  for (const d of store.deliveries)
    if (d.nextAttemptAt && d.nextAttemptAt <= Date.now()) {
      delete d.nextAttemptAt;
      void attempt(store, d);
    }
}

const logView = ({ body: _b, nextAttemptAt: _n, ...d }: Rec) => d;

/** GET /webhooks/{id}/delivery-attempts: newest first, as a Page. */
export function deliveryLog(store: Store, ctx: Ctx, id: string) {
  const hook = find(store, ctx, id);
  const rows = store.deliveries
    .filter((d) => d.webhookId === hook.id)
    .reverse()
    .map(logView);
  ok(ctx, page(ctx, rows, 100));
}

/** POST /webhooks/{id}/delivery-attempts/{attemptId}/retry: the same event again, as a new attempt. */
export function redeliver(store: Store, ctx: Ctx, id: string, attemptId: string) {
  idempotent(store, ctx, () => {
    const hook = find(store, ctx, id);
    const d = store.deliveries.find((x) => x.id === attemptId && x.webhookId === hook.id);
    if (!d) throw new HttpProblem('not_found', `Delivery attempt ${attemptId} not found`);
    const again = newDelivery(store, hook, d.eventId, d.event, d.body, d.id);
    void attempt(store, again);
    return logView(again);
  });
}
