// The paths of alder's events, webhooks, delivery log and audit log operations.
import { B, one, operation, PAGING, pathId, query, ref, success } from './openapi-build.ts';
import { EVENTS } from './webhooks.ts';

export function eventPaths(): Record<string, unknown> {
  return {
    [`${B}/stream`]: {
      get: operation({
        id: 'openStatusStream',
        summary: 'status stream (Server-Sent Events)',
        auth: false,
        params: [
          query('cursor', { type: 'integer', minimum: 0 }, 'last number read'),
          {
            name: 'Last-Event-ID',
            in: 'header',
            required: false,
            schema: { type: 'string', pattern: '^[0-9]+$' },
            description: 'last number read (wins over cursor)',
          },
        ],
        ok: {
          description: 'text/event-stream: id, event, data (JSON)',
          content: { 'text/event-stream': { schema: { type: 'string' } } },
        },
      }),
    },
    [`${B}/webhooks`]: {
      post: operation({
        id: 'createWebhook',
        summary: 'create a webhook receiver',
        auth: true,
        key: true,
        body: {
          type: 'object',
          required: ['url', 'events'],
          properties: {
            url: { type: 'string', format: 'uri', maxLength: 2048 },
            events: { type: 'array', minItems: 1, maxItems: 20, items: { type: 'string', enum: EVENTS } },
          },
        },
        ok: one('Webhook'),
      }),
    },
    [`${B}/webhooks/{id}`]: {
      delete: operation({
        id: 'deleteWebhook',
        summary: 'remove a webhook receiver',
        auth: true,
        key: true,
        params: [pathId],
        ok: one('Webhook'),
      }),
    },
    [`${B}/webhook_deliveries`]: {
      get: operation({
        id: 'listWebhookDeliveries',
        summary: 'delivery log of a webhook receiver (newest first)',
        auth: true,
        params: [
          { name: 'webhook_id', in: 'query', required: true, schema: { type: 'integer', minimum: 1 } },
          ...PAGING,
        ],
        ok: success(
          {
            webhook_id: { type: 'integer' },
            count: { type: 'integer' },
            total: { type: 'integer' },
            deliveries: { type: 'array', items: ref('Delivery') },
          },
          ['webhook_id', 'count', 'deliveries'],
          true,
          true,
        ),
      }),
    },
    [`${B}/webhook_deliveries/{id}/retry`]: {
      post: operation({
        id: 'retryWebhookDelivery',
        summary: 'send a logged delivery again',
        auth: true,
        key: true,
        params: [pathId],
        ok: one('Delivery'),
      }),
    },
    [`${B}/audit-log`]: {
      get: operation({
        id: 'listAuditLog',
        summary: 'audit log of the tenant: a SHA-256 hash chain, oldest first',
        auth: true,
        params: [
          query('limit', { type: 'integer', minimum: 1, maximum: 100 }, 'entries per page (alias of per_page)'),
          ...PAGING,
        ],
        ok: success(
          {
            tenant: { type: 'string' },
            count: { type: 'integer' },
            total: { type: 'integer' },
            entries: { type: 'array', items: ref('AuditEntry') },
            integrity: { type: 'object' },
          },
          ['tenant', 'count', 'entries', 'integrity'],
          true,
          true,
        ),
      }),
    },
  };
}
