import { WEBHOOK_DEFAULTS } from '../contract/simulator-defaults.ts';
import { ApiError } from '../core/api-error.ts';
import { ok } from '../core/reply.ts';
import type { Delivery } from '../state/delivery-log.ts';
import type { ReceiverRecord } from '../state/webhook-receivers.ts';
import { checkReceiverUrl } from '../webhooks/receiver-url.ts';
import type { HandlerDeps, HandlerGroup } from './types.ts';

export type WebhookDeps = Pick<HandlerDeps, 'receivers' | 'events' | 'dispatcher' | 'signatureHeader' | 'webhookHosts'>;

const publicReceiver = (r: ReceiverRecord, deps: WebhookDeps) => ({
  id: r.id,
  url: r.url,
  events: r.events,
  signatureHeader: deps.signatureHeader,
  createdAt: r.createdAt,
});
const publicDelivery = ({ body: _body, tenant: _tenant, sequences: _s, ...d }: Delivery) => d;

function receiverOf(tenant: string, id: string, deps: WebhookDeps): ReceiverRecord {
  const r = deps.receivers.get(tenant, id);
  if (!r) throw new ApiError('not_found', { detail: 'No webhook receiver with this id for this tenant.' });
  return r;
}

export const webhookHandlers = {
  createWebhook(ctx, deps) {
    const body = ctx.body;
    checkReceiverUrl(body.url, deps.webhookHosts);
    const tenant = ctx.access.tenant;
    const max = deps.receivers.maxPerTenant;
    if (deps.receivers.list(tenant).length >= max)
      throw new ApiError('invalid_request', {
        detail: `This tenant has ${max} webhook receivers, the most this sandbox keeps for one tenant.`,
        hint: 'Remove a receiver you no longer use (DELETE /api/public/v1/webhooks/{webhookId}), then register again.',
      });
    const { receiver, secret } = deps.receivers.create(tenant, body, ctx.at);
    deps.events.emit({
      type: 'webhook.created',
      tenant,
      actor: ctx.access.token.clientId,
      requestId: ctx.requestId,
      at: ctx.at,
      target: { type: 'webhook', id: receiver.id },
      data: { webhook: publicReceiver(receiver, deps) },
    });
    // The one response that shows the secret; an idempotent replay of it repeats it to the same caller.
    return ok({ ...publicReceiver(receiver, deps), signingSecret: secret });
  },
  listWebhooks(ctx, deps) {
    const webhooks = deps.receivers.list(ctx.access.tenant).map((r) => publicReceiver(r, deps));
    return ok({ count: webhooks.length, webhooks });
  },
  getWebhook(ctx, deps) {
    return ok(publicReceiver(receiverOf(ctx.access.tenant, ctx.params.webhookId, deps), deps));
  },
  deleteWebhook(ctx, deps) {
    const r = receiverOf(ctx.access.tenant, ctx.params.webhookId, deps);
    deps.receivers.remove(ctx.access.tenant, r.id);
    return ok({ id: r.id, deleted: true as const });
  },
  listDeliveries(ctx, deps) {
    const r = receiverOf(ctx.access.tenant, ctx.params.webhookId, deps);
    const limit = ctx.query.limit === undefined ? WEBHOOK_DEFAULTS.defaultListLimit : Number(ctx.query.limit);
    const deliveries = deps.dispatcher.log.listByReceiver(r.id, { limit }).map(publicDelivery);
    return ok({ webhookId: r.id, count: deliveries.length, deliveries });
  },
  redeliver(ctx, deps) {
    const r = receiverOf(ctx.access.tenant, ctx.params.webhookId, deps);
    const existing = deps.dispatcher.log.get(ctx.params.deliveryId);
    if (!existing || existing.receiverId !== r.id)
      throw new ApiError('not_found', { detail: 'No delivery with this id for this receiver.' });
    const d = deps.dispatcher.redeliver(existing.id, {
      id: r.id,
      url: r.url,
      secret: r.secret,
      tenant: r.tenant,
    });
    if (!d) throw new ApiError('not_found', { detail: 'No delivery with this id for this receiver.' });
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
  },
} satisfies HandlerGroup<WebhookDeps>;
