// Webhook receivers of a tenant (integer ids), their delivery log at /webhooks/:webhook_id/delivery_attempts
// (newest first, will_paginate's `page`/`per_page`) and a selective retry of one attempt, which enqueues a new
// attempt of the same event (same body and event id, new attempt id).
import { randomBytes } from 'node:crypto';
import { recordAudit } from './audit.ts';
import { deliveryView, enqueue, retryNow } from './delivery.ts';
import { type Ctx, Halt, invalid, onlyKeys } from './http.ts';
import { nextId, type Rec, rubyTime, WEBHOOK_EVENTS } from './state.ts';

const notFound = (what: string) =>
  new Halt(
    404,
    'not_found',
    'The entry does not exist.',
    `${what} not found`,
    'Compare the identifier and the tenant header.',
  );

function ownHook(ctx: Ctx): Rec {
  const id = Number(ctx.params.webhook_id);
  const hook = ctx.store.webhooks.find((w) => w.tenant === ctx.tenant && w.row.id === id && w.row.active);
  if (!hook) throw notFound('webhook');
  return hook;
}

export function createWebhook(ctx: Ctx): Rec {
  const body = ctx.body ?? {};
  onlyKeys(ctx, body, ['url', 'events']);
  const url = body.url;
  if (typeof url !== 'string' || !/^https?:\/\/[^\s/]+/i.test(url) || url.length > 2048)
    throw invalid('url must be an http(s) URL');
  const events = body.events;
  if (!Array.isArray(events) || events.length < 1) throw invalid('events must be a non-empty array');
  for (const e of events) {
    if (typeof e !== 'string' || !WEBHOOK_EVENTS.includes(e))
      throw invalid(`events: each one of ${WEBHOOK_EVENTS.join(', ')}`);
  }
  const secret = `whsec_${randomBytes(24).toString('hex')}`;
  const row = { id: nextId(ctx.store, 'webhooks'), url, events, active: true, created_at: rubyTime(ctx.store) };
  ctx.store.webhooks.push({ tenant: ctx.tenant, row, secret });
  recordAudit(ctx, 'create', 'Webhook', row.id, { url, events });
  // The secret is in this answer only (and its idempotent replay); no later read shows it.
  return { ...row, secret };
}

export function showWebhook(ctx: Ctx): Rec {
  return ownHook(ctx).row;
}

export function listWebhooks(ctx: Ctx): Rec {
  const webhooks = ctx.store.webhooks.filter((w) => w.tenant === ctx.tenant && w.row.active).map((w) => w.row);
  return { count: webhooks.length, webhooks };
}

export function deleteWebhook(ctx: Ctx): Rec {
  const hook = ownHook(ctx);
  hook.row.active = false;
  recordAudit(ctx, 'destroy', 'Webhook', hook.row.id, { active: false });
  return { id: hook.row.id, deleted: true };
}

export function listDeliveries(ctx: Ctx): Rec {
  const hook = ownHook(ctx);
  const q = ctx.url.searchParams;
  const perPage = Math.min(Math.max(Number(q.get('per_page') ?? 30) || 30, 1), 100);
  const page = Math.max(Number(q.get('page') ?? 1) || 1, 1);
  const all = ctx.store.deliveries.filter((d) => d.webhook_id === hook.row.id).reverse();
  const totalPages = Math.max(1, Math.ceil(all.length / perPage));
  if (page < totalPages) {
    const u = new URL(ctx.url.pathname, ctx.origin);
    u.searchParams.set('page', String(page + 1));
    u.searchParams.set('per_page', String(perPage));
    ctx.headers.link = `<${u}>; rel="next"`;
  }
  const delivery_attempts = all.slice((page - 1) * perPage, page * perPage).map(deliveryView);
  return {
    webhook_id: hook.row.id,
    current_page: page,
    per_page: perPage,
    total_entries: all.length,
    delivery_attempts,
  };
}

export function retryDelivery(ctx: Ctx): Rec {
  const hook = ownHook(ctx);
  const id = Number(ctx.params.attempt_id);
  const original = ctx.store.deliveries.find((d) => d.id === id && d.webhook_id === hook.row.id);
  if (!original) throw notFound('delivery attempt');
  if (ctx.store.options.retryInPlace) {
    recordAudit(ctx, 'retry', 'DeliveryAttempt', original.id, { attempts: original.attempts + 1 });
    return deliveryView(retryNow(ctx.store, original));
  }
  const attempt = enqueue(
    ctx.store,
    hook.row.id,
    { id: original.event_id, event: original.event, raw: original.body },
    original.id,
  );
  recordAudit(ctx, 'retry', 'DeliveryAttempt', original.id, { retried_as: attempt.id });
  return deliveryView(attempt);
}
