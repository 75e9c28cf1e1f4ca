// The OpenAPI 3.1 document, written by hand as the team's aiohttp-apispec would emit it from the route table.
import { type Rec, VERSION } from './http.ts';
import { EVENT_NAMES } from './webhooks.ts';

export interface Route {
  method: string;
  path: string;
  purpose: string;
  auth: boolean;
  key?: boolean;
}

const ENV = { type: 'string', enum: ['development', 'sandbox', 'pilot', 'production'] };
const S = (min: number, max: number) => ({ type: 'string', minLength: min, maxLength: max });

const BODIES: Record<string, Rec> = {
  'POST /api/public/v1/capabilities': {
    type: 'object',
    required: ['connectorId', 'capability'],
    properties: { connectorId: S(2, 120), capability: S(2, 120), environment: ENV },
  },
  'POST /api/public/v1/connections': {
    type: 'object',
    required: ['connectorId', 'environment', 'scopeLabel', 'capabilities'],
    properties: {
      connectorId: S(2, 120),
      environment: ENV,
      scopeLabel: S(2, 120),
      capabilities: { type: 'array', minItems: 1, maxItems: 24, items: S(2, 120) },
    },
  },
  'POST /api/public/v1/idempotency-keys': {
    type: 'object',
    required: ['operation'],
    properties: { operation: S(2, 80) },
  },
  'POST /api/public/v1/webhooks': {
    type: 'object',
    required: ['url', 'events'],
    properties: {
      url: { type: 'string', format: 'uri' },
      events: { type: 'array', minItems: 1, items: { type: 'string', enum: EVENT_NAMES } },
    },
  },
};

const QUERY: Record<string, string[]> = {
  'GET /api/public/v1/providers': ['category'],
  'GET /api/public/v1/connectors': ['capability', 'providerId', 'category'],
  'GET /api/public/v1/audit-log': ['limit', 'after'],
};

const OBJ = (props: Record<string, string>): Rec => ({
  type: 'object',
  required: Object.keys(props),
  properties: Object.fromEntries(
    Object.entries(props).map(([k, t]) => [k, t === 'array' ? { type: 'array', items: {} } : { type: t }]),
  ),
});
const CONNECTION = OBJ({
  id: 'string',
  connectorId: 'string',
  environment: 'string',
  scopeLabel: 'string',
  state: 'string',
  capabilities: 'array',
  nextStep: 'string',
  createdAt: 'string',
});
const DECISION = OBJ({
  connectorId: 'string',
  capability: 'string',
  allowed: 'boolean',
  critical: 'boolean',
  idempotencyRequired: 'boolean',
  reason: 'string',
});
const DATA: Record<string, Rec> = {
  'POST /api/public/v1/capabilities': {
    type: 'object',
    required: ['decision', 'environment'],
    properties: { decision: DECISION, environment: ENV },
  },
  'POST /api/public/v1/connections': CONNECTION,
  'GET /api/public/v1/connections': {
    ...OBJ({ tenant: 'string', count: 'integer' }),
    required: ['tenant', 'count', 'connections'],
    properties: {
      tenant: { type: 'string' },
      count: { type: 'integer' },
      connections: { type: 'array', items: CONNECTION },
    },
  },
  'POST /api/public/v1/idempotency-keys': OBJ({ idempotencyKey: 'string', operation: 'string', expiresAt: 'string' }),
};

const ENVELOPE = {
  type: 'object',
  required: ['ok', 'data', 'meta'],
  properties: { ok: { const: true }, data: { type: 'object' }, meta: { $ref: '#/components/schemas/Meta' } },
};
const FAILURE = {
  type: 'object',
  required: ['ok', 'error', 'meta'],
  properties: {
    ok: { const: false },
    error: {
      type: 'object',
      required: ['code', 'message'],
      properties: {
        code: { type: 'string' },
        message: { type: 'string' },
        detail: { type: 'string' },
        hint: { type: 'string' },
      },
    },
    meta: { $ref: '#/components/schemas/Meta' },
  },
};

export function openapi(routes: Route[], version = VERSION): Rec {
  const paths: Rec = {};
  for (const r of routes) {
    const params: Rec[] = [...r.path.matchAll(/\{(\w+)\}/g)].map((m) => ({
      name: m[1],
      in: 'path',
      required: true,
      schema: { type: 'string' },
    }));
    if (r.key)
      params.push({
        name: 'Idempotency-Key',
        in: 'header',
        required: true,
        schema: { type: 'string', pattern: '^[A-Za-z0-9._:-]{8,128}$' },
      });
    if (r.auth) params.push({ name: 'x-service-tenant', in: 'header', required: true, schema: { type: 'string' } });
    for (const q of QUERY[`${r.method} ${r.path}`] ?? [])
      params.push({
        name: q,
        in: 'query',
        required: false,
        schema:
          q === 'limit' || q === 'after' ? { type: 'integer', minimum: q === 'limit' ? 1 : 0 } : { type: 'string' },
      });
    if (r.path.endsWith('/stream')) {
      params.push({ name: 'cursor', in: 'query', required: false, schema: { type: 'integer', minimum: 0 } });
      params.push({ name: 'Last-Event-ID', in: 'header', required: false, schema: { type: 'string' } });
    }
    const data = DATA[`${r.method} ${r.path}`];
    const body = BODIES[`${r.method} ${r.path}`];
    const op: Rec = {
      operationId: `${r.method.toLowerCase()}${r.path.replace(/[^A-Za-z0-9]+(.)?/g, (_m, c: string | undefined) => (c ? c.toUpperCase() : ''))}`,
      summary: r.purpose,
      parameters: params,
      responses: {
        '200': r.path.endsWith('/stream')
          ? { description: 'Server-Sent Events', content: { 'text/event-stream': { schema: { type: 'string' } } } }
          : {
              description: 'OK',
              content: {
                'application/json': {
                  schema: data ? { ...ENVELOPE, properties: { ...ENVELOPE.properties, data } } : ENVELOPE,
                },
              },
            },
        default: { description: 'Error', content: { 'application/json': { schema: FAILURE } } },
      },
    };
    if (r.auth) op.security = [{ oauth2: [] }];
    if (body) op.requestBody = { required: true, content: { 'application/json': { schema: body } } };
    paths[r.path] = { ...(paths[r.path] ?? {}), [r.method.toLowerCase()]: op };
  }
  return {
    openapi: '3.1.0',
    info: { title: 'Network Connections Service (myrtle)', version },
    servers: [{ url: '/' }],
    paths,
    components: {
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
      },
      securitySchemes: {
        oauth2: { type: 'oauth2', flows: { clientCredentials: { tokenUrl: '/oauth2/token', scopes: {} } } },
      },
    },
  };
}
