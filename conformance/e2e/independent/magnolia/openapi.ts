// The OpenAPI 3.1 document, built from the route table: servers name the base path, paths are relative
// (Hasura's REST export style). Also a YAML rendering of the same document for the per-version download.
import { AUDIENCE } from './auth.ts';
import { anyObj, ENV, list, obj, ref, schemas, str } from './openapi-parts.ts';
import { BASE, ROUTES, type Route } from './routes.ts';
import { CURRENT_VERSION } from './util.ts';
import { EVENT_NAMES } from './webhooks.ts';

export { toYaml } from './openapi-parts.ts';

const DATA: Record<string, unknown> = {
  describe: obj(
    {
      service: str(),
      surface: str(),
      version: str(),
      authentication: anyObj,
      idempotency: anyObj,
      routes: { type: 'array', items: ref('RouteInfo') },
    },
    ['service', 'surface', 'version', 'authentication', 'idempotency', 'routes'],
  ),
  listProviders: list('providers', 'Provider'),
  listConnectors: list('connectors', 'Connector'),
  listCapabilities: list('capabilities', 'Capability'),
  checkCapability: obj({ decision: ref('CapabilityDecision'), environment: ENV }, ['decision', 'environment']),
  listConnections: obj(
    { tenant: str(), count: { type: 'integer' }, connections: { type: 'array', items: ref('Connection') } },
    ['tenant', 'count', 'connections'],
  ),
  createConnection: ref('Connection'),
  issueKey: obj({ idempotencyKey: str(), operation: str(), expiresAt: { type: 'string', format: 'date-time' } }, [
    'idempotencyKey',
    'operation',
    'expiresAt',
  ]),
};

const BODIES: Record<string, unknown> = {
  checkCapability: obj(
    { connectorId: str(2, 120), capability: str(2, 120), environment: { ...ENV, default: 'sandbox' } },
    ['connectorId', 'capability'],
    { additionalProperties: false },
  ),
  createConnection: obj(
    {
      connectorId: str(2, 120),
      environment: ENV,
      scopeLabel: str(2, 120),
      capabilities: { type: 'array', minItems: 1, maxItems: 24, items: str(2, 120) },
    },
    ['connectorId', 'environment', 'scopeLabel', 'capabilities'],
    { additionalProperties: false },
  ),
  issueKey: obj({ operation: str(2, 80) }, ['operation'], { additionalProperties: false }),
  createWebhook: obj(
    {
      url: { type: 'string', format: 'uri' },
      events: { type: 'array', minItems: 1, items: { type: 'string', enum: EVENT_NAMES } },
      description: str(0, 200),
    },
    ['url', 'events'],
  ),
};

const QUERY: Record<string, [string, unknown][]> = {
  listProviders: [['category', str()]],
  listConnectors: [
    ['capability', str()],
    ['providerId', str()],
    ['category', str()],
  ],
  stream: [['cursor', { type: 'integer', minimum: 0 }]],
  listAttempts: [
    ['limit', { type: 'integer', minimum: 1, maximum: 250, default: 50 }],
    ['offset', { type: 'integer', minimum: 0, default: 0 }],
  ],
  auditLog: [
    ['limit', { type: 'integer', minimum: 1, maximum: 500, default: 50 }],
    ['offset', { type: 'integer', minimum: 0, default: 0 }],
  ],
};

const COUNT = { type: 'integer', minimum: 0 };
const LIMIT_HEADERS = { 'X-RateLimit-Limit': { schema: COUNT }, 'X-RateLimit-Remaining': { schema: COUNT } };
const ERRORS: Record<string, string> = {
  '400': 'invalid_request',
  '401': 'unauthorized',
  '403': 'forbidden',
  '404': 'not_found',
  '409': 'idempotency_conflict or capability_denied',
  '428': 'idempotency_required',
  '429': 'rate_limited',
  '500': 'internal',
};

function operation(r: Route): Record<string, unknown> {
  const params: unknown[] = [{ $ref: '#/components/parameters/ServiceVersion' }];
  if (r.auth !== 'public') params.push({ $ref: '#/components/parameters/Tenant' });
  if (r.auth === 'key') params.push({ $ref: '#/components/parameters/IdempotencyKey' });
  for (const m of r.path.matchAll(/\{(\w+)\}/g)) params.push({ name: m[1], in: 'path', required: true, schema: str() });
  for (const [name, schema] of QUERY[r.operationId] ?? []) params.push({ name, in: 'query', required: false, schema });
  if (r.operationId === 'stream') params.push({ name: 'Last-Event-ID', in: 'header', required: false, schema: str() });
  let content: Record<string, unknown>;
  if (r.operationId === 'stream') content = { 'text/event-stream': { schema: { type: 'string' } } };
  else if (r.operationId.startsWith('openapi') && r.operationId !== 'openapiJson' && r.path.endsWith('.yaml'))
    content = { 'application/yaml': { schema: { type: 'string' } } };
  else if (r.operationId.startsWith('openapi') || r.operationId === 'auditKeys')
    content = { 'application/json': { schema: anyObj } };
  else
    content = {
      'application/json': {
        schema: obj({ ok: { const: true }, data: DATA[r.operationId] ?? anyObj, meta: ref('Meta') }, [
          'ok',
          'data',
          'meta',
        ]),
      },
    };
  const responses: Record<string, unknown> = {
    '200': { description: 'success', content, ...(r.auth !== 'public' ? { headers: LIMIT_HEADERS } : {}) },
  };
  const statuses = r.auth === 'public' ? (r.operationId === 'stream' ? ['400', '500'] : ['500']) : Object.keys(ERRORS);
  for (const s of statuses)
    responses[s] = {
      description: ERRORS[s],
      content: { 'application/json': { schema: ref('Failure') } },
      ...(s === '429'
        ? { headers: { ...LIMIT_HEADERS, 'Retry-After': { schema: { type: 'integer', minimum: 1 } } } }
        : r.auth !== 'public'
          ? { headers: LIMIT_HEADERS }
          : {}),
    };
  const op: Record<string, unknown> = { operationId: r.operationId, summary: r.purpose, parameters: params, responses };
  op.security = r.auth === 'public' ? [] : [{ auth0: [] }];
  if (BODIES[r.operationId])
    op.requestBody = { required: true, content: { 'application/json': { schema: BODIES[r.operationId] } } };
  return op;
}

export function openapi(origin: string): Record<string, unknown> {
  const paths: Record<string, Record<string, unknown>> = {};
  for (const r of ROUTES) {
    const p = r.path === '' ? '/' : r.path;
    paths[p] = { ...(paths[p] ?? {}), [r.method.toLowerCase()]: operation(r) };
  }
  return {
    openapi: '3.1.0',
    info: { title: 'Network Connections Service (magnolia)', version: CURRENT_VERSION },
    servers: [{ url: BASE }],
    paths,
    components: {
      securitySchemes: {
        auth0: {
          type: 'oauth2',
          description: `client credentials; audience ${AUDIENCE}`,
          flows: { clientCredentials: { tokenUrl: `${origin}/oauth/token`, scopes: {} } },
        },
      },
      parameters: {
        ServiceVersion: {
          name: 'Service-Version',
          in: 'header',
          required: false,
          schema: { type: 'string', examples: [CURRENT_VERSION] },
        },
        Tenant: { name: 'x-service-tenant', in: 'header', required: true, schema: str(1, 200) },
        IdempotencyKey: {
          name: 'Idempotency-Key',
          in: 'header',
          required: true,
          schema: { type: 'string', pattern: '^[A-Za-z0-9._:-]{8,128}$' },
        },
      },
      schemas: schemas(),
    },
  };
}
