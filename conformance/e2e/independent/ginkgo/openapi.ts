// Builds the OpenAPI 3.1 document from the route table and the schema table (as FastAPI's get_openapi
// would), and renders it as JSON or YAML. Error answers are listed per operation with ErrorEnvelope.
import { VERSION } from './http-kit.ts';
import { componentSchemas } from './openapi-schemas.ts';
import { ROUTES, type Route } from './routes.ts';
import { WEBHOOK_EVENTS } from './webhooks.ts';

type S = Record<string, unknown>;
export const TOKEN_PATH = '/api/public/v1/auth/token';

const ERRORS: Record<string, string> = {
  '400': 'invalid_request',
  '401': 'unauthorized',
  '403': 'forbidden',
  '404': 'not_found',
  '409': 'capability_denied / idempotency_conflict',
  '428': 'idempotency_required',
  '429': 'rate_limited',
  '500': 'internal',
};

const intHeader = (description: string): S => ({ description, schema: { type: 'integer', minimum: 0 } });
const RATE_HEADERS: S = {
  'X-RateLimit-Limit': intHeader('calls allowed in the current 15 s window (per token and tenant)'),
  'X-RateLimit-Remaining': intHeader('calls left in the current window'),
  'X-RateLimit-Reset': intHeader('end of the current window, epoch seconds'),
};
const RETRY_AFTER: S = { required: true, ...intHeader('seconds to wait before retrying') };

function operation(r: Route): S {
  const params: S[] = (r.params ?? []).map((p) => ({
    name: p.name,
    in: p.in,
    required: p.required ?? false,
    schema: p.schema,
    ...(p.description ? { description: p.description } : {}),
  }));
  for (const m of r.path.matchAll(/\{([^}]+)\}/g))
    params.unshift({ name: m[1], in: 'path', required: true, schema: { type: 'string', pattern: '^[0-9]+$' } });
  if (r.auth)
    params.push({
      name: 'x-service-tenant',
      in: 'header',
      required: true,
      schema: { type: 'string' },
      description: 'tenant the call applies to',
    });
  if (r.key)
    params.push({
      name: 'Idempotency-Key',
      in: 'header',
      required: true,
      schema: { type: 'string', pattern: '^[A-Za-z0-9._:-]{8,128}$' },
      description: 'valid 24 h from first use',
    });
  params.push({
    name: 'Service-Version',
    in: 'header',
    required: false,
    schema: { type: 'string', enum: ['2026-07-01', '2026-06-12'] },
  });
  const raw = r.response.startsWith('raw:') ? r.response.slice(4) : undefined;
  const ok: S = raw
    ? {
        description: 'Successful Response',
        content: { [raw]: { schema: raw === 'application/json' ? { type: 'object' } : { type: 'string' } } },
      }
    : {
        description: 'Successful Response',
        content: { 'application/json': { schema: { $ref: `#/components/schemas/SuccessEnvelope_${r.response}_` } } },
      };
  const responses: S = { '200': ok };
  const codes = r.auth ? Object.keys(ERRORS) : r.path.endsWith('/stream') ? ['400', '500'] : ['500'];
  for (const c of codes)
    responses[c] = {
      description: ERRORS[c],
      content: { 'application/json': { schema: { $ref: '#/components/schemas/ErrorEnvelope' } } },
    };
  // Counted answers (past token and tenant) carry the rate-limit headers; a 429 also Retry-After.
  if (r.auth)
    for (const c of ['200', '404', '409', '428', '429'])
      (responses[c] as S).headers = c === '429' ? { ...RATE_HEADERS, 'Retry-After': RETRY_AFTER } : RATE_HEADERS;
  const op: S = { operationId: r.operationId, summary: r.purpose, tags: [r.tag], parameters: params, responses };
  if (r.request)
    op.requestBody = {
      required: true,
      content: { 'application/json': { schema: { $ref: `#/components/schemas/${r.request}` } } },
    };
  op.security = r.auth ? [{ OAuth2ClientCredentials: [] }] : [];
  return op;
}

export function buildOpenApi(): S {
  const paths: Record<string, S> = {};
  for (const r of ROUTES) {
    const item = paths[r.path] ?? {};
    item[r.method.toLowerCase()] = operation(r);
    paths[r.path] = item;
  }
  paths[TOKEN_PATH] = {
    post: {
      operationId: 'issue_token',
      summary: 'OAuth 2.1 client credentials token (client_secret_basic or client_secret_post)',
      tags: ['auth'],
      security: [],
      requestBody: {
        required: true,
        content: {
          'application/x-www-form-urlencoded': {
            schema: {
              type: 'object',
              required: ['grant_type'],
              properties: {
                grant_type: { const: 'client_credentials' },
                client_id: { type: 'string' },
                client_secret: { type: 'string' },
                scope: { type: 'string' },
              },
            },
          },
        },
      },
      responses: {
        '200': {
          description: 'token',
          content: { 'application/json': { schema: { $ref: '#/components/schemas/TokenResponse' } } },
        },
        '400': { description: 'RFC 6749 error', content: { 'application/json': { schema: { type: 'object' } } } },
        '401': { description: 'invalid_client', content: { 'application/json': { schema: { type: 'object' } } } },
      },
    },
  };
  const dataModels = [...new Set(ROUTES.filter((r) => !r.response.startsWith('raw:')).map((r) => r.response))];
  return {
    openapi: '3.1.0',
    info: {
      title: 'Ginkgo Network Connections Service',
      version: VERSION,
      description: 'Public interface /api/public/v1. Generated from the route and schema tables.',
    },
    paths,
    webhooks: {
      delivery: {
        post: {
          summary: `signed delivery (header X-Ginkgo-Signature: t=<unix>,v1=<hex>); events: ${WEBHOOK_EVENTS.join(', ')}`,
          requestBody: {
            content: {
              'application/json': {
                schema: {
                  type: 'object',
                  properties: { eventId: { type: 'string' }, event: { type: 'string', enum: [...WEBHOOK_EVENTS] } },
                },
              },
            },
          },
          responses: { '200': { description: 'accepted by the receiver' } },
        },
      },
    },
    components: {
      schemas: componentSchemas(dataModels),
      securitySchemes: {
        OAuth2ClientCredentials: { type: 'oauth2', flows: { clientCredentials: { tokenUrl: TOKEN_PATH, scopes: {} } } },
      },
    },
  };
}

function scalar(v: unknown): string {
  if (typeof v === 'string') return JSON.stringify(v);
  return String(v);
}

/** A small YAML emitter: block mappings and sequences, every string double-quoted (valid YAML 1.2). */
export function toYaml(value: unknown, indent = ''): string {
  if (Array.isArray(value)) {
    if (value.length === 0) return ' []\n';
    return `\n${value.map((v) => `${indent}-${isBlock(v) ? toYaml(v, `${indent}  `).replace(/^\n\s*/, ' ') : ` ${scalar(v)}\n`}`).join('')}`;
  }
  if (value !== null && typeof value === 'object') {
    const entries = Object.entries(value as S);
    if (entries.length === 0) return ' {}\n';
    return `\n${entries.map(([k, v]) => `${indent}${JSON.stringify(k)}:${isBlock(v) ? toYaml(v, `${indent}  `) : ` ${scalar(v)}\n`}`).join('')}`;
  }
  return ` ${scalar(value)}\n`;
}

function isBlock(v: unknown): boolean {
  return v !== null && typeof v === 'object';
}
