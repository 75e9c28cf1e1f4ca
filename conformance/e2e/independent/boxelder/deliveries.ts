// The delivery log and the sending side of webhooks: deliveries are POSTed signed with
// `X-Boxelder-Signature: t=<unix>,v1=<hex HMAC-SHA256(key, "<t>.<body>")>` and numbered in
// `X-Boxelder-Delivery`; a failed attempt is tried again twice (1 s, then 2 s). The log is read at
// GET /webhooks/{webhook_id}/delivery-log and one delivery sent again by POST .../{delivery_id}/resend.
import { createHmac } from 'node:crypto';
import { record } from './audit.ts';
import { ApiError, type Ctx, ok, readBody } from './http.ts';
import { once } from './idempotency.ts';
import { nextId, nowIso, type Rec, type Store } from './state.ts';
import { owned } from './webhooks.ts';

export const SIGNATURE_HEADER = 'X-Boxelder-Signature';
export const DELIVERY_HEADER = 'X-Boxelder-Delivery';
const RETRY_MS = [1000, 2000];

export function deliveryLog(ctx: Ctx, id: string): void {
  const w = owned(ctx, id);
  const after = Number(ctx.url.searchParams.get('after') ?? '0');
  if (!Number.isSafeInteger(after) || after < 0)
    throw new ApiError('invalid_request', 'after must be a non-negative integer');
  const size = ctx.store.opts.deliveryPage;
  const all = ctx.store.deliveries.filter((d) => d.webhook_id === w.id && Number(d.id) > after);
  const deliveries = all.slice(0, size).map(({ body: _b, ...d }) => d);
  const last = deliveries[deliveries.length - 1];
  const next = all.length > size && last ? `${ctx.url.pathname}?after=${last.id}` : null;
  ok(ctx, { webhook_id: w.id, count: deliveries.length, deliveries, next_page: next });
}

export async function resend(ctx: Ctx, id: string, deliveryId: string): Promise<void> {
  const raw = await readBody(ctx.req);
  once(ctx, raw, () => {
    const w = owned(ctx, id);
    const d = ctx.store.deliveries.find((x) => x.id === deliveryId && x.webhook_id === w.id);
    if (!d) throw new ApiError('not_found', 'delivery not found');
    const again = send(ctx.store, w, d.event, d.event_id, d.body, d.id);
    record(ctx.store, ctx.tenant ?? '', ctx.clientId ?? '', 'delivery.resend', `delivery/${d.id}`);
    const { body: _b, ...view } = again;
    return view;
  });
}

/** Queues one delivery per receiver of `tenant` subscribed to `event`. */
export function dispatch(store: Store, tenant: string, event: string, data: Rec): void {
  for (const w of store.webhooks.values()) {
    if (w.tenant !== tenant || !w.events.includes(event)) continue;
    const eventId = `evt-${nextId(store, 'event')}`;
    const body = JSON.stringify({ id: eventId, type: event, created_at: nowIso(), data });
    send(store, w, event, eventId, body, null);
  }
}

function send(store: Store, w: Rec, event: string, eventId: string, body: string, of: string | null): Rec {
  const d: Rec = {
    id: String(nextId(store, 'delivery')),
    webhook_id: w.id,
    event,
    event_id: eventId,
    redelivery_of: of,
    attempts: 0,
    status: 'pending',
    status_code: null,
    created_at: nowIso(),
    body,
  };
  store.deliveries.push(d);
  if (store.opts.deliveryDelayMs <= 0) void attempt(store, w, d, 0);
  else {
    const timer = setTimeout(() => {
      store.timers.delete(timer);
      void attempt(store, w, d, 0);
    }, store.opts.deliveryDelayMs);
    store.timers.add(timer);
  }
  return d;
}

async function attempt(store: Store, w: Rec, d: Rec, n: number): Promise<void> {
  const t = Math.floor(Date.now() / 1000);
  const v1 = createHmac('sha256', w.signing_key).update(`${t}.${d.body}`).digest('hex');
  d.attempts = n + 1;
  try {
    const res = await fetch(w.url, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        [SIGNATURE_HEADER]: `t=${t},v1=${v1}`,
        [DELIVERY_HEADER]: d.id,
        'X-Boxelder-Event': d.event,
      },
      body: d.body,
      signal: AbortSignal.timeout(5000),
    });
    d.status_code = res.status;
    d.status = res.ok ? 'delivered' : 'failed';
  } catch {
    d.status = 'failed';
  }
  const wait = RETRY_MS[n];
  if (d.status === 'failed' && wait !== undefined && store.webhooks.has(w.id)) {
    const timer = setTimeout(() => {
      store.timers.delete(timer);
      void attempt(store, w, d, n + 1);
    }, wait);
    store.timers.add(timer);
  }
}
