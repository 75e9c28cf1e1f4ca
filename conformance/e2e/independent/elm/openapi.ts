// The OpenAPI 3.1 document, built in code from the same route list the self-description serves.
import { ROUTES } from './catalog.ts';
import { CURRENT_VERSION } from './http.ts';
import { ENVIRONMENTS } from './state.ts';

type Schema = Record<string, unknown>;
const ref = (name: string): Schema => ({ $ref: `#/components/schemas/${name}` });
const str = (min?: number, max?: number): Schema => ({
  type: 'string',
  ...(min ? { minLength: min } : {}),
  ...(max ? { maxLength: max } : {}),
});
const obj = (properties: Record<string, Schema>, required = Object.keys(properties)): Schema => ({
  type: 'object',
  properties,
  required,
});
const list = (name: string, key: string): Schema =>
  obj({ count: { type: 'integer' }, [key]: { type: 'array', items: ref(name) } });
const free: Schema = { type: 'object', additionalProperties: true };

const schemas: Record<string, Schema> = {
  Meta: obj(
    {
      requestId: str(),
      version: str(),
      at: { type: 'string', format: 'date-time' },
      idempotencyKey: str(),
      replayed: { type: 'boolean' },
    },
    ['requestId', 'version', 'at'],
  ),
  Error: obj({
    ok: { const: false },
    error: obj(
      {
        code: {
          type: 'string',
          enum: [
            'unauthorized',
            'forbidden',
            'not_found',
            'invalid_request',
            'capability_denied',
            'idempotency_conflict',
            'idempotency_required',
            'rate_limited',
            'internal',
          ],
        },
        message: str(),
        detail: str(),
        hint: str(),
      },
      ['code', 'message'],
    ),
    meta: ref('Meta'),
  }),
  Environment: { type: 'string', enum: ENVIRONMENTS },
  Provider: obj({ id: str(), name: str(), category: str(), summary: str() }),
  Connector: obj({
    id: str(),
    providerId: str(),
    name: str(),
    category: str(),
    capabilities: { type: 'array', items: str() },
  }),
  Capability: obj({ id: str(), label: str(), critical: { type: 'boolean' }, idempotencyRequired: { type: 'boolean' } }),
  CapabilityDecision: obj({
    connectorId: str(),
    capability: str(),
    allowed: { type: 'boolean' },
    critical: { type: 'boolean' },
    idempotencyRequired: { type: 'boolean' },
    reason: str(),
  }),
  Connection: obj({
    id: str(),
    connectorId: str(),
    environment: ref('Environment'),
    scopeLabel: str(),
    state: { type: 'string', enum: ['Requested', 'Active'] },
    capabilities: {
      type: 'array',
      items: obj({ capability: str(), critical: { type: 'boolean' }, idempotencyRequired: { type: 'boolean' } }),
    },
    nextStep: str(),
    createdAt: { type: 'string', format: 'date-time' },
  }),
  RouteInfo: obj({ method: str(), path: str(), purpose: str(), auth: { type: 'boolean' } }),
};

const dataOf: Record<string, Schema> = {
  'GET /api/public/v1': obj({
    service: str(),
    surface: str(),
    version: str(),
    authentication: free,
    idempotency: free,
    routes: { type: 'array', items: ref('RouteInfo') },
  }),
  'GET /api/public/v1/info': free,
  'GET /api/public/v1/providers': list('Provider', 'providers'),
  'GET /api/public/v1/connectors': list('Connector', 'connectors'),
  'GET /api/public/v1/capabilities': list('Capability', 'capabilities'),
  'POST /api/public/v1/capabilities': obj({ decision: ref('CapabilityDecision'), environment: ref('Environment') }),
  'GET /api/public/v1/connections': obj({
    tenant: str(),
    count: { type: 'integer' },
    connections: { type: 'array', items: ref('Connection') },
  }),
  'POST /api/public/v1/connections': ref('Connection'),
  'POST /api/public/v1/idempotency-keys': obj({
    idempotencyKey: str(),
    operation: str(),
    expiresAt: { type: 'string', format: 'date-time' },
  }),
};

const bodies: Record<string, Schema> = {
  'POST /api/public/v1/capabilities': {
    ...obj({ connectorId: str(2, 120), capability: str(2, 120), environment: ref('Environment') }, [
      'connectorId',
      'capability',
    ]),
    additionalProperties: false,
  },
  'POST /api/public/v1/connections': {
    ...obj({
      connectorId: str(2, 120),
      environment: ref('Environment'),
      scopeLabel: str(2, 120),
      capabilities: { type: 'array', minItems: 1, maxItems: 24, items: str(2, 120) },
    }),
    additionalProperties: false,
  },
  'POST /api/public/v1/idempotency-keys': { ...obj({ operation: str(2, 80) }), additionalProperties: false },
  'POST /api/public/v1/webhooks': {
    ...obj({ url: { type: 'string', format: 'uri' }, events: { type: 'array', items: str() } }),
    additionalProperties: false,
  },
};

