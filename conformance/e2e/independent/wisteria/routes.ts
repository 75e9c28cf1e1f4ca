// The route table wisteria serves: the self-description lists it and the OpenAPI document is built from it.
export interface Route {
  method: string;
  path: string;
  purpose: string;
  auth: boolean;
  /** Idempotency-Key: 'required', 'optional' or absent. */
  key?: 'required' | 'optional';
  operationId: string;
  query?: string[];
  body?: string;
  data: string;
}

const P = '/api/public/v1';

export const ROUTES: Route[] = [
  { method: 'GET', path: P, purpose: 'self-description', auth: false, operationId: 'describe', data: 'Description' },
  {
    method: 'GET',
    path: `${P}/openapi.json`,
    purpose: 'OpenAPI 3.1 document',
    auth: false,
    operationId: 'openapi',
    data: 'raw',
  },
  {
    method: 'GET',
    path: `${P}/providers`,
    purpose: 'list providers',
    auth: true,
    operationId: 'listProviders',
    query: ['category'],
    data: 'ProviderList',
  },
  {
    method: 'GET',
    path: `${P}/connectors`,
    purpose: 'list connectors',
    auth: true,
    operationId: 'listConnectors',
    query: ['capability', 'providerId', 'category'],
    data: 'ConnectorList',
  },
  {
    method: 'GET',
    path: `${P}/capabilities`,
    purpose: 'capability catalog',
    auth: true,
    operationId: 'listCapabilities',
    data: 'CapabilityList',
  },
  {
    method: 'POST',
    path: `${P}/capabilities`,
    purpose: 'check a capability of a connector',
    auth: true,
    operationId: 'checkCapability',
    body: 'CapabilityCheck',
    data: 'CapabilityCheckResult',
  },
  {
    method: 'GET',
    path: `${P}/connections`,
    purpose: 'connections of the tenant',
    auth: true,
    operationId: 'listConnections',
    data: 'ConnectionList',
  },
  {
    method: 'POST',
    path: `${P}/connections`,
    purpose: 'create a connection',
    auth: true,
    key: 'required',
    operationId: 'createConnection',
    body: 'ConnectionCreate',
    data: 'Connection',
  },
  {
    method: 'GET',
    path: `${P}/connections/{connectionId}`,
    purpose: 'one connection of the tenant',
    auth: true,
    operationId: 'getConnection',
    data: 'Connection',
  },
  {
    method: 'POST',
    path: `${P}/idempotency-keys`,
    purpose: 'generate an idempotency key',
    auth: true,
    key: 'optional',
    operationId: 'createIdempotencyKey',
    body: 'IdempotencyKeyCreate',
    data: 'IdempotencyKey',
  },
  {
    method: 'GET',
    path: `${P}/stream`,
    purpose: 'status stream (Server-Sent Events)',
    auth: false,
    operationId: 'stream',
    query: ['cursor'],
    data: 'sse',
  },
  {
    method: 'POST',
    path: `${P}/webhooks`,
    purpose: 'create a webhook receiver',
    auth: true,
    key: 'required',
    operationId: 'createWebhook',
    body: 'WebhookCreate',
    data: 'WebhookCreated',
  },
  {
    method: 'GET',
    path: `${P}/webhooks`,
    purpose: 'webhook receivers of the tenant',
    auth: true,
    operationId: 'listWebhooks',
    data: 'WebhookList',
  },
  {
    method: 'GET',
    path: `${P}/webhooks/{webhookId}`,
    purpose: 'one webhook receiver',
    auth: true,
    operationId: 'getWebhook',
    data: 'Webhook',
  },
  {
    method: 'DELETE',
    path: `${P}/webhooks/{webhookId}`,
    purpose: 'remove a webhook receiver',
    auth: true,
    key: 'required',
    operationId: 'deleteWebhook',
    data: 'WebhookDeleted',
  },
  {
    method: 'GET',
    path: `${P}/webhooks/{webhookId}/deliveries`,
    purpose: 'delivery log of a receiver',
    auth: true,
    operationId: 'listDeliveries',
    query: ['page', 'size'],
    data: 'DeliveryPage',
  },
  {
    method: 'POST',
    path: `${P}/webhooks/{webhookId}/deliveries/{deliveryId}/redelivery`,
    purpose: 'trigger a delivery again',
    auth: true,
    key: 'required',
    operationId: 'redeliver',
    data: 'Delivery',
  },
  {
    method: 'GET',
    path: `${P}/audit-log`,
    purpose: 'audit log with a signed proof of integrity',
    auth: true,
    operationId: 'auditLog',
    query: ['page', 'size', 'limit', 'sort'],
    data: 'AuditPage',
  },
  {
    method: 'GET',
    path: `${P}/.well-known/jwks.json`,
    purpose: 'public keys of the audit proof (JWK set)',
    auth: false,
    operationId: 'jwks',
    data: 'raw',
  },
  {
    method: 'GET',
    path: `${P}/info`,
    purpose: 'the calling access: tenant, client, environment',
    auth: true,
    operationId: 'info',
    data: 'Info',
  },
];

/** Matches a concrete path against a route template; the path parameters or undefined. */
export function matchPath(template: string, path: string): Record<string, string> | undefined {
  const t = template.split('/');
  const p = path.split('/');
  if (t.length !== p.length) return undefined;
  const params: Record<string, string> = {};
  for (let i = 0; i < t.length; i++) {
    const seg = t[i] ?? '';
    const val = p[i] ?? '';
    if (seg.startsWith('{')) {
      if (val === '') return undefined;
      params[seg.slice(1, -1)] = decodeURIComponent(val);
    } else if (seg !== val) return undefined;
  }
  return params;
}
