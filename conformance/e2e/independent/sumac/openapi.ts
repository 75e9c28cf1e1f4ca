// The OpenAPI 3.1 generator: walks the route annotations (annotations.ts) and the model schemas
// (openapi-schemas.ts), like l5-swagger's annotation scan. Also renders the same document as YAML.
import { type Json, ROUTES, type RouteAnnotation } from './annotations.ts';
import { SCHEMAS } from './openapi-schemas.ts';
import { CURRENT_VERSION, PUBLISHED_VERSIONS } from './support.ts';

const CODES: Record<number, string[]> = {
  400: ['invalid_request'],
  401: ['unauthorized'],
  403: ['forbidden'],
  404: ['not_found'],
  409: ['idempotency_conflict'],
  428: ['idempotency_required'],
  429: ['rate_limited'],
  500: ['internal'],
};
const int = (description: string): Json => ({ description, schema: { type: 'integer', minimum: 0 } });
const RATE_HEADERS: Json = {
  'X-RateLimit-Limit': int('calls allowed in the current window'),
  'X-RateLimit-Remaining': int('calls left in the current window'),
};
const REQUEST_ID: Json = { 'X-Request-Id': { description: 'equals meta.requestId', schema: { type: 'string' } } };

function failure(status: number, r: RouteAnnotation): Json {
  const codes =
    status === 409 && r.name === 'connections.store' ? ['capability_denied', 'idempotency_conflict'] : CODES[status];
  const headers: Json = { ...REQUEST_ID, ...(r.auth ? RATE_HEADERS : {}) };
  if (status === 429) {
    headers['Retry-After'] = { description: 'wait in seconds', schema: { type: 'integer', minimum: 1 } };
    headers['X-RateLimit-Reset'] = { description: 'unix time the window ends', schema: { type: 'integer' } };
  }
  return {
    description: codes?.join(', ') ?? 'error',
    headers,
    content: {
      'application/json': {
        schema: {
          allOf: [
            { $ref: '#/components/schemas/Failure' },
            {
              type: 'object',
              properties: { error: { type: 'object', properties: { code: { type: 'string', enum: codes } } } },
            },
          ],
        },
      },
    },
  };
}

function success(r: RouteAnnotation): Json {
  const headers: Json = { ...REQUEST_ID, ...(r.auth ? RATE_HEADERS : {}) };
  if (r.data === 'stream') {
    return { description: 'Server-Sent Events', content: { 'text/event-stream': { schema: { type: 'string' } } } };
  }
  if (r.data === 'document') {
    return { description: 'the OpenAPI 3.1 document', content: { 'application/json': { schema: { type: 'object' } } } };
  }
  const schema = {
    type: 'object',
    required: ['ok', 'data', 'meta'],
    properties: { ok: { type: 'boolean', const: true }, data: r.data, meta: { $ref: '#/components/schemas/Meta' } },
  };
  return { description: 'OK', headers, content: { 'application/json': { schema } } };
}

function operation(r: RouteAnnotation, pageMax: number): Json {
  const parameters: Json[] = [];
  for (const m of r.path.matchAll(/\{(\w+)\}/g)) {
    parameters.push({ name: m[1], in: 'path', required: true, schema: { type: 'string' } });
  }
  if (r.auth) {
    parameters.push({
      name: 'x-service-tenant',
      in: 'header',
      required: true,
      description: 'tenant identifier',
      schema: { type: 'string' },
    });
  }
  if (r.key) {
    parameters.push({
      name: 'Idempotency-Key',
      in: 'header',
      required: true,
      description: 'key against double effects',
      schema: { type: 'string', pattern: '^[A-Za-z0-9._:-]{8,128}$', minLength: 8, maxLength: 128 },
    });
  }
  parameters.push({
    name: 'Service-Version',
    in: 'header',
    required: false,
    schema: { type: 'string', enum: PUBLISHED_VERSIONS },
  });
  for (const q of r.query ?? []) {
    const schema = q.name === 'limit' ? { ...q.schema, maximum: pageMax, default: Math.min(15, pageMax) } : q.schema;
    parameters.push({ name: q.name, in: 'query', required: false, description: q.description, schema });
  }
  for (const h of r.headers ?? [])
    parameters.push({ name: h.name, in: 'header', required: false, description: h.description, schema: h.schema });
  const statuses = r.auth ? [400, 401, 403, 404, 429, 500] : [400, 500];
  if (r.key || r.name === 'connections.store') statuses.push(409);
  if (r.key) statuses.push(428);
  const responses: Json = { '200': success(r) };
  for (const st of statuses.sort()) responses[String(st)] = failure(st, r);
  const op: Json = {
    operationId: r.name,
    summary: r.purpose,
    tags: [r.tag],
    parameters,
    responses,
    security: r.auth ? [{ passport: [] }] : [],
    'x-laravel-route': r.name,
    'x-middleware': r.auth ? ['api', 'auth:api', 'throttle:api', 'tenant', ...(r.key ? ['idempotent'] : [])] : ['api'],
  };
  if (r.body) op.requestBody = { required: true, content: { 'application/json': { schema: r.body } } };
  return op;
}

/** The whole document; the token URL names the address that was called (url('/oauth/token')). */
export function buildOpenApi(origin: string, pageMax = 100): Json {
  const paths: Record<string, Json> = {};
  for (const r of ROUTES) {
    const p = r.path === '' ? '/' : r.path;
    paths[p] = { ...(paths[p] ?? {}), [r.method.toLowerCase()]: operation(r, pageMax) };
  }
  return {
    openapi: '3.1.0',
    info: {
      title: 'Network Connections Service (sumac)',
      version: CURRENT_VERSION,
      'x-generator': 'sumac-annotations',
    },
    servers: [{ url: '/api/public/v1' }],
    tags: ['Meta', 'Catalog', 'Connections', 'Events', 'Webhooks', 'Audit'].map((name) => ({ name })),
    paths,
    components: {
      schemas: SCHEMAS,
      securitySchemes: {
        passport: { type: 'oauth2', flows: { clientCredentials: { tokenUrl: `${origin}/oauth/token`, scopes: {} } } },
      },
    },
    'x-rate-limit': { scope: 'access, tenant, environment', window: 'fixed' },
  };
}

/** Block-style YAML; every scalar is written as its JSON text (a valid YAML 1.2 flow scalar). */
export function toYaml(v: unknown, indent = ''): string {
  if (Array.isArray(v)) {
    if (v.length === 0) return ' []';
    return v.map((x) => `\n${indent}-${toYaml(x, `${indent}  `).replace(/^\n\s*/, ' ')}`).join('');
  }
  if (v && typeof v === 'object') {
    const entries = Object.entries(v);
    if (entries.length === 0) return ' {}';
    return entries.map(([k, x]) => `\n${indent}${JSON.stringify(k)}:${toYaml(x, `${indent}  `)}`).join('');
  }
  return ` ${JSON.stringify(v)}`;
}
