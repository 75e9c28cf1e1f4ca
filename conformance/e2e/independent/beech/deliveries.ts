// The delivery log of a receiver (added in 2026-07-01): Kaminari-paged, newest first, and a retry that
// enqueues the logged delivery again as a new delivery of the same event (signed anew when sent).
import { pageParams, paginate, record } from './audit.ts';
import { ApiError, type Ctx } from './http-kit.ts';
import type { Beech, Delivery } from './state.ts';
import { enqueue, findWebhook, newDelivery } from './webhooks.ts';

export function presentDelivery(d: Delivery): Record<string, unknown> {
  return {
    id: d.id,
    webhookId: d.webhookId,
    eventId: d.eventId,
    event: d.event,
    status: d.status,
    attempts: d.attempts,
    responseStatus: d.responseStatus,
    lastError: d.lastError,
    retryOf: d.retryOf,
    createdAt: d.createdAt,
    created_at: d.createdAt,
    deliveredAt: d.deliveredAt,
  };
}

function sinceCurrent(ctx: Ctx): void {
  if (ctx.version < '2026-07-01') {
    throw new ApiError(
      'not_found',
      'No delivery log in this version',
      `Service-Version ${ctx.version}`,
      'send Service-Version: 2026-07-01',
    );
  }
}

export function deliveryLog(s: Beech, ctx: Ctx, webhookId: string): Record<string, unknown> {
  sinceCurrent(ctx);
  const w = findWebhook(s, ctx, webhookId);
  const { page, perPage } = pageParams(ctx, 25);
  const oldest = s.deliveries.filter((d) => d.webhookId === w.id);
  const all = s.options.oldestFirst === true ? oldest : oldest.reverse();
  const deliveries = paginate(ctx, all, page, perPage, s.options.noLinkHeader !== true).map(presentDelivery);
  return { webhookId: w.id, count: deliveries.length, deliveries };
}

export function retryDelivery(s: Beech, ctx: Ctx, webhookId: string, deliveryId: string) {
  sinceCurrent(ctx);
  const w = findWebhook(s, ctx, webhookId);
  const d = s.deliveries.find((x) => x.id === deliveryId && x.webhookId === w.id);
  if (d === undefined) throw new ApiError('not_found', "Couldn't find WebhookDelivery", `id ${deliveryId}`);
  const again = newDelivery(s, w, d.eventId, d.event, d.payload, d.id);
  enqueue(s, again);
  record(s, ctx, 'webhook_delivery.retry', 'WebhookDelivery', again.id, { retryOf: d.id });
  return { status: 200, data: presentDelivery(again) };
}
