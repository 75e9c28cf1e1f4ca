// The OpenAPI 3.1 document, built from the route table and the request schemas, so what is described is
// what is served (FastAPI would generate it the same way).
import { CURRENT_VERSION, STATUS_OF } from './http-util.ts';
import { type Route, SCHEMAS } from './route-types.ts';
import { ROUTES } from './routes.ts';
import type { FieldSpec, Schema } from './validate.ts';
import { EVENT_NAMES } from './webhooks.ts';

type Json = Record<string, unknown>;
const str = { type: 'string' };
const int = { type: 'integer', minimum: 0 };
const bool = { type: 'boolean' };
const time = { type: 'string', format: 'date-time' };
const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });
const arr = (items: unknown) => ({ type: 'array', items });
const obj = (properties: Json, required = Object.keys(properties)): Json => ({ type: 'object', properties, required });

function field(f: FieldSpec): Json {
  if (f.type === 'enum') return { type: 'string', enum: [...f.values] };
  if (f.type === 'string') return { type: 'string', minLength: f.min, maxLength: f.max };
  return { type: 'array', minItems: f.min, maxItems: f.max, items: field({ ...f.items, required: true }) };
}

function bodySchema(s: Schema): Json {
  const properties: Json = {};
  for (const [k, f] of Object.entries(s)) properties[k] = field(f);
  const required = Object.entries(s)
    .filter(([, f]) => f.required)
    .map(([k]) => k);
  return { type: 'object', properties, required, additionalProperties: false };
}

const SCHEMAS_OUT: Json = {
  Meta: obj({ requestId: str, version: str, at: time, idempotencyKey: str, replayed: bool }, [
    'requestId',
    'version',
    'at',
  ]),
  Failure: obj({
    ok: { const: false },
    error: obj({ code: { type: 'string', enum: Object.keys(STATUS_OF) }, message: str, detail: str, hint: str }, [
      'code',
      'message',
    ]),
    meta: ref('Meta'),
  }),
  Provider: obj({ id: str, name: str, category: str, summary: str }),
  Connector: obj({ id: str, providerId: str, name: str, category: str, capabilities: arr(str) }),
  Capability: obj({ id: str, label: str, critical: bool, idempotencyRequired: bool }),
  CapabilityDecision: obj({
    connectorId: str,
    capability: str,
    allowed: bool,
    critical: bool,
    idempotencyRequired: bool,
    reason: str,
  }),
  Connection: obj({
    id: str,
    connectorId: str,
    environment: { type: 'string', enum: ['development', 'sandbox', 'pilot', 'production'] },
    scopeLabel: str,
    state: { type: 'string', enum: ['pending_activation', 'active'] },
    capabilities: arr(obj({ capability: str, critical: bool, idempotencyRequired: bool })),
    nextStep: str,
    createdAt: time,
  }),
  Delivery: obj(
    {
      id: str,
      webhookId: str,
      eventId: str,
      event: str,
      status: { type: 'string', enum: ['pending', 'succeeded', 'failed'] },
      attempts: int,
      createdAt: time,
    },
    ['id', 'webhookId', 'eventId', 'event', 'status'],
  ),
};

const DATA: Record<string, Json> = {
  'GET /api/public/v1': obj({
    service: str,
    surface: str,
    version: str,
    authentication: { type: 'object' },
    idempotency: { type: 'object' },
    routes: arr(obj({ method: str, path: str, purpose: str, auth: bool })),
  }),
  'GET /api/public/v1/providers': obj({ count: int, providers: arr(ref('Provider')) }),
  'GET /api/public/v1/connectors': obj({ count: int, connectors: arr(ref('Connector')) }),
  'GET /api/public/v1/capabilities': obj({ count: int, capabilities: arr(ref('Capability')) }),
  'POST /api/public/v1/capabilities': obj({ decision: ref('CapabilityDecision'), environment: str }),
  'GET /api/public/v1/connections': obj({ tenant: str, count: int, connections: arr(ref('Connection')) }),
  'POST /api/public/v1/connections': ref('Connection'),
  'POST /api/public/v1/idempotency-keys': obj({ idempotencyKey: str, operation: str, expiresAt: time }),
  'POST /api/public/v1/webhooks': obj({ id: str, url: str, events: arr(str), createdAt: time, signingKey: str }),
  'GET /api/public/v1/webhooks/{webhookId}/deliveries': obj({
    webhookId: str,
    total: int,
    offset: int,
    limit: int,
    count: int,
    deliveries: arr(ref('Delivery')),
  }),
  'POST /api/public/v1/webhooks/{webhookId}/deliveries/{deliveryId}/retry': ref('Delivery'),
  'GET /api/public/v1/audit-log': obj({
    total: int,
    offset: int,
    limit: int,
    count: int,
    entries: arr({ type: 'object' }),
    proof: { type: 'object' },
  }),
};

