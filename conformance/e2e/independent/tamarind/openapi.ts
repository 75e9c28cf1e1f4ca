// The OpenAPI 3.1 document the team writes first and Connexion serves: the base path lives in `servers`
// (paths are relative to it), the Keycloak realm's token URL in the oauth2 security scheme.
import { TOKEN_PATH } from './auth.ts';
import { arr, envelope, int, obj, ref, SCHEMAS, str } from './openapi-schemas.ts';
import { ROUTES } from './routes.ts';
import { BASE, type Json, VERSIONS } from './state.ts';
import { EVENT_NAMES } from './webhooks.ts';

const list = (name: string, item: string): Json => obj({ count: int, [name]: arr(ref(item)) });

const DATA: Record<string, Json> = {
  describe: obj({
    service: str,
    surface: str,
    version: str,
    authentication: { type: 'object' },
    idempotency: { type: 'object' },
    routes: arr(ref('RouteInfo')),
  }),
  info: obj({ client_id: str, tenant: str, environment: str, version: str }),
  list_providers: list('providers', 'Provider'),
  list_connectors: list('connectors', 'Connector'),
  list_capabilities: list('capabilities', 'Capability'),
  check_capability: obj({ decision: ref('CapabilityDecision'), environment: ref('Environment') }),
  list_connections: obj({ tenant: str, count: int, connections: arr(ref('Connection')) }),
  create_connection: ref('Connection'),
  get_connection: ref('Connection'),
  create_idempotency_key: ref('IdempotencyKey'),
  list_webhooks: list('webhooks', 'Webhook'),
  create_webhook: ref('Webhook'),
  get_webhook: ref('Webhook'),
  delete_webhook: obj({ id: int, deleted: { type: 'boolean' } }),
  list_delivery_attempts: obj({ webhook_id: int, count: int, deliveries: arr(ref('DeliveryAttempt')) }),
  requeue_delivery_attempt: ref('DeliveryAttempt'),
  list_audit_log: obj({ tenant: str, count: int, entries: arr(ref('AuditEntry')), proof: { type: 'object' } }),
};

export const QUERY: Record<string, string[]> = {
  list_providers: ['category'],
  list_connectors: ['capability', 'providerId', 'category'],
  list_audit_log: ['limit', 'offset'],
  stream: ['cursor'],
};

const EXAMPLES: Record<string, string> = {
  'Service-Version': '2026-07-01',
  'x-service-tenant': 'harbor-bistro',
  'Idempotency-Key': 'connection.create:5f0c9a6e',
  'Last-Event-ID': '41',
};
const header = (name: string, required: boolean, schema: Json = str): Json => {
  const example = EXAMPLES[name];
  return example === undefined
    ? { name, in: 'header', required, schema }
    : { name, in: 'header', required, schema, example };
};
const integerHeader = (description: string): Json => ({ description, schema: { type: 'integer', minimum: 0 } });
/** Flask-Limiter's headers, on every counted answer; Retry-After only on the 429. */
const LIMIT_HEADERS: Json = {
  'X-RateLimit-Limit': integerHeader('calls allowed in the current window'),
  'X-RateLimit-Remaining': integerHeader('calls left in the current window'),
};
const failure = (description: string, headers: Json = LIMIT_HEADERS): Json => ({
  description,
  headers,
  content: { 'application/json': { schema: ref('Failure') } },
});

function operation(r: (typeof ROUTES)[number], versionRequired: boolean): Json {
  const params: Json[] = [header('Service-Version', versionRequired, { type: 'string', enum: [...VERSIONS] })];
  for (const m of r.path.matchAll(/\{(\w+)\}/g)) {
    const name = m[1] ?? '';
    params.push({ name, in: 'path', required: true, schema: name === 'version' ? { enum: [...VERSIONS] } : str });
  }
  for (const q of QUERY[r.operationId] ?? []) {
    const integer = q === 'limit' || q === 'offset' || q === 'cursor';
    params.push({ name: q, in: 'query', required: false, schema: integer ? { type: 'integer', minimum: 0 } : str });
  }
  if (r.operationId === 'stream') params.push(header('Last-Event-ID', false));
  if (r.auth) params.push(header('x-service-tenant', true));
  if (r.key) params.push(header('Idempotency-Key', true, { type: 'string', pattern: '^[A-Za-z0-9._:-]{8,128}$' }));
  const op: Json = { operationId: r.operationId, summary: r.purpose, parameters: params };
  if (r.body) op.requestBody = { required: true, content: { 'application/json': { schema: ref(r.body) } } };
  const ok: Json =
    r.operationId === 'stream'
      ? { description: 'Server-Sent Events', content: { 'text/event-stream': { schema: str } } }
      : r.operationId.startsWith('openapi')
        ? { description: 'OpenAPI document', content: { 'application/json': { schema: { type: 'object' } } } }
        : { description: 'Success', content: { 'application/json': { schema: envelope(DATA[r.operationId] ?? {}) } } };
  ok.headers = LIMIT_HEADERS;
  const limited = failure('rate_limited', { ...LIMIT_HEADERS, 'Retry-After': integerHeader('seconds to wait') });
  op.responses = { '200': ok, '400': failure('invalid_request'), '429': limited };
  if (r.auth) {
    op.security = [{ keycloak: [] }];
    Object.assign(op.responses as Json, { '401': failure('unauthorized'), '403': failure('forbidden') });
    Object.assign(op.responses as Json, { '404': failure('not_found'), '409': failure('conflict') });
  }
  if (r.key) (op.responses as Json)['428'] = failure('idempotency_required');
  (op.responses as Json)['500'] = failure('internal');
  return op;
}

/** The document of one version (the delivery log paths are new in 2026-07-01). */
export function openapiDocument(origin: string, version: string, server = BASE, versionRequired = false): Json {
  const paths: Record<string, Json> = {};
  for (const r of ROUTES) {
    if (version !== '2026-07-01' && r.path.includes('delivery-attempts')) continue;
    const entry = paths[r.path] ?? {};
    entry[r.method.toLowerCase()] = operation(r, versionRequired);
    paths[r.path] = entry;
  }
  return {
    openapi: '3.1.0',
    info: { title: 'Network Connections Service (tamarind)', version, description: 'Public interface.' },
    servers: [{ url: server }],
    paths,
    components: {
      schemas: SCHEMAS,
      securitySchemes: {
        keycloak: { type: 'oauth2', flows: { clientCredentials: { tokenUrl: `${origin}${TOKEN_PATH}`, scopes: {} } } },
      },
    },
    'x-webhook-events': [...EVENT_NAMES],
  };
}
