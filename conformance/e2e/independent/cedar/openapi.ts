// cedar's OpenAPI 3.1 document, built from the route table: paths relative to servers[0] (/api/public/v1).
import { CURRENT_VERSION } from './http-kit.ts';
import { ROUTES } from './routes.ts';
import { ENVIRONMENTS, KEY_PATTERN } from './validate.ts';
import { WEBHOOK_EVENTS } from './webhooks.ts';

const str = (min?: number, max?: number) => ({
  type: 'string',
  ...(min ? { minLength: min } : {}),
  ...(max ? { maxLength: max } : {}),
});
const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });
const obj = (props: Record<string, unknown>, required = Object.keys(props)) => ({
  type: 'object',
  properties: props,
  required,
});
const list = (field: string, item: unknown) =>
  obj({ count: { type: 'integer', minimum: 0 }, [field]: { type: 'array', items: item } });

const SCHEMAS: Record<string, unknown> = {
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
  Failure: obj({
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
        type: str(),
        title: str(),
        status: { type: 'integer' },
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
    state: { type: 'string', description: 'provisioning, active' },
    capabilities: {
      type: 'array',
      items: obj({ capability: str(), critical: { type: 'boolean' }, idempotencyRequired: { type: 'boolean' } }),
    },
    nextStep: str(),
    createdAt: { type: 'string', format: 'date-time' },
  }),
  RouteInfo: obj({ method: str(), path: str(), purpose: str(), auth: { type: 'boolean' } }),
  IdempotencyKeyResult: obj({
    idempotencyKey: str(),
    operation: str(),
    expiresAt: { type: 'string', format: 'date-time' },
  }),
};

const DATA: Record<string, unknown> = {
  'GET /api/public/v1': obj({
    service: str(),
    surface: str(),
    version: str(),
    authentication: { type: 'object' },
    idempotency: { type: 'object' },
    routes: { type: 'array', items: ref('RouteInfo') },
  }),
  'GET /api/public/v1/providers': list('providers', ref('Provider')),
  'GET /api/public/v1/connectors': list('connectors', ref('Connector')),
  'GET /api/public/v1/capabilities': list('capabilities', ref('Capability')),
  'POST /api/public/v1/capabilities': obj({ decision: ref('CapabilityDecision'), environment: ref('Environment') }),
  'GET /api/public/v1/connections': obj({
    tenant: str(),
    count: { type: 'integer', minimum: 0 },
    connections: { type: 'array', items: ref('Connection') },
  }),
  'POST /api/public/v1/connections': ref('Connection'),
  'GET /api/public/v1/connections/{connectionId}': ref('Connection'),
  'POST /api/public/v1/idempotency-keys': ref('IdempotencyKeyResult'),
};

const BODIES: Record<string, unknown> = {
  'POST /api/public/v1/capabilities': obj(
    { connectorId: str(2, 120), capability: str(2, 120), environment: ref('Environment') },
    ['connectorId', 'capability'],
  ),
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
    ...obj({
      url: { type: 'string', format: 'uri' },
      events: { type: 'array', minItems: 1, maxItems: 20, items: { type: 'string', enum: WEBHOOK_EVENTS } },
    }),
    additionalProperties: false,
  },
};

const envelope = (data: unknown) => obj({ ok: { const: true }, data, meta: ref('Meta') });
const failure = (description: string) => ({ description, content: { 'application/json': { schema: ref('Failure') } } });
const keyParam = (required: boolean) => ({
  name: 'Idempotency-Key',
  in: 'header',
  required,
  schema: { type: 'string', pattern: KEY_PATTERN.source, minLength: 8, maxLength: 128 },
});

export function openApiDocument(origin: string, absoluteServer = false): Record<string, unknown> {
  const paths: Record<string, Record<string, unknown>> = {};
  for (const r of ROUTES) {
    const id = `${r.method} ${r.path}`;
    const rel = r.path.replace('/api/public/v1', '') || '/';
    const parameters: unknown[] = [
      {
        name: 'Service-Version',
        in: 'header',
        required: false,
        schema: { type: 'string', enum: ['2026-07-01', '2026-06-12'] },
      },
    ];
    if (r.auth) parameters.push({ name: 'x-service-tenant', in: 'header', required: true, schema: str(1) });
    if (r.key || r.keyOptional) parameters.push(keyParam(r.key));
    for (const m of r.path.matchAll(/\{(\w+)\}/g))
      parameters.push({ name: m[1], in: 'path', required: true, schema: str(1, 64) });
    if (r.path.endsWith('/providers'))
      parameters.push({ name: 'category', in: 'query', required: false, schema: str() });
    if (id === 'GET /api/public/v1/connectors') {
      for (const n of ['capability', 'providerId', 'category'])
        parameters.push({ name: n, in: 'query', required: false, schema: str() });
    }
    if (r.path.endsWith('/stream'))
      parameters.push(
        { name: 'cursor', in: 'query', required: false, schema: { type: 'integer', minimum: 0 } },
        { name: 'Last-Event-ID', in: 'header', required: false, schema: str() },
      );
    if (r.path.endsWith('/audit-log'))
      parameters.push(
        { name: 'limit', in: 'query', required: false, schema: { type: 'integer', minimum: 1, maximum: 200 } },
        { name: 'cursor', in: 'query', required: false, schema: { type: 'integer', minimum: 0 } },
      );
    const ok =
      id === 'GET /api/public/v1/openapi.json'
        ? { description: 'the OpenAPI 3.1 document', content: { 'application/json': { schema: { type: 'object' } } } }
        : id === 'GET /api/public/v1/stream'
          ? {
              description: 'Server-Sent Events; id is the consecutive number',
              content: { 'text/event-stream': { schema: { type: 'string' } } },
            }
          : {
              description: 'success',
              content: { 'application/json': { schema: envelope(DATA[id] ?? { type: 'object' }) } },
            };
    const responses: Record<string, unknown> = {
      '200': ok,
      '400': failure('invalid_request'),
      '500': failure('internal'),
    };
    if (r.auth)
      Object.assign(responses, {
        '401': failure('unauthorized'),
        '403': failure('forbidden'),
        '404': failure('not_found'),
        '409': failure('conflict or capability_denied'),
        '429': failure('rate_limited'),
      });
    if (r.key) responses['428'] = failure('idempotency_required');
    const operation: Record<string, unknown> = {
      operationId: `${r.method.toLowerCase()}${rel.replace(/[{}]/g, '').replace(/[^A-Za-z0-9]+(.)?/g, (_s, c: string | undefined) => (c ? c.toUpperCase() : ''))}`,
      summary: r.purpose,
      tags: [r.tag],
      parameters,
      responses,
      security: r.auth ? [{ oauth2: [] }] : [],
    };
    if (BODIES[id]) operation.requestBody = { required: true, content: { 'application/json': { schema: BODIES[id] } } };
    paths[rel] = { ...(paths[rel] ?? {}), [r.method.toLowerCase()]: operation };
  }
  return {
    openapi: '3.1.0',
    info: { title: 'Network Connections Service (cedar)', version: CURRENT_VERSION },
    servers: [{ url: absoluteServer ? `${origin}/api/public/v1` : '/api/public/v1' }],
    paths,
    components: {
      schemas: SCHEMAS,
      securitySchemes: {
        oauth2: { type: 'oauth2', flows: { clientCredentials: { tokenUrl: `${origin}/oauth2/token`, scopes: {} } } },
      },
    },
  };
}
