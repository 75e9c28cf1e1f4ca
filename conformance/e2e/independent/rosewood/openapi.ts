// The OpenAPI 3.1 document: operations from the route table, bodies and answers from the hand-written
// schemas; served by openapi-files.ts.
import { CURRENT_VERSION, type Rec } from './http.ts';
import { SCHEMAS } from './openapi-schemas.ts';
import { publicPath, ROUTES } from './routes.ts';

const ref = (name: string): Rec => ({ $ref: `#/components/schemas/${name}` });
const list = (field: string, item: string): Rec => ({
  type: 'object',
  properties: { count: { type: 'integer' }, [field]: { type: 'array', items: ref(item) } },
  required: ['count', field],
});

/** The `data` of each operation's success answer, by "METHOD path". */
const DATA: Record<string, Rec> = {
  'GET /providers': list('providers', 'Provider'),
  'GET /connectors': list('connectors', 'Connector'),
  'GET /capabilities': list('capabilities', 'Capability'),
  'POST /capabilities': {
    type: 'object',
    properties: { decision: ref('CapabilityDecision'), environment: ref('Environment') },
    required: ['decision', 'environment'],
  },
  'GET /connections': {
    ...list('connections', 'Connection'),
    properties: { tenant: { type: 'string' }, ...list('connections', 'Connection').properties },
  },
  'POST /connections': ref('Connection'),
  'POST /idempotency-keys': ref('IdempotencyKeyResult'),
  'POST /webhooks': ref('Webhook'),
  'GET /webhooks': list('webhooks', 'Webhook'),
  'GET /webhooks/:webhookID': ref('Webhook'),
  'GET /webhooks/:webhookID/attempts': list('attempts', 'Attempt'),
  'GET /audit-log': {
    type: 'object',
    properties: {
      items: { type: 'array', items: ref('AuditEntry') },
      metadata: { type: 'object' },
      proof: { type: 'object' },
    },
  },
  'GET ': {
    type: 'object',
    properties: {
      service: { type: 'string' },
      surface: { type: 'string' },
      version: { type: 'string' },
      authentication: { type: 'object' },
      idempotency: { type: 'object' },
      routes: { type: 'array', items: ref('RouteInfo') },
    },
    required: ['service', 'surface', 'version', 'authentication', 'idempotency', 'routes'],
  },
};

const BODY: Record<string, string> = {
  'POST /capabilities': 'CheckRequest',
  'POST /connections': 'CreateConnection',
  'POST /idempotency-keys': 'CreateKey',
  'POST /webhooks': 'CreateWebhook',
};

const QUERY: Record<string, string[]> = {
  'GET /providers': ['category'],
  'GET /connectors': ['capability', 'providerId', 'category'],
  'GET /audit-log': ['limit', 'page'],
  'GET /stream': ['cursor'],
};

const intHeader = (description: string): Rec => ({ description, schema: { type: 'integer', minimum: 0 } });
const LIMIT_HEADERS: Rec = {
  'X-RateLimit-Limit': intHeader('calls allowed in the sliding window'),
  'X-RateLimit-Remaining': intHeader('calls left in the window'),
};

function operation(r: (typeof ROUTES)[number]): Rec {
  const key = `${r.method} ${r.path}`;
  const params: Rec[] = (r.path.match(/:(\w+)/g) ?? []).map((p) => ({
    name: p.slice(1),
    in: 'path',
    required: true,
    schema: { type: 'string' },
  }));
  for (const q of QUERY[key] ?? []) {
    const integer = q === 'cursor' || q === 'limit' || q === 'page';
    params.push({
      name: q,
      in: 'query',
      required: false,
      schema: integer ? { type: 'integer', minimum: q === 'cursor' ? 0 : 1 } : { type: 'string' },
    });
  }
  if (r.key)
    params.push({
      name: 'Idempotency-Key',
      in: 'header',
      required: true,
      schema: { type: 'string', pattern: '^[A-Za-z0-9._:-]{8,128}$' },
    });
  if (r.auth) params.push({ name: 'x-service-tenant', in: 'header', required: true, schema: { type: 'string' } });
  if (r.path === '/stream')
    params.push({ name: 'Last-Event-ID', in: 'header', required: false, schema: { type: 'string' } });
  const success =
    r.path === '/stream'
      ? { description: 'Server-Sent Events', content: { 'text/event-stream': { schema: { type: 'string' } } } }
      : {
          description: 'Success',
          content: {
            'application/json': {
              schema: {
                type: 'object',
                properties: { ok: { const: true }, data: DATA[key] ?? { type: 'object' }, meta: ref('Meta') },
                required: ['ok', 'data', 'meta'],
              },
            },
          },
        };
  const failure = { description: 'Failure', content: { 'application/json': { schema: ref('Error') } } };
  const limited = {
    ...failure,
    description: 'Rate limited',
    headers: { ...LIMIT_HEADERS, 'Retry-After': intHeader('seconds to wait') },
  };
  if (r.auth) (success as Rec).headers = LIMIT_HEADERS;
  const op: Rec = {
    operationId: `${r.method.toLowerCase()}${r.path.replace(/[/:.-](\w)/g, (_m, c: string) => c.toUpperCase()) || 'Root'}`,
    summary: r.purpose,
    parameters: params,
    responses: r.auth ? { '200': success, '429': limited, default: failure } : { '200': success, default: failure },
  };
  if (BODY[key]) op.requestBody = { required: true, content: { 'application/json': { schema: ref(BODY[key] ?? '') } } };
  if (!r.auth) op.security = [];
  return op;
}

export function openapiDocument(base: string, version = CURRENT_VERSION): Rec {
  const paths: Rec = {};
  for (const r of ROUTES) {
    const p = publicPath(r.path);
    paths[p] = { ...paths[p], [r.method.toLowerCase()]: operation(r) };
  }
  return {
    openapi: '3.1.0',
    info: { title: 'Rosewood Network Connections', version },
    servers: [{ url: base, description: 'this deployment (paths carry /api/public/v1)' }],
    paths,
    components: {
      schemas: SCHEMAS,
      securitySchemes: {
        oauth2: { type: 'oauth2', flows: { clientCredentials: { tokenUrl: `${base}/oauth2/token`, scopes: {} } } },
      },
    },
    security: [{ oauth2: [] }],
  };
}
