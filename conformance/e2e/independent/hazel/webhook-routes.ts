// The webhook routes: registration, removal, delivery log and redelivery.
import type { Ctx } from './http-kit.ts';
import { ApiError, ok } from './http-kit.ts';
import { once, requireKey, validated } from './idempotency.ts';
import type { Route } from './route-kit.ts';
import { audit, body, tenantOf } from './route-kit.ts';
import { springPage } from './spring-page.ts';
import type { State } from './store.ts';
import {
  deliveriesOf,
  ownHook,
  parseRegistration,
  publicDelivery,
  publicHook,
  redeliver,
  register,
} from './webhooks.ts';

function logVisible(s: State, ctx: Ctx): void {
  if (s.options.deliveryLogSinceCurrent && ctx.version === '2026-06-12') {
    throw new ApiError('not_found', 'No such endpoint in version 2026-06-12.', {
      hint: 'The delivery log exists since 2026-07-01.',
    });
  }
}

export const WEBHOOK_ROUTES: Route[] = [
  {
    method: 'POST',
    path: '/webhooks',
    auth: true,
    key: true,
    contract: true,
    operationId: 'createWebhookUsingPOST',
    purpose: 'create a webhook receiver',
    handle: async (s, ctx) => {
      const key = requireKey(ctx);
      const json = await body(s, ctx, ['url', 'events']);
      const input = validated(s, () => parseRegistration(json));
      once(s, ctx, key, json, () => {
        const hook = register(s, tenantOf(ctx), input());
        audit(s, ctx, 'webhook.create', 'webhook', hook.id, { url: hook.url, events: hook.events });
        return { ...publicHook(hook), secret: hook.secret, signatureHeader: 'Hazel-Signature' };
      });
    },
  },
  {
    method: 'DELETE',
    path: '/webhooks/{webhookId}',
    auth: true,
    key: true,
    contract: false,
    operationId: 'deleteWebhookUsingDELETE',
    purpose: 'remove a webhook receiver',
    handle: (s, ctx, p) => {
      const key = requireKey(ctx);
      once(s, ctx, key, { webhookId: p.webhookId ?? '' }, () => {
        const hook = ownHook(s, ctx, p.webhookId ?? '');
        hook.status = 'deleted';
        audit(s, ctx, 'webhook.delete', 'webhook', hook.id, {});
        return { id: hook.id, status: 'deleted' };
      });
    },
  },
  {
    method: 'GET',
    path: '/webhooks/{webhookId}/deliveries',
    auth: true,
    key: false,
    contract: false,
    operationId: 'listDeliveriesUsingGET',
    purpose: 'delivery log of a webhook receiver',
    handle: (s, ctx, p) => {
      logVisible(s, ctx);
      const hook = ownHook(s, ctx, p.webhookId ?? '');
      const deliveries = deliveriesOf(s, hook).map(publicDelivery);
      if (s.options.springPages)
        ok(ctx, { webhookId: hook.id, ...springPage(deliveries, Math.max(20, deliveries.length), deliveries.length) });
      else ok(ctx, { webhookId: hook.id, count: deliveries.length, deliveries });
    },
  },
  {
    method: 'POST',
    path: '/webhooks/{webhookId}/deliveries/{deliveryId}/redeliver',
    auth: true,
    key: true,
    contract: false,
    operationId: 'redeliverUsingPOST',
    purpose: 'trigger a logged delivery again',
    handle: (s, ctx, p) => {
      logVisible(s, ctx);
      const key = requireKey(ctx);
      const hook = ownHook(s, ctx, p.webhookId ?? '');
      once(s, ctx, key, { webhookId: hook.id, deliveryId: p.deliveryId ?? '' }, () => {
        const d = redeliver(s, hook, p.deliveryId ?? '');
        audit(s, ctx, 'webhook.redeliver', 'delivery', d.id, { webhookId: hook.id, redeliveryOf: p.deliveryId ?? '' });
        return publicDelivery(d);
      });
    },
  },
];