const QUERY: Record<string, Json[]> = {
  'GET /api/public/v1/providers': [{ name: 'category', in: 'query', schema: str }],
  'GET /api/public/v1/connectors': ['capability', 'providerId', 'category'].map((name) => ({
    name,
    in: 'query',
    schema: str,
  })),
  'GET /api/public/v1/stream': [
    { name: 'cursor', in: 'query', schema: int },
    { name: 'Last-Event-ID', in: 'header', schema: str },
  ],
  'GET /api/public/v1/audit-log': [
    { name: 'offset', in: 'query', schema: int },
    { name: 'limit', in: 'query', schema: { type: 'integer', minimum: 1, maximum: 500 } },
  ],
  'GET /api/public/v1/webhooks/{webhookId}/deliveries': [
    { name: 'status', in: 'query', schema: { type: 'string', enum: ['pending', 'succeeded', 'failed'] } },
    { name: 'offset', in: 'query', schema: int },
    { name: 'limit', in: 'query', schema: { type: 'integer', minimum: 1, maximum: 200 } },
  ],
};

const BODY: Record<string, Schema | undefined> = {
  'POST /api/public/v1/capabilities': SCHEMAS.capabilityCheck,
  'POST /api/public/v1/connections': SCHEMAS.connectionCreate,
  'POST /api/public/v1/idempotency-keys': SCHEMAS.keyCreate,
  'POST /api/public/v1/webhooks': SCHEMAS.webhookCreate,
};

function operation(r: Route): Json {
  const id = `${r.method} ${r.path}`;
  const parameters: Json[] = [...(QUERY[id] ?? [])];
  for (const m of r.path.matchAll(/\{(\w+)\}/g))
    parameters.push({ name: m[1], in: 'path', required: true, schema: str });
  if (r.auth) parameters.push({ name: 'x-service-tenant', in: 'header', required: true, schema: str });
  if (r.key)
    parameters.push({
      name: 'Idempotency-Key',
      in: 'header',
      required: r.key === 'required',
      schema: { type: 'string', pattern: '^[A-Za-z0-9._:-]{8,128}$' },
    });
  parameters.push({
    name: 'Service-Version',
    in: 'header',
    required: false,
    schema: { type: 'string', enum: ['2026-07-01', '2026-06-12'] },
  });
  const headers: Json = { 'X-Request-Id': { schema: str } };
  if (r.auth) {
    headers['X-RateLimit-Limit'] = { schema: { type: 'integer' }, description: 'calls allowed in the current window' };
    headers['X-RateLimit-Remaining'] = { schema: { type: 'integer' }, description: 'calls left in the current window' };
    headers['X-RateLimit-Reset'] = { schema: { type: 'integer' }, description: 'unix seconds when the window ends' };
  }
  const failure = { description: 'failure', headers, content: { 'application/json': { schema: ref('Failure') } } };
  const limited = {
    description: 'rate_limited',
    headers: { ...headers, 'Retry-After': { schema: { type: 'integer', minimum: 1 }, description: 'seconds to wait' } },
    content: failure.content,
  };
  let ok: Json;
  if (r.path.endsWith('/stream'))
    ok = { description: 'Server-Sent Events', content: { 'text/event-stream': { schema: str } } };
  else if (r.path.endsWith('/openapi.json'))
    ok = { description: 'this document', content: { 'application/json': { schema: { type: 'object' } } } };
  else
    ok = {
      description: 'success',
      headers,
      content: {
        'application/json': {
          schema: obj({ ok: { const: true }, data: DATA[id] ?? { type: 'object' }, meta: ref('Meta') }),
        },
      },
    };
  const responses: Json = { '200': ok };
  for (const s of r.auth ? ['400', '401', '403', '404', '409', '428', '429', '500'] : ['400', '404', '500'])
    responses[s] = s === '429' ? limited : failure;
  const op: Json = {
    operationId: `${r.method.toLowerCase()}${r.path.replace(/[^A-Za-z0-9]+(.)?/g, (_m, c: string | undefined) => (c ?? '').toUpperCase())}`,
    summary: r.purpose,
    parameters,
    responses,
  };
  if (r.auth) op.security = [{ oauth2: [] }];
  const body = BODY[id];
  if (body) op.requestBody = { required: true, content: { 'application/json': { schema: bodySchema(body) } } };
  return op;
}

/** The description of one version (2026-06-12 has no delivery log). */
export function openApiDocument(origin: string, version = CURRENT_VERSION): Json {
  const paths: Record<string, Json> = {};
  for (const r of ROUTES.filter((x) => !x.since || x.since <= version)) {
    const entry = paths[r.path] ?? {};
    entry[r.method.toLowerCase()] = operation(r);
    paths[r.path] = entry;
  }
  return {
    openapi: '3.1.0',
    info: { title: 'Network Connections Service (baobab)', version },
    servers: [{ url: origin }],
    paths,
    webhooks: {
      'connection.created': {
        post: {
          requestBody: {
            content: {
              'application/json': {
                schema: obj({
                  id: str,
                  event: { type: 'string', enum: [...EVENT_NAMES] },
                  createdAt: time,
                  data: { type: 'object' },
                }),
              },
            },
          },
          responses: { '204': { description: 'received' } },
        },
      },
    },
    components: {
      schemas: SCHEMAS_OUT,
      securitySchemes: {
        oauth2: { type: 'oauth2', flows: { clientCredentials: { tokenUrl: `${origin}/oauth2/token`, scopes: {} } } },
      },
    },
  };
}
