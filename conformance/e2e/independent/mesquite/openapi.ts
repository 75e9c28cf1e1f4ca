// The OpenAPI 3.1 document, written from the route table (a Ballerina team's `bal openapi` output, moved
// to 3.1): servers carry the base path, so paths are relative to it. Per version: JSON and YAML files.

import { TOKEN_PATH } from './auth.ts';
import { SCHEMAS } from './openapi-schemas.ts';
import { BASE, ROUTES } from './routes.ts';
import { EVENT_NAMES, type Rec, VERSION } from './state.ts';

const EXAMPLES: Rec = {
  category: 'payments',
  capability: 'payments.capture',
  providerId: 'northwind-pay',
  limit: 20,
  offset: 0,
};

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

function operation(r: (typeof ROUTES)[number]): Rec {
  const parameters: Rec[] = [{ $ref: '#/components/parameters/ServiceVersion' }];
  for (const p of r.path.match(/\{([^}]+)\}/g) ?? [])
    parameters.push({ name: p.slice(1, -1), in: 'path', required: true, schema: { type: 'string' } });
  for (const q of r.query ?? [])
    parameters.push({
      name: q,
      in: 'query',
      required: false,
      schema:
        q === 'limit' || q === 'offset' ? { type: 'integer', minimum: q === 'limit' ? 1 : 0 } : { type: 'string' },
      example: EXAMPLES[q],
    });
  if (r.path === '/stream') {
    parameters.push(
      { name: 'cursor', in: 'query', required: false, schema: { type: 'integer', minimum: 0 } },
      { name: 'Last-Event-ID', in: 'header', required: false, schema: { type: 'string' } },
    );
  }
  if (r.auth) parameters.push({ $ref: '#/components/parameters/Tenant' });
  if (r.key)
    parameters.push({
      name: 'Idempotency-Key',
      in: 'header',
      required: r.key === 'required',
      schema: { type: 'string', pattern: '^[A-Za-z0-9._:-]{8,128}$' },
    });
  const ok = r.data
    ? {
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
      }
    : r.path === '/stream'
      ? { content: { 'text/event-stream': { schema: { type: 'string' } } } }
      : {
          content: {
            [r.path.endsWith('.yaml') ? 'application/yaml' : 'application/json']: {
              schema: { type: r.path.endsWith('.yaml') ? 'string' : 'object' },
            },
          },
        };
  // Choreo's throttling headers, on every answer of a counted (signed-in) call; Retry-After on the 429 only.
  const limits: Rec = r.auth
    ? {
        'X-RateLimit-Limit': { $ref: '#/components/headers/Limit' },
        'X-RateLimit-Remaining': { $ref: '#/components/headers/Remaining' },
      }
    : {};
  const responses: Rec = { '200': { description: 'Success', headers: limits, ...ok } };
  for (const [code, name] of Object.entries(ERRORS)) {
    responses[code] = {
      description: name,
      headers: code === '429' ? { ...limits, 'Retry-After': { $ref: '#/components/headers/RetryAfter' } } : {},
      content: { 'application/json': { schema: { $ref: '#/components/schemas/ErrorEnvelope' } } },
    };
  }
  const op: Rec = {
    operationId: r.operationId,
    summary: r.purpose,
    parameters,
    responses,
    security: r.auth ? [{ choreoOAuth2: [] }] : [],
  };
  if (r.body)
    op.requestBody = {
      required: true,
      content: { 'application/json': { schema: { $ref: `#/components/schemas/${r.body}` } } },
    };
  if (r.path === '/webhooks' && r.method === 'POST') op['x-events'] = [...EVENT_NAMES];
  return op;
}

export function openapiDoc(origin: string, version = VERSION): Rec {
  const paths: Rec = {};
  for (const r of ROUTES) {
    if (r.since && r.since > version) continue;
    paths[r.path || '/'] ??= {};
    paths[r.path || '/'][r.method.toLowerCase()] = operation(r);
  }
  return {
    openapi: '3.1.0',
    info: {
      title: 'Network Connections Service',
      version,
      description: 'mesquite: a Ballerina service behind the Choreo gateway.',
    },
    servers: [{ url: `${origin}${BASE}` }],
    paths,
    components: {
      schemas: SCHEMAS,
      parameters: {
        ServiceVersion: {
          name: 'Service-Version',
          in: 'header',
          required: false,
          schema: { type: 'string', enum: ['2026-06-12', '2026-07-01'] },
          example: '2026-07-01',
        },
        Tenant: {
          name: 'x-service-tenant',
          in: 'header',
          required: true,
          schema: { type: 'string' },
          example: 'acme-bistro',
        },
      },
      headers: {
        Limit: { description: 'Calls allowed in the current window', schema: { type: 'integer', minimum: 0 } },
        Remaining: { description: 'Calls left in the current window', schema: { type: 'integer', minimum: 0 } },
        RetryAfter: { description: 'Seconds to wait before retrying', schema: { type: 'integer', minimum: 1 } },
      },
      securitySchemes: {
        choreoOAuth2: {
          type: 'oauth2',
          flows: { clientCredentials: { tokenUrl: `${origin}${TOKEN_PATH}`, scopes: {} } },
        },
      },
    },
  };
}
