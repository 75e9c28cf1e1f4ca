// The delivery log: GET /webhook-deliveries filtered by query parameters (webhookId, event, status),
// newest first, paged by cursor; GET /webhook-deliveries/{deliveryId}; and
// POST /webhook-deliveries/{deliveryId}/redeliver (Idempotency-Key), which sends the same event body again
// as a new delivery that names the one it repeats.

import { record } from './audit.ts';
import type { Access } from './auth.ts';
import { badRequest, type Ctx, notFound, ok } from './http-kit.ts';
import type { Delivery, State } from './state.ts';
import { ownWebhook, resendDelivery, startDelivery } from './webhooks.ts';

const STATUSES = ['pending', 'succeeded', 'failed'];

export const viewDelivery = (d: Delivery) => ({
  id: d.id,
  webhookId: d.webhookId,
  eventId: d.eventId,
  event: d.event,
  status: d.status,
  attemptCount: d.attempts.length,
  attempts: d.attempts,
  createdAt: d.createdAt,
  redeliveryOf: d.redeliveryOf ?? null,
});

export function listDeliveries(state: State, ctx: Ctx, access: Access): void {
  const q = ctx.url.searchParams;
  const webhookId = q.get('webhookId');
  if (webhookId !== null) ownWebhook(state, access, webhookId);
  const status = q.get('status');
  if (status !== null && !STATUSES.includes(status)) throw badRequest(`status must be one of ${STATUSES.join(', ')}`);
  const event = q.get('event');
  const limitRaw = q.get('limit');
  if (limitRaw !== null && !/^([1-9]\d{0,2})$/.test(limitRaw))
    throw badRequest('limit must be an integer from 1 to 999');
  const limit = limitRaw === null ? 100 : Number(limitRaw);
  const cursor = q.get('cursor');
  const all = [...state.deliveries.values()]
    .filter((d) => d.tenant === access.tenant)
    .filter((d) => webhookId === null || d.webhookId === webhookId)
    .filter((d) => status === null || d.status === status)
    .filter((d) => event === null || d.event === event)
    .reverse();
  let start = 0;
  if (cursor !== null) {
    start = all.findIndex((d) => d.id === cursor) + 1;
    if (start === 0) throw badRequest('cursor is not a delivery of this listing');
  }
  const page = all.slice(start, start + limit);
  const more = start + limit < all.length;
  ok(ctx, {
    count: page.length,
    deliveries: page.map(viewDelivery),
    nextCursor: more ? (page.at(-1)?.id ?? null) : null,
  });
}

export function ownDelivery(state: State, access: Access, id: string): Delivery {
  const d = state.deliveries.get(id);
  if (!d || d.tenant !== access.tenant) throw notFound('delivery not found', `no delivery ${id}`);
  return d;
}

export function getDelivery(state: State, ctx: Ctx, access: Access, id: string): void {
  ok(ctx, viewDelivery(ownDelivery(state, access, id)));
}

export function redeliver(state: State, ctx: Ctx, access: Access, id: string) {
  const original = ownDelivery(state, access, id);
  const hook = ownWebhook(state, access, original.webhookId);
  return () => {
    // In place: the logged delivery gets one more (manual) attempt under its own id; else a new delivery.
    const d = state.options.redeliverInPlace
      ? resendDelivery(state, original)
      : startDelivery(state, hook, original.eventId, original.event, original.body, original.id);
    record(
      state,
      access.tenant,
      access.clientId,
      'webhook.delivery.redelivered',
      { type: 'delivery', id: d.id },
      ctx.requestId,
    );
    return viewDelivery(d);
  };
}
