// The webhook, delivery-log and audit-log operations of the route table: the part the interface shows
// only in sample calls or not at all, so its paths are this deployment's own choice.
import { BASE } from './http.ts';
import type { Route } from './route-table.ts';
import { t } from './validate.ts';
import { webhookBody } from './webhooks.ts';

export const WEBHOOK_AND_AUDIT_ROUTES: Route[] = [
  {
    method: 'GET',
    path: `${BASE}/webhooks`,
    operationId: 'listWebhooks',
    purpose: 'webhook receivers of the tenant',
    auth: true,
  },
  {
    method: 'POST',
    path: `${BASE}/webhooks`,
    operationId: 'createWebhook',
    purpose: 'create a webhook receiver',
    auth: true,
    key: true,
    body: webhookBody,
  },
  {
    method: 'GET',
    path: `${BASE}/webhooks/{webhookId}`,
    operationId: 'getWebhook',
    purpose: 'one webhook receiver',
    auth: true,
  },
  {
    method: 'DELETE',
    path: `${BASE}/webhooks/{webhookId}`,
    operationId: 'deleteWebhook',
    purpose: 'remove a webhook receiver',
    auth: true,
    key: true,
  },
  {
    method: 'GET',
    path: `${BASE}/webhooks/{webhookId}/delivery-attempts`,
    operationId: 'listDeliveryAttempts',
    purpose: 'delivery log of a webhook receiver',
    auth: true,
    query: { cursor: t.String() },
    since: '2026-07-01',
  },
  {
    method: 'POST',
    path: `${BASE}/webhooks/{webhookId}/delivery-attempts/{attemptId}/retry`,
    operationId: 'retryDeliveryAttempt',
    purpose: 'trigger a logged delivery again',
    auth: true,
    key: true,
    since: '2026-07-01',
  },
  {
    method: 'GET',
    path: `${BASE}/audit-log`,
    operationId: 'listAuditLog',
    purpose: 'audit log of the tenant with a signed hash chain, newest first',
    auth: true,
    query: { limit: t.Integer({ minimum: 1 }), cursor: t.String() },
  },
];