const keyed = new Set([
  'POST /api/public/v1/connections',
  'POST /api/public/v1/webhooks',
  'DELETE /api/public/v1/webhooks/{webhookId}',
  'POST /api/public/v1/webhooks/{webhookId}/deliveries/{deliveryId}/redeliver',
]);

const queries: Record<string, Schema[]> = {
  'GET /api/public/v1/providers': [{ name: 'category', in: 'query', required: false, schema: str() }],
  'GET /api/public/v1/connectors': ['capability', 'providerId', 'category'].map((name) => ({
    name,
    in: 'query',
    required: false,
    schema: str(),
  })),
  'GET /api/public/v1/stream': [
    { name: 'cursor', in: 'query', required: false, schema: { type: 'integer', minimum: 0 } },
    { name: 'Last-Event-ID', in: 'header', required: false, schema: str() },
  ],
  'GET /api/public/v1/audit-log': [
    { name: 'limit', in: 'query', required: false, schema: { type: 'integer', minimum: 1, maximum: 100, default: 50 } },
    { name: 'cursor', in: 'query', required: false, schema: str() },
  ],
};

function operation(method: string, path: string, purpose: string, auth: boolean, auditMaxLimit: number): Schema {
  const id = `${method} ${path}`;
  const parameters: Schema[] = (queries[id] ?? []).map((p) =>
    // The audit log's largest page is a setting: the document states the one served.
    id === 'GET /api/public/v1/audit-log' && p.name === 'limit'
      ? { ...p, schema: { type: 'integer', minimum: 1, maximum: auditMaxLimit, default: Math.min(50, auditMaxLimit) } }
      : p,
  );
  for (const name of path.match(/\{(\w+)\}/g) ?? [])
    parameters.push({ name: name.slice(1, -1), in: 'path', required: true, schema: str() });
  if (auth) parameters.push({ name: 'x-service-tenant', in: 'header', required: true, schema: str() });
  if (keyed.has(id))
    parameters.push({
      name: 'Idempotency-Key',
      in: 'header',
      required: true,
      schema: { type: 'string', pattern: '^[A-Za-z0-9._:-]{8,128}$' },
    });
  parameters.push({
    name: 'Service-Version',
    in: 'header',
    required: false,
    schema: { type: 'string', enum: ['2026-07-01', '2026-06-12'] },
  });
  const success =
    path === '/api/public/v1/stream'
      ? { description: 'Server-Sent Events', content: { 'text/event-stream': { schema: str() } } }
      : path === '/api/public/v1/openapi.json'
        ? { description: 'OpenAPI 3.1 document', content: { 'application/json': { schema: free } } }
        : {
            description: 'success',
            content: {
              'application/json': { schema: obj({ ok: { const: true }, data: dataOf[id] ?? free, meta: ref('Meta') }) },
            },
          };
  const responses: Record<string, Schema> = { '200': success };
  const failures = auth ? ['400', '401', '403', '404', '409', '428', '429', '500'] : ['400', '500'];
  for (const status of failures)
    responses[status] = { description: 'failure', content: { 'application/json': { schema: ref('Error') } } };
  const op: Schema = {
    operationId: purpose.replace(/[^A-Za-z]+(.)?/g, (_m, c: string | undefined) => (c ?? '').toUpperCase()),
    summary: purpose,
    parameters,
    responses,
  };
  if (auth) op.security = [{ oauth2: [] }];
  const body = bodies[id];
  if (body) op.requestBody = { required: true, content: { 'application/json': { schema: body } } };
  return op;
}

export function openApiDocument(baseUrl: string, auditMaxLimit = 100): Schema {
  const paths: Record<string, Record<string, Schema>> = {};
  for (const r of ROUTES) {
    const entry = paths[r.path] ?? {};
    entry[r.method.toLowerCase()] = operation(r.method, r.path, r.purpose, r.auth, auditMaxLimit);
    paths[r.path] = entry;
  }
  return {
    openapi: '3.1.0',
    info: { title: 'Network Connections Service', version: CURRENT_VERSION },
    servers: [{ url: baseUrl }],
    paths,
    components: {
      schemas,
      securitySchemes: {
        oauth2: {
          type: 'oauth2',
          flows: {
            clientCredentials: { tokenUrl: `${baseUrl}/connect/token`, scopes: { 'ncs.public': 'public interface' } },
          },
        },
      },
    },
  };
}
