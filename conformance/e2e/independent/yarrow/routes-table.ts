// The route table (API Platform's resource metadata): served by the router, listed by the self-description
// and turned into the OpenAPI document. Paths are relative to /api/public/v1.
export interface Route {
  method: string;
  path: string;
  purpose: string;
  auth: boolean;
  key?: boolean;
  operationId: string;
}

const r = (method: string, path: string, purpose: string, auth: boolean, operationId: string, key = false): Route => ({
  method,
  path,
  purpose,
  auth,
  key,
  operationId,
});

export const ROUTES: Route[] = [
  r('GET', '/', 'self-description', false, 'describe'),
  r('GET', '/openapi.json', 'OpenAPI 3.1 document', false, 'openapi'),
  r('GET', '/info', 'the caller: access, tenant and environment', true, 'info'),
  r('GET', '/providers', 'list providers', true, 'listProviders'),
  r('GET', '/connectors', 'list connectors', true, 'listConnectors'),
  r('GET', '/capabilities', 'capability catalog', true, 'listCapabilities'),
  r('POST', '/capabilities', 'check a capability of a connector', true, 'checkCapability'),
  r('GET', '/connections', 'connections of the tenant', true, 'listConnections'),
  r('POST', '/connections', 'create a connection', true, 'createConnection', true),
  r('GET', '/connections/{id}', 'one connection of the tenant', true, 'getConnection'),
  r('POST', '/idempotency-keys', 'generate an idempotency key', true, 'issueIdempotencyKey'),
  r('GET', '/stream', 'status stream (Server-Sent Events)', false, 'stream'),
  r('POST', '/webhooks', 'create a webhook receiver', true, 'createWebhook', true),
  r('DELETE', '/webhooks/{id}', 'remove a webhook receiver', true, 'deleteWebhook', true),
  r('GET', '/webhook_deliveries', 'delivery log of the tenant (filter ?webhook=)', true, 'listWebhookDeliveries'),
  r('POST', '/webhook_deliveries/{id}/retry', 'trigger a logged delivery again', true, 'retryWebhookDelivery', true),
  r('GET', '/audit-log', 'audit log with its hash-chain proof', true, 'auditLog'),
];
