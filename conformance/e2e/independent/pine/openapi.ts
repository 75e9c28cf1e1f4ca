// The OpenAPI 3.1 document, built from the route table and the hand-written schemas, served as JSON only
// (no YAML: the team publishes JSON and generates clients from it). One document per version: 2026-06-12
// has no delivery log.
import { TOKEN_PATH } from './auth.ts';
import { ERROR_STATUS, PUBLISHED_VERSIONS } from './http-kit.ts';
import { BODIES, DATA, SCHEMAS } from './openapi-schemas.ts';
import type { Route } from './routes.ts';
import { ROUTES } from './routes.ts';

const header = (name: string, required: boolean, schema: unknown, description: string) => ({
  name,
  in: 'header',
  required,
  schema,
  description,
});

const query = (name: string, schema: unknown, description: string) => ({
  name,
  in: 'query',
  required: false,
  schema,
  description,
});

const KEY_SCHEMA = { type: 'string', pattern: '^[A-Za-z0-9._:-]{8,128}$', minLength: 8, maxLength: 128 };

const QUERIES: Record<string, unknown[]> = {
  'GET /api/public/v1/providers': [query('category', { type: 'string' }, 'restricts to one category')],
  'GET /api/public/v1/connectors': [
    query('capability', { type: 'string' }, 'connectors offering this capability'),
    query('providerId', { type: 'string' }, 'connectors of this provider'),
    query('category', { type: 'string' }, 'connectors of this category'),
  ],
  'GET /api/public/v1/stream': [
    query('cursor', { type: 'integer', minimum: 0 }, 'last number read'),
    header('Last-Event-ID', false, { type: 'string' }, 'last number read'),
  ],
  'GET /api/public/v1/audit-log': [
    query('limit', { type: 'integer', minimum: 1, maximum: 200, default: 50 }, 'entries per page'),
    query('before', { type: 'integer', minimum: 1 }, 'entries older than this entry id'),
  ],
};

function errorResponses(statuses: number[]) {
  const out: Record<string, unknown> = {};
  for (const s of statuses) {
    const codes = Object.entries(ERROR_STATUS)
      .filter(([, st]) => st === s)
      .map(([c]) => c)
      .join(', ');
    out[String(s)] = {
      description: `failure envelope (${codes})`,
      content: { 'application/json': { schema: { $ref: '#/components/schemas/Failure' } } },
    };
  }
  return out;
}

const RATE_HEADERS = {
  'X-RateLimit-Limit': { schema: { type: 'integer' }, description: 'calls allowed in the current 10 s window' },
  'X-RateLimit-Remaining': {
    schema: { type: 'integer' },
    description: 'calls left in the window (0 on the last allowed call)',
  },
  'x-request-id': { schema: { type: 'string' }, description: 'meta.requestId' },
};

function operation(r: Route) {
  const key = `${r.method} ${r.path}`;
  const parameters: unknown[] = [...(QUERIES[key] ?? [])];
  for (const name of r.names) {
    parameters.push({ name, in: 'path', required: true, schema: { type: 'string' } });
  }
  if (r.auth) {
    parameters.push(header('x-service-tenant', true, { type: 'string' }, 'tenant the call applies to'));
    parameters.push(
      header(
        'Service-Version',
        true,
        { type: 'string', enum: PUBLISHED_VERSIONS },
        'interface version (required on authenticated calls)',
      ),
    );
  } else {
    parameters.push(
      header('Service-Version', false, { type: 'string', enum: PUBLISHED_VERSIONS }, 'interface version'),
    );
  }
  if (r.key !== 'none') {
    parameters.push(
      header('Idempotency-Key', r.key === 'required', KEY_SCHEMA, 'key against double effects, valid 48 h'),
    );
  }
  let content: Record<string, unknown>;
  if (r.path.endsWith('/stream')) {
    content = {
      'text/event-stream': {
        schema: { type: 'string', description: 'id: <n> and data: <JSON> lines, no event names' },
      },
    };
  } else if (r.path.includes('/openapi')) {
    content = { 'application/json': { schema: { type: 'object' } } };
  } else {
    const data =
      DATA[key] ??
      (r.path.includes('/connections/{id}/') ? { $ref: '#/components/schemas/Connection' } : { type: 'object' });
    content = {
      'application/json': {
        schema: {
          type: 'object',
          required: ['ok', 'data', 'meta'],
          properties: { ok: { type: 'boolean', const: true }, data, meta: { $ref: '#/components/schemas/Meta' } },
        },
      },
    };
  }
  const op: Record<string, unknown> = {
    operationId: `${r.method.toLowerCase()}${
      r.path
        .replace('/api/public/v1', '')
        .replace(/[{}]/g, '')
        .split(/[/-]/)
        .map((p) => (p === '' ? '' : p[0]?.toUpperCase() + p.slice(1)))
        .join('')
        .replace('.json', 'Json') || 'Root'
    }`,
    summary: r.purpose,
    parameters,
    security: r.auth ? [{ oauth2: [] }] : [],
    responses: {
      '200': { description: 'success', headers: r.auth ? RATE_HEADERS : {}, content },
      ...errorResponses(r.auth ? [400, 401, 403, 404, 409, 428, 429, 500] : [400, 404, 500]),
    },
  };
  const body = BODIES[key];
  if (body !== undefined) {
    op.requestBody = { required: true, content: { 'application/json': { schema: body } } };
  }
  return op;
}

export function openApiDocument(origin: string, version: string): Record<string, unknown> {
  const paths: Record<string, Record<string, unknown>> = {};
  for (const r of ROUTES) {
    if (version === '2026-06-12' && r.path.includes('/deliveries')) continue;
    paths[r.path] ??= {};
    const item = paths[r.path];
    if (item !== undefined) item[r.method.toLowerCase()] = operation(r);
  }
  return {
    openapi: '3.1.0',
    info: { title: 'Network Connections Service (pine)', version, description: 'Public interface /api/public/v1' },
    servers: [{ url: origin }],
    paths,
    components: {
      schemas: SCHEMAS,
      securitySchemes: {
        oauth2: { type: 'oauth2', flows: { clientCredentials: { tokenUrl: `${origin}${TOKEN_PATH}`, scopes: {} } } },
      },
    },
  };
}
