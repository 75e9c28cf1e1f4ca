// The OpenAPI 3.1 document, built from the route table so it never drifts from what is served.
import { VERSION } from './http.ts';
import { ROUTES } from './routes.ts';

const ref = (n: string) => ({ $ref: `#/components/schemas/${n}` });
/** The success envelope around one endpoint's data schema. */
const success = (data: unknown) => ({
  type: 'object',
  required: ['ok', 'data', 'meta'],
  properties: { ok: { const: true }, data: data ?? { type: 'object' }, meta: ref('Meta') },
});
const obj = (props: Record<string, unknown>, required = Object.keys(props)) => ({
  type: 'object',
  required,
  properties: props,
});
const S = { type: 'string' };
const B = { type: 'boolean' };
const I = { type: 'integer' };
const T = { type: 'string', format: 'date-time' };
const list = (name: string, item: unknown, extra: Record<string, unknown> = {}) =>
  obj({ ...extra, count: I, [name]: { type: 'array', items: item } });
const QUERIES: Record<string, string[]> = {
  '/api/public/v1/providers': ['category'],
  '/api/public/v1/connectors': ['capability', 'providerId', 'category'],
};
const PROVIDER = obj({ id: S, name: S, category: S, summary: S });
const CONNECTOR = obj({ id: S, providerId: S, name: S, category: S, capabilities: { type: 'array', items: S } });
const CAPABILITY = obj({ id: S, label: S, critical: B, idempotencyRequired: B });
const CONNECTION = obj({
  id: S,
  connectorId: S,
  environment: { type: 'string', enum: ['development', 'sandbox', 'pilot', 'production'] },
  scopeLabel: S,
  state: S,
  capabilities: { type: 'array', items: obj({ capability: S, critical: B, idempotencyRequired: B }) },
  nextStep: S,
  createdAt: T,
});
const DATA: Record<string, unknown> = {
  'GET /api/public/v1': obj({
    service: S,
    surface: S,
    version: S,
    authentication: { type: 'object' },
    idempotency: { type: 'object' },
    routes: { type: 'array', items: obj({ method: S, path: S, purpose: S, auth: B }) },
  }),
  'GET /api/public/v1/providers': list('providers', PROVIDER),
  'GET /api/public/v1/connectors': list('connectors', CONNECTOR),
  'GET /api/public/v1/capabilities': list('capabilities', CAPABILITY),
  'POST /api/public/v1/capabilities': obj({
    decision: obj({ connectorId: S, capability: S, allowed: B, critical: B, idempotencyRequired: B, reason: S }),
    environment: { type: 'string', enum: ['development', 'sandbox', 'pilot', 'production'] },
  }),
  'GET /api/public/v1/connections': list('connections', CONNECTION, { tenant: S }),
  'POST /api/public/v1/connections': CONNECTION,
  'POST /api/public/v1/idempotency-keys': obj({ idempotencyKey: S, operation: S, expiresAt: T }),
  'POST /api/public/v1/webhooks': obj(
    { id: S, url: S, events: { type: 'array', items: S }, createdAt: T, signatureHeader: S, signingKey: S },
    ['id', 'url', 'events', 'createdAt'],
  ),
  'GET /api/public/v1/audit-log': obj({
    tenant: S,
    order: S,
    count: I,
    entries: { type: 'array', items: { type: 'object' } },
    nextCursor: { type: ['string', 'null'] },
    proof: { type: 'object' },
  }),
};
const failure = {
  description: 'failure envelope',
  content: { 'application/json': { schema: { $ref: '#/components/schemas/Failure' } } },
};
const STATUSES = ['400', '401', '403', '404', '409', '428', '429', '500'];
const str = (min: number, max: number) => ({ type: 'string', minLength: min, maxLength: max });
const ENV = { type: 'string', enum: ['development', 'sandbox', 'pilot', 'production'] };

const BODIES: Record<string, unknown> = {
  'POST /api/public/v1/capabilities': {
    type: 'object',
    required: ['connectorId', 'capability'],
    properties: { connectorId: str(2, 120), capability: str(2, 120), environment: { ...ENV, default: 'sandbox' } },
  },
  'POST /api/public/v1/connections': {
    type: 'object',
    required: ['connectorId', 'environment', 'scopeLabel', 'capabilities'],
    properties: {
      connectorId: str(2, 120),
      environment: ENV,
      scopeLabel: str(2, 120),
      capabilities: { type: 'array', minItems: 1, maxItems: 24, items: str(2, 120) },
    },
  },
  'POST /api/public/v1/idempotency-keys': {
    type: 'object',
    required: ['operation'],
    properties: { operation: str(2, 80) },
  },
  'POST /api/public/v1/webhooks': {
    type: 'object',
    required: ['url', 'events'],
    properties: {
      url: { type: 'string', format: 'uri' },
      events: { type: 'array', minItems: 1, items: { type: 'string' } },
    },
  },
};

