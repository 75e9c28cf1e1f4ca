// Webhook receivers (POST /webhooks, DELETE /webhooks/{webhook}) and the delivery log
// (GET /webhooks/{webhook}/deliveries, POST /webhooks/{webhook}/deliveries/{delivery}/retry).
import { randomBytes } from 'node:crypto';
import { record } from './audit.ts';
import type { IdempotencyStore } from './idempotency.ts';
import { attempt, newDelivery } from './queue.ts';
import { type DeliveryRow, later, nextId, type State, type WebhookRow } from './state.ts';
import { ApiError, type Ctx, invalid, ok, stamp } from './support.ts';
import { asObject, intParam } from './validate.ts';

export const EVENT_NAMES = ['connection.created', 'connection.activated', 'order.created', 'order.paid'];

function present(w: WebhookRow) {
  return { id: w.id, url: w.url, events: w.events, status: 'active', created_at: w.createdAt };
}

function by(ctx: Ctx, key: string | null) {
  return { clientId: ctx.clientId ?? '', requestId: ctx.requestId, key, url: ctx.url.pathname };
}

function validate(body: Record<string, unknown>): { url: string; events: string[] } {
  const url = body.url;
  if (url === undefined || url === null) throw invalid('url', 'The url field is required.');
  if (typeof url !== 'string') throw invalid('url', 'The url field must be a string.');
  let parsed: URL | null = null;
  try {
    parsed = new URL(url);
  } catch {}
  if (!parsed || !/^https?:$/.test(parsed.protocol) || url.length > 2048) {
    throw invalid('url', 'The url field must be a valid http or https URL.');
  }
  const events = body.events;
  if (events === undefined || events === null) throw invalid('events', 'The events field is required.');
  if (!Array.isArray(events)) throw invalid('events', 'The events field must be an array.');
  if (events.length < 1 || events.length > EVENT_NAMES.length) {
    throw invalid('events', `The events field must have between 1 and ${EVENT_NAMES.length} items.`);
  }
  events.forEach((e, i) => {
    if (typeof e !== 'string' || !EVENT_NAMES.includes(e)) {
      throw invalid(`events.${i}`, `The selected events.${i} is invalid (one of ${EVENT_NAMES.join(', ')}).`);
    }
  });
  return { url, events: events as string[] };
}

export function registerWebhook(state: State, idem: IdempotencyStore, ctx: Ctx): void {
  const key = idem.requireKey(ctx);
  const body = asObject(ctx.body);
  const { url, events } = validate(body);
  const tenant = ctx.tenant ?? '';
  const issued: { answer?: Record<string, unknown> } = {};
  idem.handle(ctx, key, 'webhooks.store', body, () => {
    const w: WebhookRow = {
      id: nextId(state, 'whk'),
      tenant,
      url,
      events,
      secret: `whsec_${randomBytes(32).toString('base64url')}`,
      createdAt: stamp(),
      deleted: false,
    };
    state.webhooks.push(w);
    record(state, tenant, 'webhook.created', { type: 'webhook', id: w.id }, by(ctx, key), { url, events });
    issued.answer = { ...present(w), signing_secret: w.secret };
    return issued.answer;
  });
  // "Issued exactly once": with the switch on, a replay answers everything but the secret.
  if (issued.answer && state.opts.redactKeyOnReplay) {
    const { signing_secret: _secret, ...rest } = issued.answer;
    idem.patch(ctx, key, rest);
  }
}

function ownWebhook(state: State, ctx: Ctx, id: string): WebhookRow {
  const w = state.webhooks.find((x) => x.id === id && x.tenant === ctx.tenant && !x.deleted);
  if (!w) throw new ApiError('not_found', 'No query results for model [Webhook].');
  return w;
}

export function deleteWebhook(state: State, idem: IdempotencyStore, ctx: Ctx, id: string): void {
  const key = idem.requireKey(ctx);
  idem.handle(ctx, key, `webhooks.destroy:${id}`, {}, () => {
    const w = ownWebhook(state, ctx, id);
    w.deleted = true;
    record(state, ctx.tenant ?? '', 'webhook.deleted', { type: 'webhook', id }, by(ctx, key), {});
    return { id, deleted: true };
  });
}

function presentDelivery(d: DeliveryRow) {
  const last = d.attempts.at(-1);
  return {
    id: d.id,
    webhook_id: d.webhookId,
    event_id: d.eventId,
    event: d.event,
    status: d.status,
    attempts_count: d.attempts.length,
    response_status: last?.status_code ?? null,
    last_attempt_at: last?.attempted_at ?? null,
    retry_of: d.retryOf,
    attempts: d.attempts,
    created_at: d.createdAt,
  };
}

export function listDeliveries(state: State, ctx: Ctx, id: string): void {
  const w = ownWebhook(state, ctx, id);
  const perPage = intParam(
    ctx.url.searchParams.get('limit'),
    'limit',
    Math.min(15, state.opts.pageMax ?? 100),
    1,
    state.opts.pageMax ?? 100,
  );
  const page = intParam(ctx.url.searchParams.get('page'), 'page', 1, 1, 1_000_000);
  const mine = state.deliveries.filter((d) => d.webhookId === w.id);
  const rows = state.opts.oldestFirst ? mine : mine.reverse();
  const lastPage = Math.max(1, Math.ceil(rows.length / perPage));
  const slice = rows.slice((page - 1) * perPage, page * perPage);
  const path = `${ctx.origin}/api/public/v1/webhooks/${w.id}/deliveries`;
  const link = (p: number) => `${path}?limit=${perPage}&page=${p}`;
  const from = slice.length ? (page - 1) * perPage + 1 : null;
  ok(ctx, {
    webhook_id: w.id,
    deliveries: slice.map(presentDelivery),
    links: {
      first: link(1),
      last: link(lastPage),
      prev: page > 1 ? link(page - 1) : null,
      next: page < lastPage ? link(page + 1) : null,
    },
    meta: {
      current_page: page,
      from,
      last_page: lastPage,
      path,
      per_page: perPage,
      to: from === null ? null : from + slice.length - 1,
      total: rows.length,
    },
  });
}

export function retryDelivery(state: State, idem: IdempotencyStore, ctx: Ctx, id: string, deliveryId: string): void {
  const key = idem.requireKey(ctx);
  idem.handle(ctx, key, `deliveries.retry:${id}:${deliveryId}`, {}, () => {
    const w = ownWebhook(state, ctx, id);
    const d = state.deliveries.find((x) => x.id === deliveryId && x.webhookId === w.id);
    if (!d) throw new ApiError('not_found', 'No query results for model [Delivery].');
    const again = newDelivery(state, w.id, w.tenant, d.eventId, d.event, d.body, d.id);
    later(state, state.opts.queueDelayMs ?? 0, () => attempt(state, again));
    record(state, w.tenant, 'delivery.retried', { type: 'delivery', id: again.id }, by(ctx, key), {
      retry_of: d.id,
    });
    return presentDelivery(again);
  });
}
