import { WEBHOOK_DEFAULTS } from '../contract/simulator-defaults.ts';
import { ApiError } from '../core/api-error.ts';
import { ok } from '../core/reply.ts';
import { publicReceiver, ReceiverLimitError } from '../services/receiver-service.ts';
import type { Delivery } from '../state/delivery-log.ts';
import { andThen, type MaybePromise } from '../state/ports/maybe-promise.ts';
import type { ReceiverRecord } from '../state/webhook-receivers.ts';
import { checkReceiverUrl } from '../webhooks/receiver-url.ts';
import type { HandlerDeps, HandlerGroup } from './types.ts';

export type WebhookDeps = Pick<HandlerDeps, 'receivers' | 'events' | 'dispatcher' | 'signatureHeader' | 'webhookHosts'>;

const publicDelivery = ({ body: _body, tenant: _tenant, sequences: _s, ...d }: Delivery) => d;

/** Continues with the tenant's receiver, or answers not_found. */
function withReceiver<T>(
  tenant: string,
  id: string,
  deps: WebhookDeps,
  next: (r: ReceiverRecord) => MaybePromise<T>,
): MaybePromise<T> {
  return andThen(deps.receivers.get(tenant, id), (r) => {
    if (!r) throw new ApiError('not_found', { detail: 'No webhook receiver with this id for this tenant.' });
    return next(r);
  });
}

const refused = (err: unknown): never => {
  if (err instanceof ReceiverLimitError)
    throw new ApiError('invalid_request', {
      detail: err.message,
      hint: 'Remove a receiver you no longer use (DELETE /api/public/v1/webhooks/{webhookId}), then register again.',
    });
  throw err;
};

export const webhookHandlers = {
  createWebhook(ctx, deps) {
    const body = ctx.body;
    checkReceiverUrl(body.url, deps.webhookHosts);
    const caller = { actor: ctx.access.token.clientId, requestId: ctx.requestId, at: ctx.at };
    // The one response that shows the secret; an idempotent replay of it repeats it to the same caller.
    const answer = ({ receiver, secret }: { receiver: ReceiverRecord; secret: string }) =>
      ok({ ...publicReceiver(receiver, deps.signatureHeader), signingSecret: secret });
    try {
      const created = deps.receivers.create(ctx.access.tenant, body, caller);
      return created instanceof Promise ? created.then(answer, refused) : answer(created);
    } catch (err) {
      return refused(err);
    }
  },
  listWebhooks(ctx, deps) {
    return andThen(deps.receivers.list(ctx.access.tenant), (list) => {
      const webhooks = list.map((r) => publicReceiver(r, deps.signatureHeader));
      return ok({ count: webhooks.length, webhooks });
    });
  },
  getWebhook(ctx, deps) {
    return withReceiver(ctx.access.tenant, ctx.params.webhookId, deps, (r) =>
      ok(publicReceiver(r, deps.signatureHeader)),
    );
  },
  deleteWebhook(ctx, deps) {
    return withReceiver(ctx.access.tenant, ctx.params.webhookId, deps, (r) =>
      andThen(deps.receivers.remove(ctx.access.tenant, r.id), () => ok({ id: r.id, deleted: true as const })),
    );
  },
  listDeliveries(ctx, deps) {
    return withReceiver(ctx.access.tenant, ctx.params.webhookId, deps, (r) => {
      const limit = ctx.query.limit === undefined ? WEBHOOK_DEFAULTS.defaultListLimit : Number(ctx.query.limit);
      return andThen(deps.dispatcher.log.listByReceiver(r.id, { limit }), (logged) => {
        const deliveries = logged.map(publicDelivery);
        return ok({ webhookId: r.id, count: deliveries.length, deliveries });
      });
    });
  },
  redeliver(ctx, deps) {
    return withReceiver(ctx.access.tenant, ctx.params.webhookId, deps, (r) => {
      const missing = () => new ApiError('not_found', { detail: 'No delivery with this id for this receiver.' });
      const redelivered = andThen(deps.dispatcher.log.get(ctx.params.deliveryId), (existing) => {
        if (!existing || existing.receiverId !== r.id) throw missing();
        return deps.dispatcher.redeliver(existing.id, { id: r.id, url: r.url, secret: r.secret, tenant: r.tenant });
      });
      return andThen(redelivered, (d) => {
        if (!d) throw missing();
        deps.events.emit({
          type: 'webhook.redelivery_requested',
          tenant: r.tenant,
          actor: ctx.access.token.clientId,
          requestId: ctx.requestId,
          at: ctx.at,
          target: { type: 'delivery', id: d.id },
          data: { webhookId: r.id, deliveryId: d.id },
        });
        return ok(publicDelivery(d));
      });
    });
  },
} satisfies HandlerGroup<WebhookDeps>;
