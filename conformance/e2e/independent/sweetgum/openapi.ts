// sweetgum's OpenAPI 3.1 document, written by the team (not generated): `servers` carries the base path, so
// the paths are short (`/providers`). One document per version; 2026-06-12 lacks the delivery log.
import { BODIES, DATA } from './openapi-operations.ts';
import { SCHEMAS } from './openapi-schemas.ts';
import { routesOf } from './routes.ts';
import type { Rec } from './state.ts';

const ERRORS: Record<string, string> = {
  '400': 'invalid_request',
  '401': 'unauthorized',
  '403': 'forbidden',
  '404': 'not_found',
  '409': 'capability_denied or idempotency_conflict',
  '428': 'idempotency_required',
  '429': 'rate_limited',
  '500': 'internal',
};

const LIMIT_HEADERS: Rec = {
  'X-RateLimit-Limit': { $ref: '#/components/headers/XRateLimitLimit' },
  'X-RateLimit-Remaining': { $ref: '#/components/headers/XRateLimitRemaining' },
};

const HEADERS: Rec = {
  XRateLimitLimit: { description: 'calls allowed in the current window', schema: { type: 'integer', minimum: 0 } },
  XRateLimitRemaining: { description: 'calls left in the current window', schema: { type: 'integer', minimum: 0 } },
  RetryAfter: { description: 'recommended wait in seconds', schema: { type: 'integer', minimum: 0 } },
};

const failure = (code: string, headers?: Rec): Rec => ({
  description: code,
  ...(headers ? { headers } : {}),
  content: { 'application/json': { schema: { $ref: '#/components/schemas/Failure' } } },
});

function operation(method: string, path: string, purpose: string, auth: boolean, key: boolean): Rec {
  const id = `${method} ${path}`;
  const op: Rec = {
    operationId:
      `${method.toLowerCase()}${path.replace(/[{}]/g, '').replace(/[^a-zA-Z0-9]+(.)?/g, (_m, c: string | undefined) => (c ? c.toUpperCase() : ''))}` ||
      'getSelfDescription',
    summary: purpose,
  };
  const parameters: Rec[] = [...path.matchAll(/\{(\w+)\}/g)].map((m) => ({
    name: m[1],
    in: 'path',
    required: true,
    schema: { type: 'string' },
  }));
  parameters.push({
    name: 'Service-Version',
    in: 'header',
    required: false,
    schema: { type: 'string', enum: ['2026-06-12', '2026-07-01'] },
  });
  if (auth) parameters.push({ name: 'x-service-tenant', in: 'header', required: true, schema: { type: 'string' } });
  if (key)
    parameters.push({
      name: 'Idempotency-Key',
      in: 'header',
      required: true,
      schema: { type: 'string', pattern: '^[A-Za-z0-9._:-]{8,128}$' },
    });
  const query: Record<string, Rec[]> = {
    'GET /providers': [{ name: 'category', in: 'query', schema: { type: 'string' }, example: 'payments' }],
    'GET /connectors': [
      { name: 'capability', in: 'query', schema: { type: 'string' }, example: 'payments.capture' },
      { name: 'providerId', in: 'query', schema: { type: 'string' }, example: 'prv-lakeside-pay' },
      { name: 'category', in: 'query', schema: { type: 'string' }, example: 'payments' },
    ],
    'GET /stream': [
      { name: 'cursor', in: 'query', schema: { type: 'integer', minimum: 0 }, example: 42 },
      { name: 'Last-Event-ID', in: 'header', schema: { type: 'string' } },
    ],
    'GET /audit-log': [
      { name: 'limit', in: 'query', schema: { type: 'integer', minimum: 1, maximum: 100, default: 20 } },
      { name: 'pageToken', in: 'query', schema: { type: 'string' } },
    ],
  };
  parameters.push(...(query[id] ?? []));
  op.parameters = parameters;
  const body = BODIES[id];
  if (body) op.requestBody = { required: true, content: { 'application/json': { schema: body } } };
  let ok: Rec;
  if (path === '/stream')
    ok = { description: 'Server-Sent Events', content: { 'text/event-stream': { schema: { type: 'string' } } } };
  else if (path === '/openapi.json' || path.startsWith('/openapi/')) {
    ok = {
      description: 'OpenAPI 3.1 document',
      content: {
        'application/json': { schema: { type: 'object' } },
        'application/yaml': { schema: { type: 'string' } },
      },
    };
  } else {
    const schema = {
      type: 'object',
      required: ['ok', 'data', 'meta'],
      properties: {
        ok: { type: 'boolean', const: true },
        data: DATA[id] ?? { type: 'object' },
        meta: { $ref: '#/components/schemas/Meta' },
      },
    };
    ok = {
      description: purpose,
      ...(auth ? { headers: LIMIT_HEADERS } : {}),
      content: { 'application/json': { schema } },
    };
  }
  // Counted answers (every one after authentication) carry the limit headers; a 429 also the wait.
  const counted = (st: string) => auth && !['400', '401'].includes(st);
  const errors = Object.entries(ERRORS).map(([st, code]) => {
    const headers =
      st === '429' ? { ...LIMIT_HEADERS, 'Retry-After': { $ref: '#/components/headers/RetryAfter' } } : LIMIT_HEADERS;
    return [st, failure(code, counted(st) ? headers : undefined)];
  });
  op.responses = { '200': ok, ...Object.fromEntries(errors) };
  op.security = auth ? [{ oauth2: [] }] : [];
  if (id === 'POST /webhooks') op['x-events'] = (body?.properties as Rec | undefined)?.events?.items?.enum;
  return op;
}

export function openapiDocument(version: string, tokenUrl: string): Rec {
  const paths: Rec = {};
  for (const r of routesOf(version)) {
    const p = r.path === '' ? '/' : r.path;
    paths[p] ??= {};
    paths[p][r.method.toLowerCase()] = operation(r.method, r.path, r.purpose, r.auth, Boolean(r.key));
  }
  return {
    openapi: '3.1.0',
    info: { title: 'Network Connections Service (sweetgum)', version, description: 'Served by sweetgum (sandbox).' },
    servers: [{ url: '/api/public/v1' }],
    paths,
    components: {
      schemas: SCHEMAS,
      headers: HEADERS,
      securitySchemes: {
        oauth2: {
          type: 'oauth2',
          flows: { clientCredentials: { tokenUrl, scopes: { connections: 'read and write connections' } } },
        },
      },
    },
  };
}
