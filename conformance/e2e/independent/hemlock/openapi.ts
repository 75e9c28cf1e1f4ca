// The OpenAPI 3.1 document, built from the route table and the schemas, so it always describes what is
// served; toYaml() writes the same document as the downloadable YAML file.
import { CURRENT_VERSION, SUPPORTED_VERSIONS } from './http-kit.ts';
import { BODIES, DATA, failureSchema, SCHEMAS, STATUS_CODES } from './openapi-schemas.ts';
import { ROUTES, type Route } from './route-table.ts';

type Obj = Record<string, unknown>;
const int: Obj = { type: 'integer', minimum: 0 };
const LIMIT_HEADERS: Obj = {
  'X-RateLimit-Limit': { description: 'calls allowed by the bucket', schema: int },
  'X-RateLimit-Remaining': { description: 'calls left in the bucket', schema: int },
};
const param = (name: string, where: string, schema: Obj, required = false, description?: string): Obj => ({
  name,
  in: where,
  required,
  schema,
  ...(description ? { description } : {}),
});

function parameters(r: Route): Obj[] {
  const out: Obj[] = [
    param(
      'Service-Version',
      'header',
      { type: 'string', enum: SUPPORTED_VERSIONS },
      false,
      'interface version; default the current one',
    ),
  ];
  for (const m of r.path.matchAll(/\{(\w+)\}/g)) out.push(param(m[1] ?? '', 'path', { type: 'string' }, true));
  if (r.auth)
    out.push(
      param('x-service-tenant', 'header', { type: 'string', minLength: 1 }, true, 'the tenant the call applies to'),
    );
  if (r.key !== 'none')
    out.push(
      param(
        'Idempotency-Key',
        'header',
        { type: 'string', pattern: '^[A-Za-z0-9._:-]{8,128}$' },
        r.key === 'required',
        'valid 48 h',
      ),
    );
  const q = (name: string, schema: Obj, description?: string) =>
    out.push(param(name, 'query', schema, false, description));
  if (r.operationId === 'listProviders') q('category', { type: 'string' });
  if (r.operationId === 'listConnectors') {
    q('capability', { type: 'string' });
    q('providerId', { type: 'string' });
    q('category', { type: 'string' });
  }
  if (r.operationId === 'streamStatus') {
    q('cursor', { type: 'integer', minimum: 0 }, 'last number read (wins over Last-Event-ID)');
    out.push(param('Last-Event-ID', 'header', { type: 'string', pattern: '^[0-9]+$' }, false, 'last number read'));
  }
  if (r.operationId === 'getAuditLog') {
    q('limit', { type: 'integer', minimum: 1, maximum: 100, default: 20 }, 'number of entries');
    q('before', { type: 'integer', minimum: 1 }, 'nextCursor of the previous page');
  }
  return out;
}

function errorStatuses(r: Route): string[] {
  if (!r.auth)
    return r.operationId === 'streamStatus' || r.operationId === 'getOpenApiYaml'
      ? ['400', '404', '500']
      : ['400', '500'];
  const s = ['400', '401', '403', '404', '429', '500'];
  if (r.method !== 'GET') s.push('409');
  if (r.key === 'required') s.push('428');
  return s.sort();
}

function success(r: Route): Obj {
  const headers: Obj = { 'X-Request-Id': { schema: { type: 'string' } } };
  if (r.operationId === 'streamStatus') {
    return {
      description: 'Server-Sent Events: id = global sequence number, event = message kind',
      content: { 'text/event-stream': { schema: { type: 'string' } } },
    };
  }
  if (r.operationId === 'getOpenApi')
    return { description: 'the OpenAPI 3.1 document', content: { 'application/json': { schema: { type: 'object' } } } };
  if (r.operationId === 'getOpenApiYaml')
    return {
      description: 'the OpenAPI 3.1 document as YAML',
      content: { 'application/yaml': { schema: { type: 'string' } } },
    };
  if (r.auth) Object.assign(headers, LIMIT_HEADERS);
  if (r.key !== 'none')
    headers['Idempotency-Replayed'] = {
      description: 'sent on a replayed answer',
      schema: { type: 'string', enum: ['true'] },
    };
  const data = DATA[r.operationId] ?? { type: 'object' };
  return {
    description: 'success',
    headers,
    content: {
      'application/json': {
        schema: {
          type: 'object',
          required: ['ok', 'data', 'meta'],
          properties: { ok: { const: true }, data, meta: { $ref: '#/components/schemas/Meta' } },
        },
      },
    },
  };
}

