// The route table: one row per operation, read by the router, the self-description and the OpenAPI document.
import { listAudit } from './audit.ts';
import type { Ctx, Reply } from './http.ts';
import { describeService, downloadOpenApi, openApiAnswer } from './openapi.ts';
import {
  checkCapability,
  createConnection,
  createIdempotencyKey,
  getConnection,
  info,
  listCapabilities,
  listConnections,
  listConnectors,
  listProviders,
} from './resources.ts';
import { openStream } from './stream.ts';
import { createWebhook, deleteWebhook, getWebhook, listDeliveries, listWebhooks, retryDelivery } from './webhooks.ts';

export interface QueryParam {
  name: string;
  type: 'string' | 'integer';
  description: string;
}

export interface Route {
  method: 'GET' | 'POST' | 'DELETE';
  path: string;
  purpose: string;
  auth: boolean;
  /** Requires an Idempotency-Key (modifying call). */
  key?: boolean;
  /** First interface version with this route (default: both). */
  since?: string;
  query?: QueryParam[];
  /** Component schema of the JSON body. */
  body?: string;
  /** Component schema of `data` in the success envelope. */
  data?: string;
  /** Not a JSON envelope answer: its media type. */
  raw?: string;
  handler: (ctx: Ctx) => Reply | undefined;
}

const P = '/api/public/v1';
const paging: QueryParam[] = [
  { name: '$top', type: 'integer', description: 'page size (1 to 500)' },
  { name: '$skip', type: 'integer', description: 'entries to skip' },
];

export const ROUTES: Route[] = [
  {
    method: 'GET',
    path: P,
    purpose: 'self-description',
    auth: false,
    data: 'ServiceDescription',
    handler: describeService,
  },
  {
    method: 'GET',
    path: `${P}/openapi.json`,
    purpose: 'OpenAPI 3.1 document',
    auth: false,
    data: 'OpenApiDocument',
    handler: openApiAnswer,
  },
  {
    method: 'GET',
    path: `${P}/openapi/{version}.json`,
    purpose: 'OpenAPI 3.1 document of one version as a downloadable JSON file',
    auth: false,
    raw: 'application/vnd.oai.openapi+json',
    handler: downloadOpenApi,
  },
  {
    method: 'GET',
    path: `${P}/openapi/{version}.yaml`,
    purpose: 'OpenAPI 3.1 document of one version as a downloadable YAML file',
    auth: false,
    raw: 'application/vnd.oai.openapi',
    handler: downloadOpenApi,
  },
  {
    method: 'GET',
    path: `${P}/info`,
    purpose: 'caller, tenant, environment and versions',
    auth: true,
    data: 'Info',
    handler: info,
  },
  {
    method: 'GET',
    path: `${P}/providers`,
    purpose: 'list providers',
    auth: true,
    query: [{ name: 'category', type: 'string', description: 'restricts to one category' }],
    data: 'ProviderList',
    handler: listProviders,
  },
  {
    method: 'GET',
    path: `${P}/connectors`,
    purpose: 'list connectors',
    auth: true,
    query: [
      { name: 'capability', type: 'string', description: 'connectors offering this capability' },
      { name: 'providerId', type: 'string', description: 'connectors of this provider' },
      { name: 'category', type: 'string', description: 'restricts to one category' },
    ],
    data: 'ConnectorList',
    handler: listConnectors,
  },
  {
    method: 'GET',
    path: `${P}/capabilities`,
    purpose: 'capability catalog',
    auth: true,
    data: 'CapabilityList',
    handler: listCapabilities,
  },
  {
    method: 'POST',
    path: `${P}/capabilities`,
    purpose: 'check a capability of a connector',
    auth: true,
    body: 'CapabilityCheck',
    data: 'CapabilityCheckResult',
    handler: checkCapability,
  },
  {
    method: 'GET',
    path: `${P}/connections`,
    purpose: 'connections of the tenant',
    auth: true,
    data: 'ConnectionList',
    handler: listConnections,
  },
  {
    method: 'POST',
    path: `${P}/connections`,
    purpose: 'create a connection',
    auth: true,
    key: true,
    body: 'ConnectionCreate',
    data: 'Connection',
    handler: createConnection,
  },
  {
    method: 'GET',
    path: `${P}/connections/{connectionId}`,
    purpose: 'one connection of the tenant',
    auth: true,
    data: 'Connection',
    handler: getConnection,
  },
  {
    method: 'POST',
    path: `${P}/idempotency-keys`,
    purpose: 'generate an idempotency key',
    auth: true,
    body: 'IdempotencyKeyRequest',
    data: 'IdempotencyKeyResult',
    handler: createIdempotencyKey,
  },
  {
    method: 'GET',
    path: `${P}/stream`,
    purpose: 'status stream (Server-Sent Events)',
    auth: false,
    query: [{ name: 'cursor', type: 'integer', description: 'last number read (minimum 0)' }],
    raw: 'text/event-stream',
    handler: openStream,
  },
  {
    method: 'POST',
    path: `${P}/webhooks`,
    purpose: 'create a webhook receiver (the signing secret is shown once)',
    auth: true,
    key: true,
    body: 'WebhookCreate',
    data: 'WebhookCreated',
    handler: createWebhook,
  },
  {
    method: 'GET',
    path: `${P}/webhooks`,
    purpose: 'webhook receivers of the tenant',
    auth: true,
    query: paging,
    data: 'WebhookList',
    handler: listWebhooks,
  },
  {
    method: 'GET',
    path: `${P}/webhooks/{webhookId}`,
    purpose: 'one webhook receiver',
    auth: true,
    data: 'Webhook',
    handler: getWebhook,
  },
  {
    method: 'DELETE',
    path: `${P}/webhooks/{webhookId}`,
    purpose: 'remove a webhook receiver',
    auth: true,
    key: true,
    data: 'WebhookDeleted',
    handler: deleteWebhook,
  },
  {
    method: 'GET',
    path: `${P}/webhooks/{webhookId}/deliveries`,
    purpose: 'delivery log of a webhook receiver',
    auth: true,
    since: '2026-07-01',
    query: paging,
    data: 'DeliveryList',
    handler: listDeliveries,
  },
  {
    method: 'POST',
    path: `${P}/webhooks/{webhookId}/deliveries/{deliveryId}/retry`,
    purpose: 'trigger a logged delivery again',
    auth: true,
    key: true,
    since: '2026-07-01',
    data: 'Delivery',
    handler: retryDelivery,
  },
  {
    method: 'GET',
    path: `${P}/audit-log`,
    purpose: 'audit log of the tenant with a proof of integrity',
    auth: true,
    query: [{ name: 'limit', type: 'integer', description: 'number of entries (1 to 500, default 50)' }, ...paging],
    data: 'AuditLog',
    handler: listAudit,
  },
];
