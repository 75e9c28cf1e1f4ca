// The webhook routes: receivers (registration with the signing key shown once, reads, removal), the
// delivery log that came with 2026-07-01, and selective redelivery of one logged delivery.
import { answer, P, prelude, type Route } from './app.ts';
import { fail, ok, readJsonObject } from './http.ts';
import * as wh from './webhooks.ts';

export const WEBHOOK_ROUTES: Route[] = [
  {
    method: 'POST',
    path: `${P}/webhooks`,
    purpose: 'create a webhook receiver',
    auth: true,
    handle: async (a, ctx) => {
      const caller = prelude(a, ctx);
      const key = a.idem.requireKey(ctx);
      const { body } = await readJsonObject(ctx);
      const v = wh.validateRegistration(body);
      answer(
        ctx,
        a.idem.run(ctx, caller.tenant, key, body, () => {
          const created = wh.register(a.store, caller.tenant, v);
          a.audit.record(caller.tenant, caller.clientId, 'webhook.created', { type: 'webhook', id: created.id });
          return created;
        }),
      );
    },
  },
  {
    method: 'GET',
    path: `${P}/webhooks`,
    purpose: 'webhook receivers of the tenant',
    auth: true,
    handle: (a, ctx) => {
      const { tenant } = prelude(a, ctx);
      const webhooks = [...a.store.webhooks.values()].filter((w) => w.tenant === tenant).map(wh.view);
      ok(ctx, { count: webhooks.length, webhooks });
    },
  },
  {
    method: 'GET',
    path: `${P}/webhooks/{webhookId}`,
    purpose: 'one webhook receiver (without its signing key)',
    auth: true,
    handle: (a, ctx, p) => ok(ctx, wh.view(wh.ownWebhook(a.store, prelude(a, ctx).tenant, p.webhookId))),
  },
  {
    method: 'DELETE',
    path: `${P}/webhooks/{webhookId}`,
    purpose: 'remove a webhook receiver',
    auth: true,
    handle: (a, ctx, p) => {
      const caller = prelude(a, ctx);
      a.idem.requireKey(ctx);
      const hook = wh.ownWebhook(a.store, caller.tenant, p.webhookId);
      a.store.webhooks.delete(hook.id);
      a.audit.record(caller.tenant, caller.clientId, 'webhook.deleted', { type: 'webhook', id: hook.id });
      ok(ctx, { id: hook.id, deleted: true });
    },
  },
  {
    method: 'GET',
    path: `${P}/webhooks/{webhookId}/delivery-attempts`,
    purpose: 'delivery log of a webhook receiver',
    auth: true,
    since: '2026-07-01',
    handle: (a, ctx, p) => {
      const hook = wh.ownWebhook(a.store, prelude(a, ctx).tenant, p.webhookId);
      const deliveries = [...a.store.deliveries.values()].filter((d) => d.webhookId === hook.id).map(wh.deliveryView);
      ok(ctx, { webhookId: hook.id, count: deliveries.length, deliveries });
    },
  },
  {
    method: 'POST',
    path: `${P}/webhooks/{webhookId}/delivery-attempts/{attemptId}/resend`,
    purpose: 'trigger a logged delivery again',
    auth: true,
    since: '2026-07-01',
    handle: (a, ctx, p) => {
      const caller = prelude(a, ctx);
      const key = a.idem.requireKey(ctx);
      const hook = wh.ownWebhook(a.store, caller.tenant, p.webhookId);
      const original = p.attemptId === undefined ? undefined : a.store.deliveries.get(p.attemptId);
      if (!original || original.webhookId !== hook.id) throw fail.notFound('no such delivery');
      answer(
        ctx,
        a.idem.run(ctx, caller.tenant, key, { resend: original.id }, () => {
          const d = a.deliverer.start(hook, original.eventId, original.eventType, original.body, original.id);
          a.audit.record(caller.tenant, caller.clientId, 'webhook.redelivered', { type: 'delivery', id: d.id });
          return wh.deliveryView(d);
        }),
      );
    },
  },
];
