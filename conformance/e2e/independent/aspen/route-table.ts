// The route table: dispatch, the self-description and the OpenAPI document are all built from it, so the
// three cannot drift apart.
import { METADATA_PATH, TOKEN_PATH } from './auth.ts';
import { KEY_PATTERN } from './idempotency.ts';
import { EVENT_NAMES } from './webhooks.ts';

export interface Route {
  id: string;
  method: string;
  path: string;
  pattern: RegExp;
  purpose: string;
  auth: boolean;
  key: 'required' | 'optional' | 'none';
}

const P = '/api/public/v1';

function route(
  id: string,
  method: string,
  path: string,
  purpose: string,
  auth: boolean,
  key: Route['key'] = 'none',
): Route {
  const pattern = new RegExp(`^${path.replace(/\./g, '\\.').replace(/\{[^}]+\}/g, '([^/]+)')}$`);
  return { id, method, path, pattern, purpose, auth, key };
}

export const ROUTES: Route[] = [
  route('self', 'GET', P, 'self-description', false),
  route('openapi', 'GET', `${P}/openapi.json`, 'OpenAPI 3.1 document', false),
  ...['2026-07-01', '2026-06-12'].flatMap((v) =>
    ['json', 'yaml'].map((ext) =>
      route(
        'openapi-file',
        'GET',
        `${P}/openapi/${v}.${ext}`,
        `OpenAPI 3.1 description of ${v} as a ${ext.toUpperCase()} file`,
        false,
      ),
    ),
  ),
  route('providers', 'GET', `${P}/providers`, 'list providers', true),
  route('connectors', 'GET', `${P}/connectors`, 'list connectors', true),
  route('capabilities', 'GET', `${P}/capabilities`, 'capability catalog', true),
  route('capability-check', 'POST', `${P}/capabilities`, 'check a capability of a connector', true),
  route('connections', 'GET', `${P}/connections`, 'connections of the tenant', true),
  route('connection-create', 'POST', `${P}/connections`, 'create a connection', true, 'required'),
  route('idempotency-keys', 'POST', `${P}/idempotency-keys`, 'generate an idempotency key', true, 'optional'),
  route('stream', 'GET', `${P}/stream`, 'status stream (Server-Sent Events)', false),
  route('webhook-create', 'POST', `${P}/webhooks`, 'create a webhook receiver', true, 'required'),
  route('webhook-delete', 'DELETE', `${P}/webhooks/{webhookId}`, 'remove a webhook receiver', true, 'required'),
  route('deliveries', 'GET', `${P}/webhooks/{webhookId}/deliveries`, 'delivery log of a webhook receiver', true),
  route(
    'redeliver',
    'POST',
    `${P}/webhooks/{webhookId}/deliveries/{deliveryId}/redeliver`,
    'trigger a logged delivery again',
    true,
    'required',
  ),
  route('audit-log', 'GET', `${P}/audit-log`, 'audit log of the tenant with a Merkle inclusion proof', true),
  route('info', 'GET', `${P}/info`, 'the calling access: tenant, client, environment, token expiry', true),
];

export function selfDescription(origin: string, version: string): Record<string, unknown> {
  return {
    service: 'Network Connections Service',
    surface: 'public',
    version,
    deployment: 'aspen',
    environment: 'sandbox',
    authentication: {
      type: 'oauth2',
      flows: ['client_credentials'],
      tokenEndpoint: `${origin}${TOKEN_PATH}`,
      metadata: `${origin}${METADATA_PATH}`,
      tokenLifetimeSeconds: 300,
      headers: { authorization: 'Bearer <token>', tenant: 'x-service-tenant', version: 'Service-Version (required)' },
    },
    idempotency: {
      header: 'Idempotency-Key',
      pattern: KEY_PATTERN.source,
      validity: 'PT6H from issue',
      scope: 'client and tenant',
      requiredOn: ROUTES.filter((r) => r.key === 'required').map((r) => `${r.method} ${r.path}`),
    },
    serviceVersion: { header: 'Service-Version', required: true, published: ['2026-07-01', '2026-06-12'] },
    webhooks: { events: EVENT_NAMES, signatureHeader: 'X-Aspen-Signature', deliveryIdHeader: 'X-Aspen-Delivery' },
    stream: { events: ['connection.created', 'connection.activated'], retryMs: 3000, heartbeatSeconds: 15 },
    routes: ROUTES.map((r) => ({ method: r.method, path: r.path, purpose: r.purpose, auth: r.auth })),
  };
}