function operation(r: Route): Obj {
  const responses: Obj = { '200': success(r) };
  for (const s of errorStatuses(r)) responses[s] = { $ref: `#/components/responses/Error${s}` };
  const op: Obj = { operationId: r.operationId, summary: r.purpose, parameters: parameters(r), responses };
  op.security = r.auth ? [{ oauth2: [] }] : [];
  const body = BODIES[r.operationId];
  if (body)
    op.requestBody = {
      required: true,
      content: { 'application/json': { schema: { $ref: `#/components/schemas/${body}` } } },
    };
  return op;
}

export function openApiDocument(origin: string, tokenUrl: string): Obj {
  const paths: Obj = {};
  for (const r of ROUTES) {
    const item = (paths[r.path] ?? {}) as Obj;
    item[r.method.toLowerCase()] = operation(r);
    paths[r.path] = item;
  }
  const responses: Obj = {};
  for (const s of Object.keys(STATUS_CODES)) {
    const headers: Obj =
      s === '429'
        ? {
            ...LIMIT_HEADERS,
            'Retry-After': { description: 'wait in seconds', schema: { type: 'integer', minimum: 1 } },
          }
        : {};
    responses[`Error${s}`] = {
      description: `failure: ${(STATUS_CODES[s] ?? []).join(' or ')}`,
      headers,
      content: { 'application/json': { schema: failureSchema(s) } },
    };
  }
  return {
    openapi: '3.1.0',
    info: { title: 'Network Connections Service (hemlock)', version: CURRENT_VERSION },
    servers: [{ url: origin }],
    paths,
    components: {
      schemas: SCHEMAS,
      responses,
      securitySchemes: {
        oauth2: {
          type: 'oauth2',
          flows: { clientCredentials: { tokenUrl, scopes: { 'connections:write': 'read and change connections' } } },
        },
      },
    },
  };
}

const scalar = (v: unknown): string => (typeof v === 'string' ? JSON.stringify(v) : JSON.stringify(v ?? null));
const isEmpty = (v: unknown): boolean => v === null || typeof v !== 'object' || Object.keys(v as Obj).length === 0;

/** A small YAML 1.2 block writer (strings double-quoted with JSON escapes, which YAML reads alike). */
export function toYaml(value: unknown, indent = 0): string {
  const pad = ' '.repeat(indent);
  if (Array.isArray(value)) {
    if (value.length === 0) return `${pad}[]\n`;
    return value
      .map((v) =>
        isEmpty(v)
          ? `${pad}- ${Array.isArray(v) ? '[]' : typeof v === 'object' && v !== null ? '{}' : scalar(v)}\n`
          : `${pad}-\n${toYaml(v, indent + 2)}`,
      )
      .join('');
  }
  if (value !== null && typeof value === 'object') {
    const entries = Object.entries(value as Obj);
    if (entries.length === 0) return `${pad}{}\n`;
    return entries
      .map(([k, v]) =>
        isEmpty(v)
          ? `${pad}${JSON.stringify(k)}: ${Array.isArray(v) ? '[]' : typeof v === 'object' && v !== null ? '{}' : scalar(v)}\n`
          : `${pad}${JSON.stringify(k)}:\n${toYaml(v, indent + 2)}`,
      )
      .join('');
  }
  return `${pad}${scalar(value)}\n`;
}
