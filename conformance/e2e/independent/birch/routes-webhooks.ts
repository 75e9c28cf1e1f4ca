// Webhook and audit-log routes of birch (delivery log and redelivery are birch's own paths).
import type { BirchVariant } from './app-state.ts';
import { sendOk } from './http-util.ts';
import { audit, keyed, P, type Route } from './route-kit.ts';

export function webhookRoutes(v: BirchVariant): Route[] {
  return [
    {
      method: 'POST',
      path: `${P}/webhooks`,
      auth: true,
      key: true,
      scope: 'webhooks:manage',
      inTable: true,
      purpose: 'create a webhook receiver',
      handle: (ctx, s, a) =>
        a &&
        keyed(ctx, s, a, (body) => {
          const hook = s.webhooks.create(a.tenant, body);
          audit(s, ctx, a, 'webhook.create', 'webhook', String(hook.id));
          return hook;
        }),
    },
    {
      method: 'GET',
      path: `${P}/webhooks`,
      auth: true,
      key: false,
      scope: 'webhooks:manage',
      inTable: false,
      purpose: 'webhook receivers of the tenant',
      handle: (ctx, s, a) => {
        const list = a ? s.webhooks.list(a.tenant) : [];
        sendOk(ctx, { count: list.length, webhooks: list });
      },
    },
    {
      method: 'GET',
      path: `${P}/webhooks/{id}/${v.deliverySegment}`,
      auth: true,
      key: false,
      scope: 'webhooks:manage',
      inTable: false,
      purpose: 'delivery log of a webhook',
      handle: (ctx, s, a, p) => a && sendOk(ctx, s.webhooks.deliveryLog(a.tenant, p.id ?? '')),
    },
    {
      method: 'POST',
      path: `${P}/webhooks/{id}/${v.deliverySegment}/{deliveryId}/redeliver`,
      auth: true,
      key: true,
      scope: 'webhooks:manage',
      inTable: false,
      purpose: 'trigger a delivery again',
      handle: (ctx, s, a, p) =>
        a &&
        keyed(
          ctx,
          s,
          a,
          () => {
            const d = s.webhooks.redeliver(a.tenant, p.id ?? '', p.deliveryId ?? '');
            audit(s, ctx, a, 'webhook.redeliver', 'webhook_delivery', String(d.id));
            return d;
          },
          true,
        ),
    },
    {
      method: 'GET',
      path: `${P}/audit-log`,
      auth: true,
      key: false,
      scope: 'audit:read',
      inTable: true,
      purpose: 'audit log of the tenant with a proof of integrity',
      handle: (ctx, s, a) => a && s.audit.handle(ctx, a.tenant),
    },
  ];
}
