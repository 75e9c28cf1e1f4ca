// Webhook deliveries: signed POSTs (Mulberry-Signature: t=<unix>,v1=<hex HMAC-SHA256 of "t.body">,
// Mulberry-Delivery-Id), retried after 2 s and 8 s on a non-2xx answer, each recorded in the
// delivery log; GET /deliveries?webhook_id= and POST /deliveries/{id}/redeliver (a new delivery of
// the same event and body).
import { createHmac } from 'node:crypto';
import { record } from './audit.ts';
import { ApiError, type Ctx, invalid, ok } from './http.ts';
import { idempotent } from './idempotency.ts';
import { ksuid, later, now, type State } from './state.ts';

export const SIGNATURE_HEADER = 'Mulberry-Signature';
export const DELIVERY_HEADER = 'Mulberry-Delivery-Id';

export interface Webhook {
  id: string;
  tenant: string;
  url: string;
  events: string[];
  signingKey: string;
  createdAt: string;
  deleted?: boolean;
}

export interface Delivery {
  id: string;
  webhookId: string;
  eventId: string;
  eventType: string;
  status: 'pending' | 'delivered' | 'failed';
  attempts: { attempt: number; at: string; statusCode: number | null; error?: string }[];
  createdAt: string;
  redeliveryOf?: string;
}

interface Tables {
  webhooks: Map<string, Webhook>;
  deliveries: Map<string, { d: Delivery; tenant: string; body: string }>;
}
const all = new WeakMap<object, Tables>();

export function tables(state: State): Tables {
  let t = all.get(state);
  if (!t) {
    t = { webhooks: new Map(), deliveries: new Map() };
    all.set(state, t);
  }
  return t;
}

export function sign(key: string, body: string, t: number): string {
  return `t=${t},v1=${createHmac('sha256', key).update(`${t}.${body}`).digest('hex')}`;
}

async function attempt(state: State, hook: Webhook, d: Delivery, body: string, n: number): Promise<void> {
  const t = Math.floor(Date.now() / 1000);
  let statusCode: number | null = null;
  let error: string | undefined;
  try {
    const r = await fetch(hook.url, {
      method: 'POST',
      headers: {
        'Content-Type': 'application/json; charset=utf-8',
        [SIGNATURE_HEADER]: sign(hook.signingKey, body, t),
        [DELIVERY_HEADER]: d.id,
        'Mulberry-Event': d.eventType,
        'User-Agent': 'mulberry-webhooks/1',
      },
      body,
      signal: AbortSignal.timeout(5000),
    });
    statusCode = r.status;
    await r.arrayBuffer().catch(() => undefined);
  } catch (e) {
    error = e instanceof Error ? e.message : 'send failed';
  }
  d.attempts.push({ attempt: n, at: now(state), statusCode, ...(error ? { error } : {}) });
  if (statusCode !== null && statusCode >= 200 && statusCode < 300) {
    d.status = 'delivered';
    return;
  }
  const wait = state.opts.retryDelaysMs[n - 1];
  if (wait === undefined || hook.deleted) d.status = 'failed';
  else later(state, wait, () => void attempt(state, hook, d, body, n + 1));
}

/** Records one delivery of `body` to `hook` and sends it. */
export function deliver(
  state: State,
  hook: Webhook,
  eventId: string,
  eventType: string,
  body: string,
  redeliveryOf?: string,
): Delivery {
  const d: Delivery = {
    id: ksuid(),
    webhookId: hook.id,
    eventId,
    eventType,
    status: 'pending',
    attempts: [],
    createdAt: now(state),
  };
  if (redeliveryOf) d.redeliveryOf = redeliveryOf;
  tables(state).deliveries.set(d.id, { d, tenant: hook.tenant, body });
  // relayDelayMs: an outbox relayed later instead of sending at once.
  if (state.opts.relayDelayMs > 0) later(state, state.opts.relayDelayMs, () => void attempt(state, hook, d, body, 1));
  else void attempt(state, hook, d, body, 1);
  return d;
}

export function listDeliveries(ctx: Ctx): void {
  const id = ctx.url.searchParams.get('webhook_id');
  if (!id) throw invalid('Query webhook_id is required.', 'webhook_id: missing');
  const hook = tables(ctx.state).webhooks.get(id);
  if (!hook || hook.tenant !== ctx.auth?.tenant)
    throw new ApiError('not_found', 'Webhook not found.', `webhook_id: ${id}`);
  const deliveries = [...tables(ctx.state).deliveries.values()]
    .filter((x) => x.d.webhookId === id)
    .map((x) => x.d)
    .reverse();
  ok(ctx, { webhookId: id, count: deliveries.length, deliveries });
}

export function redeliver(ctx: Ctx, deliveryId: string): Promise<void> {
  return idempotent(ctx, () => {
    const t = tables(ctx.state);
    const rec = t.deliveries.get(deliveryId);
    const hook = rec && t.webhooks.get(rec.d.webhookId);
    if (!rec || !hook || rec.tenant !== ctx.auth?.tenant)
      throw new ApiError('not_found', 'Delivery not found.', `id: ${deliveryId}`);
    if (hook.deleted) throw new ApiError('not_found', 'Webhook was deleted.', `webhook_id: ${hook.id}`);
    if (ctx.state.opts.redeliverSameId) {
      // The same delivery (same Mulberry-Delivery-Id) sent once more; its log entry gains an attempt.
      rec.d.status = 'pending';
      void attempt(ctx.state, hook, rec.d, rec.body, rec.d.attempts.length + 1);
      record(ctx.state, hook.tenant, 'delivery.redelivered', rec.d.id);
      return rec.d;
    }
    const d = deliver(ctx.state, hook, rec.d.eventId, rec.d.eventType, rec.body, rec.d.id);
    record(ctx.state, hook.tenant, 'delivery.redelivered', d.id);
    return d;
  });
}
