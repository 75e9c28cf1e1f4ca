// The OpenAPI 3.1 document, built from the route table: paths relative to the server base `/api/public/v1`.
import { BODIES, DATA, SCHEMAS } from './openapi-schemas.ts';
import { ROUTES } from './routes.ts';
import { EVENT_NAMES, type Rec, VERSION } from './state.ts';

const BASE = '/api/public/v1';
const ERRORS: Record<string, string> = {
  '400': 'invalid_request',
  '401': 'unauthorized',
  '403': 'forbidden',
  '404': 'not_found',
  '409': 'capability_denied or idempotency_conflict',
  '428': 'idempotency_required',
  '429': 'rate_limited',
  '500': 'internal',
};

const int = (description: string) => ({ description, schema: { type: 'integer', minimum: 0 } });
const LIMIT_HEADERS = {
  'X-RateLimit-Limit': int('calls allowed in the window'),
  'X-RateLimit-Remaining': int('calls left in the window'),
};
const failure = (description: string, status: string) => ({
  description,
  ...(status === '429' ? { headers: { ...LIMIT_HEADERS, 'Retry-After': int('seconds to wait') } } : {}),
  content: { 'application/json': { schema: { $ref: '#/components/schemas/Failure' } } },
});
const envelope = (data: Rec) => ({
  type: 'object',
  required: ['ok', 'data', 'meta'],
  properties: { ok: { const: true }, data, meta: { $ref: '#/components/schemas/Meta' } },
});

function params(path: string, op: string, key: boolean | undefined, auth: boolean): Rec[] {
  const out: Rec[] = [...path.matchAll(/\{(\w+)\}/g)].map((m) => ({
    name: m[1],
    in: 'path',
    required: true,
    schema: { type: 'string' },
  }));
  if (auth) out.push({ name: 'x-service-tenant', in: 'header', required: true, schema: { type: 'string' } });
  if (key)
    out.push({
      name: 'Idempotency-Key',
      in: 'header',
      required: true,
      schema: { type: 'string', pattern: '^[A-Za-z0-9._:-]{8,128}$' },
    });
  out.push({
    name: 'Service-Version',
    in: 'header',
    required: false,
    schema: { type: 'string', enum: ['2026-07-01', '2026-06-12'] },
  });
  const q = (name: string, schema: Rec = { type: 'string' }) =>
    out.push({ name, in: 'query', required: false, schema });
  if (op === 'list_providers') q('category');
  if (op === 'list_connectors') for (const n of ['capability', 'providerId', 'category']) q(n);
  if (op === 'audit_log')
    for (const n of ['limit', 'before', 'after']) q(n, { type: 'integer', minimum: n === 'limit' ? 1 : 0 });
  if (op === 'stream') {
    q('cursor', { type: 'integer', minimum: 0 });
    out.push({ name: 'Last-Event-ID', in: 'header', required: false, schema: { type: 'string' } });
  }
  return out;
}

function operation(r: (typeof ROUTES)[number]): Rec {
  const o: Rec = { operationId: r.op, summary: r.purpose, parameters: params(r.path, r.op, r.key, r.auth) };
  if (r.auth) o.security = [{ oauth2: [] }];
  else o.security = [];
  if (r.op === 'stream')
    o.responses = {
      '200': { description: 'Server-Sent Events', content: { 'text/event-stream': { schema: { type: 'string' } } } },
    };
  else if (r.op.startsWith('openapi'))
    o.responses = {
      '200': {
        description: 'OpenAPI document',
        content: {
          [r.op.endsWith('yaml') ? 'application/yaml' : 'application/json']: {
            schema: { type: r.op.endsWith('yaml') ? 'string' : 'object' },
          },
        },
      },
    };
  else
    o.responses = {
      '200': {
        description: 'Success',
        ...(r.auth ? { headers: LIMIT_HEADERS } : {}),
        content: { 'application/json': { schema: envelope(DATA[r.op] ?? { type: 'object' }) } },
      },
    };
  if (r.auth) for (const [status, code] of Object.entries(ERRORS)) o.responses[status] = failure(code, status);
  const body =
    r.op === 'create_webhook'
      ? {
          type: 'object',
          required: ['url', 'events'],
          properties: {
            url: { type: 'string', format: 'uri' },
            events: { type: 'array', minItems: 1, items: { type: 'string', enum: EVENT_NAMES } },
          },
        }
      : BODIES[r.op];
  if (body) o.requestBody = { required: true, content: { 'application/json': { schema: body } } };
  return o;
}

export function openapi(origin: string, version = VERSION): Rec {
  const paths: Rec = {};
  for (const r of ROUTES) {
    const rel = r.path === BASE ? '/' : r.path.slice(BASE.length);
    paths[rel] ??= {};
    paths[rel][r.method.toLowerCase()] = operation(r);
  }
  return {
    openapi: '3.1.0',
    info: {
      title: 'Network Connections Service (bayberry)',
      version,
      description: 'Served by bayberry, a Gleam/BEAM deployment.',
    },
    servers: [{ url: BASE }],
    paths,
    components: {
      schemas: SCHEMAS,
      securitySchemes: {
        oauth2: { type: 'oauth2', flows: { clientCredentials: { tokenUrl: `${origin}/oauth2/token`, scopes: {} } } },
      },
    },
    webhooks: {
      'connection.created': {
        post: {
          summary: 'A connection was created',
          requestBody: { content: { 'application/json': { schema: { type: 'object' } } } },
          responses: { '204': { description: 'received' } },
        },
      },
    },
  };
}
