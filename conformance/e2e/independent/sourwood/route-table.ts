// The route table: what the self-description lists and the OpenAPI document describes, one row per operation.

/** [method, path under /api/public/v1, purpose, auth, idempotency key]. */
export const ROUTES: [string, string, string, boolean, boolean][] = [
  ['GET', '', 'self-description', false, false],
  ['GET', '/openapi.json', 'OpenAPI 3.1 document', false, false],
  ['GET', '/openapi/{version}.json', 'OpenAPI document of one version (JSON)', false, false],
  ['GET', '/openapi/{version}.yaml', 'OpenAPI document of one version (YAML)', false, false],
  ['GET', '/info', 'the calling access, its tenant and the service', true, false],
  ['GET', '/providers', 'list providers', true, false],
  ['GET', '/connectors', 'list connectors', true, false],
  ['GET', '/capabilities', 'capability catalog', true, false],
  ['POST', '/capabilities', 'check a capability of a connector', true, false],
  ['GET', '/connections', 'connections of the tenant', true, false],
  ['POST', '/connections', 'create a connection', true, true],
  ['POST', '/idempotency-keys', 'generate an idempotency key', true, false],
  ['GET', '/stream', 'status stream (Server-Sent Events)', false, false],
  ['GET', '/webhooks', 'list webhook receivers', true, false],
  ['POST', '/webhooks', 'create a webhook receiver', true, true],
  ['DELETE', '/webhooks/{webhookId}', 'remove a webhook receiver', true, true],
  ['GET', '/webhooks/{webhookId}/attempts', 'delivery log of a receiver', true, false],
  ['POST', '/webhooks/{webhookId}/attempts/{attemptId}/resend', 'send a logged delivery again', true, true],
  ['GET', '/audit-log', 'audit log with hash-chain proof', true, false],
];
