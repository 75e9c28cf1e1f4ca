// The OpenAPI 3.1 document the team writes by hand (a static file served by nginx in the original), with
// `servers: [{url: /api/public/v1}]` and paths relative to it, and the route table of the self-description.
import { CURRENT_VERSION, type Rec } from './http.ts';
import { REQUEST_BODIES, RESPONSE_DATA } from './openapi-bodies.ts';

import { ROUTES } from './route-table.ts';

const LIMIT_HEADERS: Rec = {
  'X-RateLimit-Limit': { schema: { type: 'integer', minimum: 0 } },
  'X-RateLimit-Remaining': { schema: { type: 'integer', minimum: 0 } },
};

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

const envelope = (data: Rec): Rec => ({
  type: 'object',
  required: ['ok', 'data', 'meta'],
  properties: { ok: { const: true }, data, meta: { $ref: '#/components/schemas/Meta' } },
});

function operation(method: string, path: string, purpose: string, auth: boolean, key: boolean): Rec {
  const params: Rec[] = [];
  for (const m of path.matchAll(/\{(\w+)\}/g)) {
    params.push({ name: m[1], in: 'path', required: true, schema: { type: 'string' } });
  }
  if (auth) params.push({ $ref: '#/components/parameters/Tenant' });
  if (key) params.push({ $ref: '#/components/parameters/IdempotencyKey' });
  if (path === '/stream') {
    params.push({ name: 'cursor', in: 'query', schema: { type: 'integer', minimum: 0 } });
    params.push({ name: 'Last-Event-ID', in: 'header', schema: { type: 'string' } });
  }
  if (path === '/audit-log') {
    for (const n of ['limit', 'before', 'after'])
      params.push({ name: n, in: 'query', schema: { type: 'integer', minimum: 0 } });
  }
  if (path === '/providers') params.push({ name: 'category', in: 'query', schema: { type: 'string' } });
  if (path === '/connectors') {
    for (const n of ['capability', 'providerId', 'category'])
      params.push({ name: n, in: 'query', schema: { type: 'string' } });
  }
  const op: Rec = {
    operationId: `${method.toLowerCase()}${path.replace(/[^A-Za-z]+(\w)?/g, (_m, c: string | undefined) => (c ?? '').toUpperCase()) || 'Root'}`,
    summary: purpose,
    parameters: params,
    responses: {
      '200':
        path === '/stream'
          ? { description: 'Server-Sent Events', content: { 'text/event-stream': { schema: { type: 'string' } } } }
          : {
              description: 'success',
              content: {
                'application/json': { schema: envelope(RESPONSE_DATA[`${method} ${path}`] ?? { type: 'object' }) },
              },
            },
      default: {
        description: 'failure',
        content: { 'application/json': { schema: { $ref: '#/components/schemas/Failure' } } },
      },
    },
    security: auth ? [{ oauth2: [] }] : [],
  };
  if (auth) {
    // resty.limit.count's headers go on every counted answer; a 429 adds Retry-After.
    op.responses['200'].headers = LIMIT_HEADERS;
    op.responses['429'] = {
      description: 'rate_limited',
      headers: { ...LIMIT_HEADERS, 'Retry-After': { schema: { type: 'integer', minimum: 0 } } },
      content: { 'application/json': { schema: { $ref: '#/components/schemas/Failure' } } },
    };
  }
  if (method === 'POST') {
    const body: Rec = REQUEST_BODIES[path] ?? { type: 'object' };
    op.requestBody = { required: !path.endsWith('/resend'), content: { 'application/json': { schema: body } } };
  }
  return op;
}

export function openapiDocument(version: string = CURRENT_VERSION): Rec {
  const paths: Rec = {};
  for (const [m, p, purpose, auth, key] of ROUTES) {
    const path = p === '' ? '/' : p;
    paths[path] = { ...(paths[path] ?? {}), [m.toLowerCase()]: operation(m, p, purpose, auth, key) };
  }
  return {
    openapi: '3.1.0',
    info: { title: 'Network Connections Service (sourwood)', version },
    servers: [{ url: '/api/public/v1' }],
    paths,
    components: {
      securitySchemes: {
        oauth2: {
          type: 'oauth2',
          flows: { clientCredentials: { tokenUrl: '/oauth2/token', scopes: { ncs: 'the interface' } } },
        },
      },
      parameters: {
        Tenant: { name: 'x-service-tenant', in: 'header', required: true, schema: { type: 'string' } },
        IdempotencyKey: {
          name: 'Idempotency-Key',
          in: 'header',
          required: true,
          schema: { type: 'string', pattern: '^[A-Za-z0-9._:-]{8,128}$' },
        },
      },
      schemas: {
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
        Failure: {
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
                hint: { type: 'string' },
              },
            },
            meta: { $ref: '#/components/schemas/Meta' },
          },
        },
      },
    },
  };
}
