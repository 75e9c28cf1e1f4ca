// The OpenAPI 3.1 document, written by the team from its route table (as apispec's FalconPlugin would collect it),
// served at /openapi.json and as per-version files /openapi/<version>.json and .yaml.
import { BODIES, DATA, SCHEMAS } from './openapi-schemas.ts';
import { PREFIX, ROUTES, type Route } from './routes.ts';
import { type Rec, VERSION } from './state.ts';

const ERRORS: Record<string, string[]> = {
  '400': ['invalid_request'],
  '401': ['unauthorized'],
  '403': ['forbidden'],
  '404': ['not_found'],
  '409': ['capability_denied', 'idempotency_conflict'],
  '428': ['idempotency_required'],
  '429': ['rate_limited'],
  '500': ['internal'],
};

const LIMIT_HEADERS: Rec = {
  'X-RateLimit-Limit': { description: 'calls allowed in the current window', schema: { type: 'integer', minimum: 0 } },
  'X-RateLimit-Remaining': { description: 'calls left in the window', schema: { type: 'integer', minimum: 0 } },
};

/** A failure whose error.code is narrowed to the codes of its status (marshmallow's OneOf on the error schema). */
function errorResponse(status: string, codes: string[], counted: boolean): Rec {
  const headers: Rec = counted ? { ...LIMIT_HEADERS } : {};
  if (status === '429')
    headers['Retry-After'] = { description: 'seconds to wait', schema: { type: 'integer', minimum: 0 } };
  return {
    description: codes.join(' or '),
    headers,
    content: {
      'application/json': {
        schema: {
          allOf: [
            { $ref: '#/components/schemas/Error' },
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

interface DocOptions {
  auditMax: number;
  versionRequired: boolean;
}

function parameters(r: Route, o: DocOptions): Rec[] {
  const p: Rec[] = [];
  for (const m of r.path.matchAll(/\{(\w+)\}/g))
    p.push({ name: m[1], in: 'path', required: true, schema: { type: 'string' } });
  const q = (name: string, schema: Rec, required = false) => p.push({ name, in: 'query', required, schema });
  if (r.path === '/providers') q('category', { type: 'string' });
  if (r.path === '/connectors') for (const n of ['capability', 'providerId', 'category']) q(n, { type: 'string' });
  if (r.path === '/stream') {
    q('cursor', { type: 'integer', minimum: 0 });
    p.push({ name: 'Last-Event-ID', in: 'header', required: false, schema: { type: 'string' } });
  }
  if (r.path === '/audit-log') {
    q('limit', { type: 'integer', minimum: 1, maximum: o.auditMax, default: Math.min(50, o.auditMax) });
    q('before', { type: 'integer', minimum: 0 });
  }
  if (r.path === '/webhook-deliveries') q('webhook_id', { type: 'string' }, true);
  if (r.auth) p.push({ name: 'x-service-tenant', in: 'header', required: true, schema: { type: 'string' } });
  if (r.key) {
    p.push({
      name: 'Idempotency-Key',
      in: 'header',
      required: true,
      schema: { type: 'string', pattern: '^[A-Za-z0-9._:-]{8,128}$' },
    });
  }
  p.push({
    name: 'Service-Version',
    in: 'header',
    required: o.versionRequired && r.auth,
    schema: { type: 'string', enum: ['2026-07-01', '2026-06-12'] },
  });
  return p;
}

function operation(r: Route, o: DocOptions): Rec {
  const id = `${r.method} ${r.path}`;
  const ok =
    r.path === '/stream'
      ? { description: 'Server-Sent Events', content: { 'text/event-stream': { schema: { type: 'string' } } } }
      : r.path.startsWith('/openapi')
        ? { description: 'OpenAPI document', content: { 'application/json': { schema: { type: 'object' } } } }
        : {
            description: 'Success envelope',
            content: {
              'application/json': {
                schema: {
                  type: 'object',
                  required: ['ok', 'data', 'meta'],
                  properties: {
                    ok: { type: 'boolean', const: true },
                    data: DATA[id] ?? { type: 'object' },
                    meta: { $ref: '#/components/schemas/Meta' },
                  },
                },
              },
            },
          };
  const responses: Rec = { '200': r.auth ? { ...ok, headers: LIMIT_HEADERS } : ok };
  for (const [status, codes] of Object.entries(ERRORS)) {
    if (r.auth || status === '400' || status === '404' || status === '500') {
      // 401 and the tenant's 400/403 are refused before the limiter counts the call: no limit headers promised.
      const counted = r.auth && !['400', '401', '403'].includes(status);
      responses[status] = errorResponse(status, codes, counted);
    }
  }
  const op: Rec = {
    operationId: `${r.method.toLowerCase()}${r.path.replace(/[{}]/g, '').replace(/[/.-](\w)/g, (_, c: string) => c.toUpperCase()) || 'Root'}`,
    summary: r.purpose,
    tags: [r.tag],
    parameters: parameters(r, o),
    responses,
    security: r.auth ? [{ oauth2: [] }] : [],
  };
  const body = BODIES[id];
  if (body) {
    op.requestBody = {
      required: true,
      content: { 'application/json': { schema: { $ref: `#/components/schemas/${body}` } } },
    };
  }
  return op;
}

export function openapi(
  tokenUrl: string,
  version: string = VERSION,
  o: DocOptions = { auditMax: 100, versionRequired: false },
): Rec {
  const paths: Rec = {};
  for (const r of ROUTES) {
    if (version !== VERSION && r.path === '/webhook-deliveries') continue;
    if (version !== VERSION && r.path.startsWith('/webhook-deliveries/')) continue;
    const p = r.path === '' ? '/' : r.path;
    paths[p] = { ...(paths[p] ?? {}), [r.method.toLowerCase()]: operation(r, o) };
  }
  return {
    openapi: '3.1.0',
    info: {
      title: 'Network Connections Service (locust)',
      version,
      description: 'Falcon deployment of the interface.',
    },
    servers: [{ url: PREFIX }],
    paths,
    components: {
      schemas: SCHEMAS,
      securitySchemes: {
        oauth2: {
          type: 'oauth2',
          flows: {
            clientCredentials: {
              tokenUrl,
              scopes: {
                'connections:read': 'read',
                'connections:write': 'write',
                'webhooks:write': 'webhooks',
                'audit:read': 'audit',
              },
            },
          },
        },
      },
    },
    tags: ['meta', 'catalog', 'connections', 'idempotency', 'events', 'webhooks', 'audit'].map((name) => ({ name })),
  };
}
