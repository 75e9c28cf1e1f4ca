// The delivery log (version 2026-07-01): a receiver's deliveries, newest first, and a selective re-trigger.
// Paths (not shown by the contract): GET /webhooks/{webhookId}/delivery-attempts and
// POST /webhooks/{webhookId}/delivery-attempts/{attemptId}/retry.
import { record } from './audit.ts';
import { ApiError, type Ctx, ok, parseJson } from './http.ts';
import { idempotencyBefore, okRemembered } from './idempotency.ts';
import type { Rec, Store } from './state.ts';
import { attempt, ownHook } from './webhooks.ts';

const view = (d: Rec) => ({
  id: d.id,
  'webhook-id': d['webhook-id'],
  'event-id': d['event-id'],
  event: d.event,
  status: d.status,
  'attempt-count': d.attempts.length,
  attempts: d.attempts.map((a: Rec) => ({ ...a })),
});

export function listDeliveries(store: Store, ctx: Ctx) {
  const hook = ownHook(store, ctx);
  const deliveries = [...store.deliveries.values()]
    .filter((d) => d['webhook-id'] === hook.id)
    .reverse()
    .map(view);
  ok(ctx, { 'webhook-id': hook.id, count: deliveries.length, deliveries });
}

export async function retryDelivery(store: Store, ctx: Ctx) {
  const body = ctx.raw?.trim() ? parseJson(ctx) : {};
  if (idempotencyBefore(store, ctx, body)) return;
  const hook = ownHook(store, ctx);
  const delivery = store.deliveries.get(ctx.params.attemptId ?? '');
  if (!delivery || delivery['webhook-id'] !== hook.id) throw new ApiError(404, 'not_found', 'Delivery not found');
  record(store, ctx.tenant ?? '', 'delivery.retried', delivery.id, ctx.clientId);
  // Sent now, not queued: the caller asked for this one delivery again.
  await attempt(store, delivery);
  okRemembered(store, ctx, body, view(delivery));
}
