// The OpenAPI 3.1 document, built from the route table: `servers` names the base path and the paths are
// relative to it (as rswag writes them), OAuth2 client credentials as the security scheme.

import { BODIES, DATA, QUERY, SCHEMAS } from './openapi-schemas.ts';
import type { Route } from './routes.ts';
import { API, type Rec } from './state.ts';
import { toYaml } from './yaml.ts';

const ERRORS: Record<string, string[]> = {
  '400': ['invalid_request'],
  '401': ['unauthorized'],
  '403': ['forbidden'],
  '404': ['not_found'],
  '409': ['idempotency_conflict', 'capability_denied'],
  '428': ['idempotency_required'],
  '429': ['rate_limited'],
  '500': ['internal'],
};

/** rack-attack's headers, on every answer it counted (all of them under /api/public/v1). */
const LIMIT_HEADERS: Rec = {
  'X-RateLimit-Limit': { description: 'calls allowed in the current period', schema: { type: 'integer', minimum: 0 } },
  'X-RateLimit-Remaining': { description: 'calls left in the current period', schema: { type: 'integer', minimum: 0 } },
};
const RETRY_AFTER = { description: 'seconds until the period ends', schema: { type: 'integer', minimum: 1 } };

function failure(status: string, codes: string[]): Rec {
  const schema = {
    allOf: [
      { $ref: '#/components/schemas/Failure' },
      {
        type: 'object',
        properties: { error: { type: 'object', properties: { code: { type: 'string', enum: codes } } } },
      },
    ],
  };
  const headers = status === '429' ? { ...LIMIT_HEADERS, 'Retry-After': RETRY_AFTER } : LIMIT_HEADERS;
  return { description: codes.join(' or '), headers, content: { 'application/json': { schema } } };
}

function operation(r: Route): Rec {
  const key = `${r.method} ${r.path}`;
  const parameters: Rec[] = [];
  for (const m of r.path.matchAll(/\{(\w+)\}/g))
    parameters.push({ name: m[1], in: 'path', required: true, schema: { type: 'integer' } });
  for (const [name, schema, example] of QUERY[key] ?? [])
    parameters.push({ name, in: 'query', required: false, schema, example });
  if (r.auth) parameters.push({ name: 'x-service-tenant', in: 'header', required: true, schema: { type: 'string' } });
  if (r.key)
    parameters.push({
      name: 'Idempotency-Key',
      in: 'header',
      required: true,
      schema: { type: 'string', pattern: '^[A-Za-z0-9._:-]{8,128}$' },
    });
  if (key === 'GET /stream')
    parameters.push({ name: 'Last-Event-ID', in: 'header', required: false, schema: { type: 'string' } });
  parameters.push({
    name: 'Service-Version',
    in: 'header',
    required: false,
    schema: { type: 'string', enum: ['2026-06-12', '2026-07-01'] },
  });
  const data = DATA[key] ?? { type: 'object' };
  const ok: Rec =
    key === 'GET /stream'
      ? { description: 'Server-Sent Events', content: { 'text/event-stream': { schema: { type: 'string' } } } }
      : {
          description: 'OK',
          content: {
            [r.path.endsWith('.yaml') ? 'application/yaml' : 'application/json']: {
              schema: r.path.startsWith('/openapi')
                ? { type: 'object' }
                : {
                    type: 'object',
                    required: ['ok', 'data', 'meta'],
                    properties: { ok: { const: true }, data, meta: { $ref: '#/components/schemas/Meta' } },
                  },
            },
          },
        };
  const responses: Rec = { '200': ok };
  ok.headers = LIMIT_HEADERS;
  for (const [status, codes] of Object.entries(ERRORS)) responses[status] = failure(status, codes);
  const op: Rec = {
    operationId: `${r.method.toLowerCase()}${r.path.replace(/[^A-Za-z0-9]+(\w)?/g, (_, c: string | undefined) => (c ?? '').toUpperCase()) || 'Root'}`,
    summary: r.purpose,
    parameters,
    responses,
    security: r.auth ? [{ oauth2: [] }] : [],
  };
  if (BODIES[key]) op.requestBody = { required: true, content: { 'application/json': { schema: BODIES[key] } } };
  return op;
}

export function openapiDocument(routes: Route[], version: string): Rec {
  const paths: Rec = {};
  // The delivery log came with 2026-07-01; the 2026-06-12 file describes what that version had.
  const shown = routes.filter((r) => version !== '2026-06-12' || !r.path.includes('delivery_attempts'));
  for (const r of shown) {
    const p = r.path === '' ? '/' : r.path;
    paths[p] = { ...(paths[p] ?? {}), [r.method.toLowerCase()]: operation(r) };
  }
  return {
    openapi: '3.1.0',
    info: { title: 'Basswood network connections API', version },
    servers: [{ url: API }],
    paths,
    components: {
      schemas: SCHEMAS,
      securitySchemes: {
        oauth2: { type: 'oauth2', flows: { clientCredentials: { tokenUrl: '/oauth2/token', scopes: {} } } },
      },
    },
  };
}

export function openapiYaml(doc: Rec): string {
  return toYaml(doc);
}
