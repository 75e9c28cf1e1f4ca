// The delivery log of a receiver and its redelivery (paths not shown by the interface: bayberry's own
// `/webhooks/{webhookId}/delivery-attempts` and `.../{attemptId}/replay`).
import { appendAudit } from './audit.ts';
import { type Ctx, notFound, ok } from './http.ts';
import { idempotent } from './idempotency.ts';
import type { Store } from './state.ts';
import { own, shown, start } from './webhooks.ts';

export function listAttempts(store: Store, ctx: Ctx, id: string): void {
  own(store, ctx, id);
  const all = store.deliveries.filter((d) => d.webhook_id === id).map(shown);
  const size = store.options.deliveryPageSize;
  if (!size) {
    ok(ctx, { webhook_id: id, count: all.length, deliveries: all });
    return;
  }
  // Paged newest first by keyset: `before` names the oldest delivery id shown (UUIDv7 ids sort by time). Listed
  // in the order of the ids the cursor compares: two deliveries of one millisecond are ordered by their random
  // bits, not by when they were stored (in insertion order a page boundary between them skipped one; the kit's
  // webhooks.delivery-log-complete found it under load).
  const before = ctx.url.searchParams.get('before');
  const newest = all
    .sort((a, b) => (a.id < b.id ? 1 : a.id > b.id ? -1 : 0))
    .filter((d) => before === null || d.id < before);
  const list = newest.slice(0, size);
  const last = list[list.length - 1];
  const next_page =
    last && newest.length > size ? `/api/public/v1/webhooks/${id}/delivery-attempts?before=${last.id}` : null;
  ok(ctx, { webhook_id: id, count: list.length, deliveries: list, next_page });
}

export function replayAttempt(store: Store, ctx: Ctx, id: string, deliveryId: string): void {
  idempotent(store, ctx, `delivery.replay:${id}:${deliveryId}`, () => {
    const hook = own(store, ctx, id);
    const original = store.deliveries.find((d) => d.id === deliveryId && d.webhook_id === id);
    if (!original) throw notFound('delivery');
    const again = start(store, hook, original.event_id, original.event_type, original.raw, original.id);
    appendAudit(store, ctx.tenant ?? '', {
      action: 'delivery.replay',
      resource_type: 'delivery',
      resource_id: again.id,
      actor: ctx.clientId ?? '',
      request_id: ctx.requestId,
    });
    return ok(ctx, shown(again));
  });
}
