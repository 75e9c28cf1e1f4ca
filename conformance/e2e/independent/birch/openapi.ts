// Builds the OpenAPI 3.1 document of what birch serves, from the route table.
import { dataSchemas, requestSchemas, schemas } from './openapi-schemas.ts';
import type { Route } from './routes.ts';

const failure = (description: string) => ({
  description,
  content: { 'application/json': { schema: { $ref: '#/components/schemas/Failure' } } },
});
const hdr = (
  name: string,
  required: boolean,
  description: string,
  schema: Record<string, unknown> = { type: 'string' },
) => ({ name, in: 'header', required, description, schema });
const q = (name: string, schema: Record<string, unknown>, description = '') => ({
  name,
  in: 'query',
  required: false,
  description,
  schema,
});

const QUERY: Record<string, unknown[]> = {
  'GET /api/public/v1/providers': [q('category', { type: 'string' }, 'restricts to one category')],
  'GET /api/public/v1/connectors': [
    q('capability', { type: 'string' }),
    q('providerId', { type: 'string' }),
    q('category', { type: 'string' }),
  ],
  'GET /api/public/v1/stream': [
    q('cursor', { type: 'integer', minimum: 0 }, 'last number read'),
    hdr('Last-Event-ID', false, 'last number read'),
  ],
  'GET /api/public/v1/audit-log': [
    q('limit', { type: 'integer', minimum: 1, maximum: 200, default: 50 }),
    q('offset', { type: 'integer', minimum: 0, default: 0 }),
  ],
};

export function buildOpenApi(routes: Route[], origin: string): Record<string, unknown> {
  const paths: Record<string, Record<string, unknown>> = {};
  for (const r of routes) {
    const id = `${r.method} ${r.path}`;
    const params: unknown[] = [
      hdr('Service-Version', false, 'interface version; 2026-07-01 (default) or 2026-06-12', {
        type: 'string',
        enum: ['2026-07-01', '2026-06-12'],
      }),
    ];
    for (const m of r.path.matchAll(/\{(\w+)\}/g))
      params.push({ name: m[1], in: 'path', required: true, schema: { type: 'string' } });
    if (r.auth) params.push(hdr('x-service-tenant', true, 'tenant identifier'));
    if (r.key)
      params.push(
        hdr('Idempotency-Key', true, 'key against double effects', {
          type: 'string',
          pattern: '^[A-Za-z0-9._:-]{8,128}$',
        }),
      );
    params.push(...(QUERY[id] ?? []));
    const responses: Record<string, unknown> = {};
    if (r.path.endsWith('/stream')) {
      responses['200'] = {
        description: 'Server-Sent Events; every message has a consecutive id',
        content: { 'text/event-stream': { schema: { type: 'string' } } },
      };
    } else if (r.path.endsWith('/openapi.json') || r.path.includes('/openapi/')) {
      responses['200'] = {
        description: 'OpenAPI 3.1 document',
        content: { 'application/json': { schema: { type: 'object' } } },
      };
    } else {
      const data = dataSchemas[id] ?? { type: 'object' };
      responses['200'] = {
        description: 'success',
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
    responses['400'] = failure('invalid_request');
    if (r.auth) {
      responses['401'] = failure('unauthorized');
      responses['403'] = failure('forbidden');
      responses['404'] = failure('not_found');
      responses['409'] = failure('capability_denied or idempotency_conflict');
      responses['428'] = failure('idempotency_required');
      responses['429'] = failure('rate_limited');
    }
    responses['500'] = failure('internal');
    const op: Record<string, unknown> = {
      operationId: `${r.method.toLowerCase()}_${
        r.path
          .replace('/api/public/v1', '')
          .replace(/[{}]/g, '')
          .replace(/[^A-Za-z0-9]+/g, '_')
          .replace(/^_|_$/g, '') || 'root'
      }`,
      summary: r.purpose,
      parameters: params,
      responses,
      security: r.auth ? [{ oauth2: [] }] : [],
    };
    const reqSchema = requestSchemas[id];
    if (reqSchema)
      op.requestBody = {
        required: true,
        content: { 'application/json': { schema: { $ref: `#/components/schemas/${reqSchema}` } } },
      };
    paths[r.path] = { ...(paths[r.path] ?? {}), [r.method.toLowerCase()]: op };
  }
  return {
    openapi: '3.1.0',
    info: {
      title: 'Birch Network Connections Service',
      version: '2026-07-01',
      description: 'Independent deployment of the network connections interface.',
    },
    servers: [{ url: origin }],
    paths,
    components: {
      schemas,
      securitySchemes: {
        oauth2: {
          type: 'oauth2',
          flows: {
            clientCredentials: {
              tokenUrl: `${origin}/oauth/token`,
              scopes: {
                'catalog:read': 'read the catalog',
                'connections:write': 'manage connections',
                'webhooks:manage': 'manage webhooks',
                'audit:read': 'read the audit log',
              },
            },
          },
        },
      },
    },
  };
}
