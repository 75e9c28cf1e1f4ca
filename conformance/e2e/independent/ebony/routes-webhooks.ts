// The routes of webhooks (receivers, delivery log, redelivery) and of the audit log.
import { BASE, CURRENT_VERSION } from './http.ts';
import type { Route } from './routes.ts';
import { list, q, ref } from './schemas.ts';
import { WEBHOOK_EVENTS } from './webhooks.ts';

export function webhookRoutes(): Route[] {
  return [
    {
      method: 'POST',
      path: `${BASE}/webhooks`,
      purpose: 'create a webhook receiver (signing key issued once)',
      auth: true,
      key: true,
      tag: 'webhooks',
      body: {
        type: 'object',
        required: ['url', 'events'],
        properties: {
          url: { type: 'string', format: 'uri' },
          events: { type: 'array', minItems: 1, maxItems: 20, items: { type: 'string', enum: [...WEBHOOK_EVENTS] } },
        },
      },
      data: ref('WebhookCreated'),
      audit: ['WEBHOOK.CREATE', 'webhook'],
      handle: (c, e) => e.webhooks.register(c),
    },
    {
      method: 'GET',
      path: `${BASE}/webhooks`,
      purpose: 'webhook receivers of the tenant',
      auth: true,
      tag: 'webhooks',
      data: list('webhooks', 'Webhook'),
      handle: (c, e) => e.webhooks.list(c),
    },
    {
      method: 'GET',
      path: `${BASE}/webhooks/{webhookId}`,
      purpose: 'one webhook receiver',
      auth: true,
      tag: 'webhooks',
      data: ref('Webhook'),
      handle: (c, e) => e.webhooks.get(c),
    },
    {
      method: 'DELETE',
      path: `${BASE}/webhooks/{webhookId}`,
      purpose: 'remove a webhook receiver',
      auth: true,
      key: true,
      tag: 'webhooks',
      data: ref('Webhook'),
      audit: ['WEBHOOK.DELETE', 'webhook'],
      handle: (c, e) => e.webhooks.remove(c),
    },
    {
      method: 'GET',
      path: `${BASE}/webhooks/{webhookId}/deliveries`,
      purpose: 'delivery log of a webhook receiver',
      auth: true,
      since: CURRENT_VERSION,
      tag: 'webhooks',
      data: list('deliveries', 'Delivery', { webhookId: { type: 'string' } }),
      handle: (c, e) => e.webhooks.log(c),
    },
    {
      method: 'POST',
      path: `${BASE}/webhooks/{webhookId}/deliveries/{deliveryId}/redeliver`,
      purpose: 'trigger a logged delivery again',
      auth: true,
      key: true,
      since: CURRENT_VERSION,
      tag: 'webhooks',
      data: ref('Delivery'),
      audit: ['DELIVERY.REDELIVER', 'delivery'],
      handle: (c, e) => e.webhooks.redeliver(c),
    },
    {
      method: 'GET',
      path: `${BASE}/audit-log`,
      purpose: 'audit log of the tenant with a hash-chain proof',
      auth: true,
      tag: 'audit',
      query: [q('limit', 'number of latest entries (default 50, at most 500 served)', { type: 'integer', minimum: 1 })],
      data: ref('AuditLog'),
      handle: (c, e) => e.audit.read(c),
    },
  ];
}
