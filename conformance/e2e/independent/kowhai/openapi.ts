// The OpenAPI 3.1 document generated from the route table (as swagger-jsdoc would assemble it), served at
// /openapi.json for the requested version and as downloadable files /openapi/<version>.json and .yaml.
import { COMPONENTS, DATA, ref } from './openapi-schemas.ts';
import type { Route } from './routes.ts';
import { PREFIX } from './types.ts';
import { WEBHOOK_EVENTS } from './webhooks.ts';

const str = (min?: number, max?: number) => ({
  type: 'string',
  ...(min ? { minLength: min } : {}),
  ...(max ? { maxLength: max } : {}),
});

const BODIES: Record<string, unknown> = {
  [`POST ${PREFIX}/capabilities`]: {
    type: 'object',
    required: ['connectorId', 'capability'],
    properties: { connectorId: str(2, 120), capability: str(2, 120), environment: ref('Environment') },
  },
  [`POST ${PREFIX}/connections`]: {
    type: 'object',
    required: ['connectorId', 'environment', 'scopeLabel', 'capabilities'],
    properties: {
      connectorId: str(2, 120),
      environment: ref('Environment'),
      scopeLabel: str(2, 120),
      capabilities: { type: 'array', minItems: 1, maxItems: 24, items: str(2, 120) },
    },
  },
  [`POST ${PREFIX}/idempotency-keys`]: {
    type: 'object',
    required: ['operation'],
    properties: { operation: str(2, 80) },
  },
  [`POST ${PREFIX}/webhooks`]: {
    type: 'object',
    required: ['url', 'events'],
    properties: {
      url: { type: 'string', format: 'uri' },
      events: { type: 'array', items: { type: 'string', enum: WEBHOOK_EVENTS } },
    },
  },
};

const QUERIES: Record<string, { name: string; schema: unknown }[]> = {
  [`GET ${PREFIX}/providers`]: [{ name: 'category', schema: str() }],
  [`GET ${PREFIX}/connectors`]: [
    { name: 'capability', schema: str() },
    { name: 'providerId', schema: str() },
    { name: 'category', schema: str() },
  ],
  [`GET ${PREFIX}/stream`]: [{ name: 'cursor', schema: { type: 'integer', minimum: 0 } }],
  [`GET ${PREFIX}/audit-log`]: [
    { name: 'limit', schema: { type: 'integer', minimum: 1, maximum: 200 } },
    { name: 'cursor', schema: { type: 'integer', minimum: 0 } },
  ],
};

const ERRORS = {
  400: 'invalid_request',
  401: 'unauthorized',
  403: 'forbidden',
  404: 'not_found',
  409: 'conflict',
  428: 'idempotency_required',
  429: 'rate_limited',
  500: 'internal',
};

const CODES = [
  'unauthorized',
  'forbidden',
  'not_found',
  'invalid_request',
  'capability_denied',
  'idempotency_conflict',
  'idempotency_required',
  'rate_limited',
  'internal',
];
const INT_HEADER = (description: string) => ({ description, schema: { type: 'integer', minimum: 0 } });
const LIMIT_HEADERS = {
  'X-RateLimit-Limit': INT_HEADER('limit for the current window'),
  'X-RateLimit-Remaining': INT_HEADER('calls left in the window'),
};

const success = (data: unknown) => ({
  type: 'object',
  required: ['ok', 'data', 'meta'],
  properties: { ok: { const: true }, data: data ?? { type: 'object' }, meta: ref('Meta') },
});

