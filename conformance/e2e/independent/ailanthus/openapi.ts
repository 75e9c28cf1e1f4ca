// The OpenAPI 3.1 document, generated from the route table with servers relative to the base path (the way
// Helidon's OpenAPI support publishes it), per version as JSON and as YAML.
import type { Rec } from './http.ts';
import { SCHEMAS } from './openapi-schemas.ts';
import { ROUTES, type Route } from './routes.ts';
import { EVENT_NAMES } from './webhooks.ts';

const ERRORS: Record<string, string> = {
  '400': 'invalid_request',
  '401': 'unauthorized',
  '403': 'forbidden',
  '404': 'not_found',
  '409': 'capability_denied or idempotency_conflict',
  '428': 'idempotency_required',
  '429': 'rate_limited (Retry-After)',
  '500': 'internal',
};

const LIMIT_HEADERS: Rec = {
  'X-RateLimit-Limit': { description: 'permits of the current window', schema: { type: 'integer', minimum: 0 } },
  'X-RateLimit-Remaining': { description: 'permits left in the window', schema: { type: 'integer', minimum: 0 } },
};
const RETRY_AFTER: Rec = { description: 'seconds to wait', schema: { type: 'integer', minimum: 0 } };

function operation(r: Route): Rec {
  const params: Rec[] = [{ $ref: '#/components/parameters/ServiceVersion' }];
  if (r.auth) params.push({ $ref: '#/components/parameters/Tenant' });
  if (r.key) params.push({ $ref: '#/components/parameters/IdempotencyKey' });
  for (const m of r.path.matchAll(/\{(\w+)\}/g)) {
    params.push({ name: m[1], in: 'path', required: true, schema: { type: 'string' } });
  }
  for (const q of r.query ?? []) {
    const schema =
      q === 'limit' || q === 'offset' ? { type: 'integer', minimum: q === 'limit' ? 1 : 0 } : { type: 'string' };
    params.push({ name: q, in: 'query', required: false, schema });
  }
  if (r.path === '/stream') {
    params.push({ name: 'cursor', in: 'query', required: false, schema: { type: 'integer', minimum: 0 } });
    params.push({ name: 'Last-Event-ID', in: 'header', required: false, schema: { type: 'string' } });
  }
  const ok =
    r.data === 'sse'
      ? { description: 'Server-Sent Events', content: { 'text/event-stream': { schema: { type: 'string' } } } }
      : r.data === 'raw'
        ? { description: 'the document', content: { 'application/json': { schema: { type: 'object' } } } }
        : {
            description: 'success',
            content: {
              'application/json': {
                schema: {
                  type: 'object',
                  required: ['ok', 'data', 'meta'],
                  properties: {
                    ok: { const: true },
                    data: { $ref: `#/components/schemas/${r.data}` },
                    meta: { $ref: '#/components/schemas/Meta' },
                  },
                },
              },
            },
          };
  const responses: Rec = { '200': { ...ok, headers: LIMIT_HEADERS } };
  for (const [code, text] of Object.entries(ERRORS)) {
    if (r.auth || code === '400' || code === '429' || code === '500') {
      const headers = code === '429' ? { ...LIMIT_HEADERS, 'Retry-After': RETRY_AFTER } : undefined;
      responses[code] = {
        description: text,
        headers,
        content: { 'application/json': { schema: { $ref: '#/components/schemas/Failure' } } },
      };
      if (!headers) delete responses[code].headers;
    }
  }
  const op: Rec = {
    operationId: `${r.method.toLowerCase()}${r.path.replace(/[{}]/g, '').replace(/[^A-Za-z0-9]+(\w)?/g, (_m, c?: string) => (c ?? '').toUpperCase()) || 'Root'}`,
    summary: r.purpose,
    parameters: params,
    responses,
    security: r.auth ? [{ oauth2: [] }] : [],
  };
  if (r.body) {
    op.requestBody = {
      required: true,
      content: { 'application/json': { schema: { $ref: `#/components/schemas/${r.body}` } } },
    };
  }
  if (r.path === '/webhooks' && r.method === 'POST') op['x-webhook-events'] = EVENT_NAMES;
  return op;
}

export function openapiDocument(version: string, tokenUrl: string): Rec {
  const paths: Rec = {};
  for (const r of ROUTES) {
    const p = r.path === '' ? '/' : r.path;
    paths[p] = { ...(paths[p] ?? {}), [r.method.toLowerCase()]: operation(r) };
  }
  return {
    openapi: '3.1.0',
    info: { title: 'Network Connections Service (ailanthus)', version },
    servers: [{ url: '/api/public/v1' }],
    paths,
    components: {
      schemas: SCHEMAS,
      parameters: {
        Tenant: { name: 'x-service-tenant', in: 'header', required: true, schema: { type: 'string' } },
        IdempotencyKey: {
          name: 'Idempotency-Key',
          in: 'header',
          required: true,
          schema: { type: 'string', pattern: '^[A-Za-z0-9._:-]{8,128}$' },
        },
        ServiceVersion: {
          name: 'Service-Version',
          in: 'header',
          required: false,
          schema: { type: 'string', enum: ['2026-06-12', '2026-07-01'] },
        },
      },
      securitySchemes: {
        oauth2: {
          type: 'oauth2',
          flows: { clientCredentials: { tokenUrl, scopes: { 'ncs.read': 'read', 'ncs.write': 'write' } } },
        },
      },
    },
  };
}