export function openapi(baseUrl: string): Record<string, unknown> {
  const paths: Record<string, Record<string, unknown>> = {};
  for (const r of ROUTES) {
    const params: unknown[] = [...r.path.matchAll(/\{(\w+)\}/g)].map((m) => ({
      name: m[1],
      in: 'path',
      required: true,
      schema: { type: 'string' },
    }));
    if (r.key) {
      params.push({
        name: 'Idempotency-Key',
        in: 'header',
        required: r.key === 'required',
        schema: { type: 'string', pattern: '^[A-Za-z0-9._:-]{8,128}$' },
      });
    }
    if (r.auth) params.push({ name: 'x-service-tenant', in: 'header', required: true, schema: { type: 'string' } });
    if (r.path.endsWith('/stream')) {
      params.push({ name: 'cursor', in: 'query', required: false, schema: { type: 'integer', minimum: 0 } });
      params.push({ name: 'Last-Event-ID', in: 'header', required: false, schema: { type: 'string' } });
    }
    for (const q of QUERIES[r.path] ?? [])
      params.push({ name: q, in: 'query', required: false, schema: { type: 'string' } });
    if (r.path.endsWith('/audit-log')) {
      params.push({
        name: 'limit',
        in: 'query',
        required: false,
        schema: { type: 'integer', minimum: 1, maximum: 200 },
      });
      params.push({ name: 'cursor', in: 'query', required: false, schema: { type: 'string' } });
    }
    const ok = r.path.endsWith('/stream')
      ? { description: 'event stream', content: { 'text/event-stream': { schema: { type: 'string' } } } }
      : r.path.endsWith('.yaml')
        ? { description: 'YAML', content: { 'application/yaml': { schema: { type: 'string' } } } }
        : {
            description: 'success envelope',
            content: { 'application/json': { schema: success(DATA[`${r.method} ${r.path}`]) } },
          };
    const responses: Record<string, unknown> = { '200': ok };
    if (r.auth) for (const s of STATUSES) responses[s] = failure;
    const body = BODIES[`${r.method} ${r.path}`];
    paths[r.path] = {
      ...paths[r.path],
      [r.method.toLowerCase()]: {
        operationId: `${r.method.toLowerCase()}${r.path.replace(/[^A-Za-z0-9]+(.)?/g, (_m, c: string | undefined) => (c ? c.toUpperCase() : ''))}`,
        summary: r.purpose,
        security: r.auth ? [{ oauth: [] }] : [],
        parameters: params,
        ...(body ? { requestBody: { required: true, content: { 'application/json': { schema: body } } } } : {}),
        responses,
      },
    };
  }
  return {
    openapi: '3.1.0',
    info: { title: 'Network Connections Service (tupelo)', version: VERSION },
    servers: [{ url: baseUrl.replace(/\/api\/public\/v1$/, '') }],
    paths,
    components: {
      securitySchemes: { oauth: { type: 'oauth2', flows: { clientCredentials: { tokenUrl: '/token', scopes: {} } } } },
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
        Success: {
          type: 'object',
          required: ['ok', 'data', 'meta'],
          properties: { ok: { const: true }, data: { type: 'object' }, meta: { $ref: '#/components/schemas/Meta' } },
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
                code: { type: 'string' },
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

/** A small JSON-to-YAML writer (JSON is valid YAML 1.2 flow style; this keeps it readable). */
export function toYaml(v: unknown, indent = ''): string {
  if (Array.isArray(v))
    return v.length === 0 ? '[]' : v.map((x) => `\n${indent}- ${toYaml(x, `${indent}  `).trimStart()}`).join('');
  if (v && typeof v === 'object') {
    const e = Object.entries(v);
    return e.length === 0
      ? '{}'
      : e.map(([k, x]) => `\n${indent}${JSON.stringify(k)}: ${toYaml(x, `${indent}  `)}`).join('');
  }
  return JSON.stringify(v);
}