function operation(r: Route) {
  const id = `${r.method} ${r.path}`;
  const parameters: unknown[] = r.names.map((n) => ({ name: n, in: 'path', required: true, schema: str() }));
  for (const q of QUERIES[id] ?? []) parameters.push({ name: q.name, in: 'query', required: false, schema: q.schema });
  if (r.auth) parameters.push({ name: 'x-service-tenant', in: 'header', required: true, schema: str() });
  if (r.key !== 'none')
    parameters.push({
      name: 'Idempotency-Key',
      in: 'header',
      required: r.key === 'required',
      schema: { type: 'string', pattern: '^[A-Za-z0-9._:-]{8,128}$' },
    });
  if (id === `GET ${PREFIX}/stream`)
    parameters.push({ name: 'Last-Event-ID', in: 'header', required: false, schema: str() });
  parameters.push({
    name: 'Service-Version',
    in: 'header',
    required: false,
    schema: { type: 'string', enum: ['2026-07-01', '2026-06-12'] },
  });
  const responses: Record<string, unknown> = {
    200:
      id === `GET ${PREFIX}/stream`
        ? { description: 'Server-Sent Events', content: { 'text/event-stream': { schema: { type: 'string' } } } }
        : id.includes('/openapi')
          ? { description: 'the OpenAPI document', content: { 'application/json': { schema: { type: 'object' } } } }
          : { description: 'success', content: { 'application/json': { schema: success(DATA[id]) } } },
  };
  if (r.auth) {
    (responses[200] as Record<string, unknown>).headers = LIMIT_HEADERS;
    for (const [s, c] of Object.entries(ERRORS))
      responses[s] = {
        description: c,
        headers:
          s === '429' ? { ...LIMIT_HEADERS, 'Retry-After': INT_HEADER('recommended wait in seconds') } : LIMIT_HEADERS,
        content: { 'application/json': { schema: ref('Failure') } },
      };
  }
  const body = BODIES[id];
  return {
    operationId: `${r.method.toLowerCase()}${
      r.path
        .replace(PREFIX, '')
        .replace(/[{}]/g, '')
        .replace(/[^A-Za-z0-9]+(.)?/g, (_m, c: string | undefined) => (c ?? '').toUpperCase()) || 'Root'
    }`,
    summary: r.purpose,
    ...(r.auth ? { security: [{ oauth2: [] }] } : { security: [] }),
    parameters,
    ...(body ? { requestBody: { required: true, content: { 'application/json': { schema: body } } } } : {}),
    responses,
  };
}

export function openApiDocument(routes: Route[], version: string, tokenUrl: string) {
  const paths: Record<string, Record<string, unknown>> = {};
  for (const r of routes) {
    paths[r.path] ??= {};
    (paths[r.path] as Record<string, unknown>)[r.method.toLowerCase()] = operation(r);
  }
  const meta = {
    type: 'object',
    required: ['requestId', 'version', 'at'],
    properties: {
      requestId: str(),
      version: str(),
      at: { type: 'string', format: 'date-time' },
      idempotencyKey: str(),
      replayed: { type: 'boolean' },
    },
  };
  return {
    openapi: '3.1.0',
    info: { title: 'Network Connections Service (kowhai)', version },
    servers: [{ url: '/' }],
    paths,
    components: {
      securitySchemes: {
        oauth2: { type: 'oauth2', flows: { clientCredentials: { tokenUrl, scopes: { connections: 'connections' } } } },
      },
      schemas: {
        ...COMPONENTS,
        Meta: meta,
        Success: {
          type: 'object',
          required: ['ok', 'data', 'meta'],
          properties: { ok: { const: true }, data: { type: 'object' }, meta: ref('Meta') },
        },
        Failure: {
          type: 'object',
          required: ['ok', 'error', 'meta'],
          properties: {
            ok: { const: false },
            error: {
              type: 'object',
              required: ['code', 'message'],
              properties: { code: { type: 'string', enum: CODES }, message: str(), detail: str(), hint: str() },
            },
            meta: ref('Meta'),
          },
        },
      },
    },
  };
}

const plain = /^[A-Za-z_$/][A-Za-z0-9_ $./{}-]*$/;
const scalar = (v: unknown) =>
  typeof v === 'string'
    ? plain.test(v) && !/^(true|false|null|yes|no|on|off)$/i.test(v)
      ? v
      : JSON.stringify(v)
    : JSON.stringify(v);

/** A small YAML writer (block style, JSON-quoted scalars where needed). */
export function toYaml(v: unknown, indent = ''): string {
  if (Array.isArray(v)) {
    if (v.length === 0) return ' []';
    return v
      .map(
        (x) =>
          `\n${indent}-${x && typeof x === 'object' ? toYaml(x, `${indent}  `).replace(/^\n\s*/, ' ') : ` ${scalar(x)}`}`,
      )
      .join('');
  }
  if (v && typeof v === 'object') {
    const entries = Object.entries(v);
    if (entries.length === 0) return ' {}';
    return entries
      .map(
        ([k, x]) =>
          `\n${indent}${scalar(k)}:${x && typeof x === 'object' ? toYaml(x, `${indent}  `) : ` ${scalar(x)}`}`,
      )
      .join('');
  }
  return ` ${scalar(v)}`;
}
