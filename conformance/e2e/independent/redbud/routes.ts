// The route table (what Rocket's `routes![]` mounts), from which the self-description and the OpenAPI
// document are both written, so they cannot drift apart.
export interface Route {
  method: 'GET' | 'POST' | 'DELETE';
  path: string;
  purpose: string;
  auth: boolean;
  key?: boolean;
  /** Response data schema name in openapi.ts. */
  data?: string;
  body?: string;
  query?: string[];
}

const B = '/api/public/v1';

export const ROUTES: Route[] = [
  { method: 'GET', path: B, purpose: 'self-description', auth: false, data: 'Describe' },
  { method: 'GET', path: `${B}/openapi.json`, purpose: 'OpenAPI 3.1 document', auth: false },
  { method: 'GET', path: `${B}/info`, purpose: 'who is calling (client and tenant)', auth: true },
  { method: 'GET', path: `${B}/providers`, purpose: 'list providers', auth: true, query: ['category'] },
  {
    method: 'GET',
    path: `${B}/connectors`,
    purpose: 'list connectors',
    auth: true,
    query: ['capability', 'providerId', 'category'],
  },
  { method: 'GET', path: `${B}/capabilities`, purpose: 'capability catalog', auth: true },
  {
    method: 'POST',
    path: `${B}/capabilities`,
    purpose: 'check a capability of a connector',
    auth: true,
    body: 'Check',
  },
  { method: 'GET', path: `${B}/connections`, purpose: 'connections of the tenant', auth: true },
  {
    method: 'POST',
    path: `${B}/connections`,
    purpose: 'create a connection',
    auth: true,
    key: true,
    body: 'NewConnection',
  },
  {
    method: 'POST',
    path: `${B}/idempotency-keys`,
    purpose: 'generate an idempotency key',
    auth: true,
    body: 'NewKey',
  },
  { method: 'GET', path: `${B}/stream`, purpose: 'status stream (Server-Sent Events)', auth: false },
  { method: 'GET', path: `${B}/webhooks`, purpose: 'list webhook receivers', auth: true },
  {
    method: 'POST',
    path: `${B}/webhooks`,
    purpose: 'create a webhook receiver',
    auth: true,
    key: true,
    body: 'NewWebhook',
  },
  {
    method: 'DELETE',
    path: `${B}/webhooks/{webhookId}`,
    purpose: 'remove a webhook receiver',
    auth: true,
    key: true,
  },
  {
    method: 'GET',
    path: `${B}/webhook-deliveries`,
    purpose: 'delivery log of a webhook receiver',
    auth: true,
    query: ['webhookId'],
  },
  {
    method: 'POST',
    path: `${B}/webhook-deliveries/{deliveryId}/retry`,
    purpose: 'trigger a logged delivery again',
    auth: true,
    key: true,
  },
  {
    method: 'GET',
    path: `${B}/audit-log`,
    purpose: 'audit log with hash-chain proof',
    auth: true,
    query: ['limit', 'cursor'],
  },
  { method: 'GET', path: `${B}/openapi/{file}`, purpose: 'OpenAPI document per version (.json, .yaml)', auth: false },
];

export function selfDescription(tokenPath: string, events: string[]): Record<string, unknown> {
  return {
    service: 'redbud network connections',
    surface: 'public',
    version: '2026-07-01',
    versions: ['2026-06-12', '2026-07-01'],
    authentication: {
      type: 'oauth2',
      flow: 'client_credentials',
      tokenEndpoint: tokenPath,
      clientAuthMethods: ['client_secret_basic', 'client_secret_post'],
      headers: { authorization: 'Bearer <token>', tenant: 'x-service-tenant' },
    },
    idempotency: { header: 'Idempotency-Key', pattern: '^[A-Za-z0-9._:-]{8,128}$', ttlHours: 24, scope: 'tenant' },
    webhooks: { events, signatureHeader: 'X-Redbud-Signature', deliveryHeader: 'X-Redbud-Delivery' },
    // The per-version downloads (the route above is a template; clients want the concrete files).
    openapiFiles: ['2026-06-12', '2026-07-01'].map((v) => ({
      version: v,
      json: `/api/public/v1/openapi/${v}.json`,
      yaml: `/api/public/v1/openapi/${v}.yaml`,
    })),
    routes: ROUTES.map(({ method, path, purpose, auth }) => ({ method, path, purpose, auth })),
  };
}
