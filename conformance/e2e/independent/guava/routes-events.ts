// The stream, webhook and audit routes of the table (split from routes.ts to keep each file short).
import { listAudit } from './audit.ts';
import type { RouteDef } from './self-description.ts';
import { PREFIX } from './state.ts';
import { openStream } from './stream.ts';
import * as w from './webhooks.ts';

const P = PREFIX;
const int = { type: 'integer', minimum: 0 };

export const EVENT_ROUTES: RouteDef[] = [
  {
    method: 'GET',
    path: `${P}/stream`,
    opId: 'stream',
    purpose: 'status stream (Server-Sent Events)',
    auth: false,
    stream: true,
    query: [{ name: 'cursor', schema: int }],
    run: (s, c) => void openStream(s, c),
  },
  {
    method: 'GET',
    path: `${P}/webhooks`,
    opId: 'listWebhooks',
    data: 'WebhookList',
    purpose: 'webhook receivers of the tenant',
    auth: true,
    run: w.listWebhooks,
  },
  {
    method: 'POST',
    path: `${P}/webhooks`,
    opId: 'createWebhook',
    purpose: 'create a webhook receiver',
    auth: true,
    key: true,
    body: 'WebhookCreate',
    data: 'Webhook',
    run: (s, c) => void w.createWebhook(s, c),
  },
  {
    method: 'DELETE',
    path: `${P}/webhooks/{webhookId}`,
    opId: 'deleteWebhook',
    data: 'Deleted',
    purpose: 'remove a webhook receiver',
    auth: true,
    key: true,
    run: (s, c) => void w.deleteWebhook(s, c),
  },
  {
    method: 'GET',
    path: `${P}/webhooks/{webhookId}/jobs`,
    opId: 'listWebhookJobs',
    data: 'JobList',
    purpose: 'delivery log of a receiver (Minion jobs)',
    auth: true,
    run: w.listJobs,
  },
  {
    method: 'POST',
    path: `${P}/webhooks/{webhookId}/jobs/{jobId}/retry`,
    opId: 'retryWebhookJob',
    data: 'JobRetry',
    purpose: 'deliver a logged job again',
    auth: true,
    key: true,
    run: (s, c) => void w.redeliver(s, c),
  },
  {
    method: 'GET',
    path: `${P}/audit-log`,
    opId: 'auditLog',
    data: 'AuditPage',
    purpose: 'audit log of the tenant with its hash chain',
    auth: true,
    query: [
      { name: 'limit', schema: { type: 'integer', minimum: 1, maximum: 100 } },
      { name: 'before', schema: int },
      { name: 'after', schema: int },
    ],
    run: (s, c) => void listAudit(s, c),
  },
];
