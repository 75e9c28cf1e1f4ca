// The OpenAPI 3.1 document palmetto writes by hand (as a swagger-core team would annotate it), built from the
// same route table the router serves, and its per-version JSON and YAML files.
import type { Rec } from './http.ts';
import { COMPONENTS, DATA } from './schemas.ts';
import { EVENTS } from './webhooks.ts';

const P = '/api/public/v1';

export interface RouteDoc {
  method: string;
  path: string;
  purpose: string;
  auth: boolean;
  key?: boolean;
  body?: Rec;
  query?: string[];
}

const s = (min: number, max: number) => ({ type: 'string', minLength: min, maxLength: max });
const ENV = { type: 'string', enum: ['development', 'sandbox', 'pilot', 'production'] };
export const BODIES: Record<string, Rec> = {
  check: {
    type: 'object',
    required: ['connectorId', 'capability'],
    properties: { connectorId: s(2, 120), capability: s(2, 120), environment: ENV },
  },
  connection: {
    type: 'object',
    required: ['connectorId', 'environment', 'scopeLabel', 'capabilities'],
    properties: {
      connectorId: s(2, 120),
      environment: ENV,
      scopeLabel: s(2, 120),
      capabilities: { type: 'array', minItems: 1, maxItems: 24, items: s(2, 120) },
    },
  },
  key: { type: 'object', required: ['operation'], properties: { operation: s(2, 80) } },
  webhook: {
    type: 'object',
    required: ['url', 'events'],
    properties: {
      url: { type: 'string', format: 'uri' },
      events: { type: 'array', minItems: 1, items: { type: 'string', enum: EVENTS } },
    },
  },
};

const envelope = (data: Rec = { type: 'object' }) => ({
  type: 'object',
  required: ['ok', 'data', 'meta'],
  properties: { ok: { const: true }, data, meta: { $ref: '#/components/schemas/Meta' } },
});
const ERROR_CODES = [
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
const failure = {
  type: 'object',
  required: ['ok', 'error', 'meta'],
  properties: {
    ok: { const: false },
    error: {
      type: 'object',
      required: ['code', 'message'],
      properties: {
        code: { type: 'string', enum: ERROR_CODES },
        message: { type: 'string' },
        detail: { type: 'string' },
      },
    },
    meta: { $ref: '#/components/schemas/Meta' },
  },
};

const int = (description: string) => ({ description, schema: { type: 'integer', minimum: 0 } });
/** The rate-limit filter's headers, on every answer of an authenticated operation it counted. */
const LIMIT_HEADERS = {
  'X-RateLimit-Limit': int('calls allowed in the current window'),
  'X-RateLimit-Remaining': int('calls left in the current window'),
};
const failureContent = { 'application/json': { schema: failure } };

export function openapi(routes: RouteDoc[], version: string): Rec {
  const paths: Rec = {};
  for (const r of routes) {
    const params: Rec[] = [];
    for (const m of r.path.matchAll(/\{(\w+)\}/g))
      params.push({ name: m[1], in: 'path', required: true, schema: { type: 'string' } });
    for (const q of r.query ?? [])
      params.push({
        name: q,
        in: 'query',
        required: false,
        schema: {
          type: q === 'cursor' || q === 'limit' || q === 'before' ? 'integer' : 'string',
          minimum: q === 'cursor' ? 0 : undefined,
        },
      });
    if (r.path.endsWith('/stream'))
      params.push({ name: 'Last-Event-ID', in: 'header', required: false, schema: { type: 'string' } });
    if (r.auth) params.push({ name: 'x-service-tenant', in: 'header', required: true, schema: { type: 'string' } });
    if (r.key)
      params.push({
        name: 'Idempotency-Key',
        in: 'header',
        required: true,
        schema: { type: 'string', pattern: '^[A-Za-z0-9._:-]{8,128}$' },
      });
    const op: Rec = {
      operationId: `${r.method.toLowerCase()}${r.path.replace(/[^A-Za-z0-9]+(\w)?/g, (_m, c: string | undefined) => (c ?? '').toUpperCase())}`,
      summary: r.purpose,
      parameters: params,
      responses: {
        '200': {
          description: 'OK',
          content: r.path.endsWith('/stream')
            ? { 'text/event-stream': { schema: { type: 'string' } } }
            : { 'application/json': { schema: envelope(DATA[`${r.method} ${r.path.slice(P.length)}`]) } },
        },
        default: { description: 'Failure', content: failureContent },
      },
    };
    if (r.auth) {
      op.responses['200'].headers = LIMIT_HEADERS;
      op.responses['429'] = {
        description: 'Rate limited',
        headers: { ...LIMIT_HEADERS, 'Retry-After': int('seconds to wait before the next call') },
        content: failureContent,
      };
    }
    if (r.auth) op.security = [{ oauth2: [] }];
    else op.security = [];
    if (r.body) op.requestBody = { required: true, content: { 'application/json': { schema: r.body } } };
    paths[r.path] = { ...(paths[r.path] ?? {}), [r.method.toLowerCase()]: op };
  }
  return {
    openapi: '3.1.0',
    info: { title: 'Network Connections Service (palmetto)', version },
    servers: [{ url: '/' }],
    paths,
    components: {
      securitySchemes: {
        oauth2: { type: 'oauth2', flows: { clientCredentials: { tokenUrl: '/oauth2/token', scopes: {} } } },
      },
      schemas: {
        ...COMPONENTS,
        Meta: {
          type: 'object',
          required: ['requestId', 'version', 'at'],
          properties: {
            requestId: { type: 'string' },
            version: { type: 'string' },
            at: { type: 'string', format: 'date-time' },
            idempotencyKey: { type: 'string' },
            replayed: { type: 'boolean' },
          },
        },
      },
    },
  };
}

/** A block-style YAML writer for JSON values (strings always quoted as JSON, which YAML 1.2 reads). */
export function toYaml(v: unknown, indent = ''): string {
  if (Array.isArray(v)) {
    if (v.length === 0) return ' []';
    return v.map((x) => `\n${indent}-${toYaml(x, `${indent}  `).replace(/^\n\s*/, ' ')}`).join('');
  }
  if (v && typeof v === 'object') {
    const entries = Object.entries(v).filter(([, x]) => x !== undefined);
    if (entries.length === 0) return ' {}';
    return entries.map(([k, x]) => `\n${indent}${JSON.stringify(k)}:${toYaml(x, `${indent}  `)}`).join('');
  }
  return ` ${JSON.stringify(v)}`;
}
