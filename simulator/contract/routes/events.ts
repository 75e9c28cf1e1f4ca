import { AuditLogData, AuditQuery } from '../audit.ts';
import { StreamQuery } from '../events.ts';
import type { RouteDef } from '../route-def.ts';
import { BASE_PATH } from '../versions.ts';
import {
  CreatedWebhookReceiver, CreateWebhookBody, DeliveriesData, DeliveriesQuery, Delivery, DeliveryParams, WebhookParams, WebhookReceiver, WebhooksData,
} from '../webhooks.ts';

export const eventRoutes: RouteDef[] = [
  {
    id: 'streamStatus', method: 'GET', path: `${BASE_PATH}/stream`, purpose: 'status stream (Server-Sent Events)', tags: ['events'],
    auth: false, optionalAuth: true, scope: 'stream:read', kind: 'sse', query: StreamQuery,
  },
  {
    id: 'createWebhook', method: 'POST', path: `${BASE_PATH}/webhooks`, purpose: 'create a webhook receiver', tags: ['webhooks'],
    auth: true, scope: 'webhooks:write', idempotent: true, body: CreateWebhookBody, data: CreatedWebhookReceiver,
  },
  { id: 'listWebhooks', method: 'GET', path: `${BASE_PATH}/webhooks`, purpose: 'webhook receivers of the tenant (no secrets)', tags: ['webhooks'], auth: true, scope: 'webhooks:read', data: WebhooksData, addition: true },
  {
    id: 'getWebhook', method: 'GET', path: `${BASE_PATH}/webhooks/{webhookId}`, purpose: 'one webhook receiver (no secret)', tags: ['webhooks'],
    auth: true, scope: 'webhooks:read', params: WebhookParams, data: WebhookReceiver, errors: ['not_found'], addition: true,
  },
  {
    id: 'listDeliveries', method: 'GET', path: `${BASE_PATH}/webhooks/{webhookId}/deliveries`, purpose: 'delivery log of a receiver, newest first', tags: ['webhooks'],
    auth: true, scope: 'webhooks:read', params: WebhookParams, query: DeliveriesQuery, data: DeliveriesData, errors: ['not_found'], since: '2026-07-01', addition: true,
  },
  {
    id: 'redeliver', method: 'POST', path: `${BASE_PATH}/webhooks/{webhookId}/deliveries/{deliveryId}/redeliver`, purpose: 'trigger a delivery again', tags: ['webhooks'],
    auth: true, scope: 'webhooks:write', idempotent: true, params: DeliveryParams, data: Delivery, errors: ['not_found'], since: '2026-07-01', addition: true,
  },
  { id: 'getAuditLog', method: 'GET', path: `${BASE_PATH}/audit-log`, purpose: 'audit log with a proof of integrity', tags: ['audit'], auth: true, scope: 'audit:read', query: AuditQuery, data: AuditLogData },
];
