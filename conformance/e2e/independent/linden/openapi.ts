// The OpenAPI 3.1 document, built from the route table and the decoder's specs so it describes what is served.
import { TOKEN_PATH } from './auth.ts';
import { CURRENT_VERSION, STATUS_OF } from './call.ts';
import { BODIES, DATA, SCHEMAS } from './openapi-schemas.ts';
import { ROUTES, type Route } from './routes.ts';
import type { State } from './state.ts';
import { WEBHOOK_EVENTS } from './webhooks.ts';

type Schema = Record<string, unknown>;
export const OPERATION_IDS: Record<string, string> = {
  'GET /api/public/v1': 'describe',
  'GET /api/public/v1/openapi.json': 'getOpenApi',
  'GET /api/public/v1/openapi/{file}': 'downloadOpenApi',
  'GET /api/public/v1/providers': 'listProviders',
  'GET /api/public/v1/connectors': 'listConnectors',
  'GET /api/public/v1/capabilities': 'listCapabilities',
  'POST /api/public/v1/capabilities': 'checkCapability',
  'GET /api/public/v1/connections': 'listConnections',
  'POST /api/public/v1/connections': 'createConnection',
  'POST /api/public/v1/idempotency-keys': 'issueIdempotencyKey',
  'GET /api/public/v1/stream': 'openStream',
  'POST /api/public/v1/webhooks': 'createWebhook',
  'GET /api/public/v1/audit-log': 'readAuditLog',
  'GET /api/public/v1/info': 'getInfo',
  'DELETE /api/public/v1/webhooks/{webhookId}': 'deleteWebhook',
  'GET /api/public/v1/webhooks/{webhookId}/messages': 'listDeliveryMessages',
  'POST /api/public/v1/webhooks/{webhookId}/messages/{messageId}/requeue': 'requeueDeliveryMessage',
};
const BODY_OF: Record<string, string> = {
  checkCapability: 'CheckBody',
  createConnection: 'CreateBody',
  issueIdempotencyKey: 'KeyBody',
  createWebhook: 'WebhookBody',
};
export const QUERY: Record<string, [string, Schema, string][]> = {
  listProviders: [['category', { type: 'string' }, 'restricts to one category']],
  listConnectors: [
    ['capability', { type: 'string' }, 'connectors offering this capability'],
    ['providerId', { type: 'string' }, 'connectors of this provider'],
    ['category', { type: 'string' }, 'connectors of this category'],
  ],
  openStream: [['cursor', { type: 'integer', minimum: 0 }, 'last number read']],
  readAuditLog: [
    ['limit', { type: 'integer', minimum: 1, maximum: 200, default: 50 }, 'entries per page'],
    ['after', { type: 'integer', minimum: 0 }, 'keyset: the seq of the last entry read'],
  ],
  readAuditLogNewestFirst: [
    ['limit', { type: 'integer', minimum: 1, maximum: 200, default: 50 }, 'entries per page'],
    ['before', { type: 'integer', minimum: 0 }, 'keyset: the seq of the last entry read'],
  ],
  listDeliveryMessages: [
    ['limit', { type: 'integer', minimum: 1, maximum: 200, default: 50 }, 'messages per page'],
    ['after', { type: 'string', pattern: '^[0-9]{1,20}$' }, 'keyset: the id of the last message read'],
  ],
};

const limitHeaders = {
  'X-RateLimit-Limit': { description: 'calls allowed in the current window', schema: { type: 'integer', minimum: 0 } },
  'X-RateLimit-Remaining': { description: 'calls left in the window', schema: { type: 'integer', minimum: 0 } },
  'X-Request-Id': { description: 'meta.requestId', schema: { type: 'string' } },
};

function failure(status: number): Schema {
  const codes = Object.entries(STATUS_OF)
    .filter(([, s]) => s === status)
    .map(([c]) => c);
  const schema = {
    type: 'object',
    required: ['ok', 'error', 'meta'],
    properties: {
      ok: { const: false },
      error: {
        type: 'object',
        required: ['code', 'message'],
        properties: {
          code: { type: 'string', enum: codes },
          message: { type: 'string' },
          detail: { type: 'string' },
          hint: { type: 'string' },
        },
      },
      meta: { $ref: '#/components/schemas/Meta' },
    },
  };
  const headers: Schema = { ...limitHeaders };
  if (status === 429)
    headers['Retry-After'] = { description: 'seconds to wait', schema: { type: 'integer', minimum: 1 } };
  return { description: codes.join(', '), headers, content: { 'application/json': { schema } } };
}

/** The query parameters an operation takes (the audit log's depend on its order and page size). */
export function queryOf(id: string, o: State['options']): [string, Schema, string][] {
  if (id !== 'readAuditLog') return QUERY[id] ?? [];
  const list = QUERY[o.auditNewestFirst ? 'readAuditLogNewestFirst' : 'readAuditLog'] ?? [];
  return list.map(([n, s, d]) => [
    n,
    n === 'limit' ? { ...s, maximum: o.auditMaxLimit, default: Math.min(50, o.auditMaxLimit) } : s,
    d,
  ]);
}

function operation(r: Route, o: State['options']): Schema {
  const id = OPERATION_IDS[`${r.method} ${r.path}`] ?? r.path;
  const params: Schema[] = [{ $ref: '#/components/parameters/ServiceVersion' }];
  if (r.auth) params.push({ $ref: '#/components/parameters/Tenant' });
  if (r.key) params.push({ $ref: '#/components/parameters/IdempotencyKey' });
  for (const m of r.path.matchAll(/\{(\w+)\}/g))
    params.push({ name: m[1], in: 'path', required: true, schema: { type: 'string' } });
  for (const [name, schema, description] of queryOf(id, o))
    params.push({ name, in: 'query', required: false, description, schema });
  if (id === 'openStream')
    params.push({
      name: 'Last-Event-ID',
      in: 'header',
      required: false,
      description: 'last number read',
      schema: { type: 'string', pattern: '^[0-9]+$' },
    });
  const ok: Schema =
    id === 'openStream'
      ? {
          description: 'Server-Sent Events; data is a StreamMessage',
          content: { 'text/event-stream': { schema: { type: 'string' } } },
        }
      : id === 'getOpenApi'
        ? { description: 'this document', content: { 'application/json': { schema: { type: 'object' } } } }
        : id === 'downloadOpenApi'
          ? {
              description: 'the document of that version',
              content: {
                'application/json': { schema: { type: 'object' } },
                'application/yaml': { schema: { type: 'string' } },
              },
            }
          : {
              description: 'success',
              headers: r.auth ? limitHeaders : { 'X-Request-Id': limitHeaders['X-Request-Id'] },
              content: {
                'application/json': {
                  schema: {
                    type: 'object',
                    required: ['ok', 'data', 'meta'],
                    properties: {
                      ok: { const: true },
                      data: DATA[id] ?? { type: 'object' },
                      meta: { $ref: '#/components/schemas/Meta' },
                    },
                  },
                },
              },
            };
  const responses: Schema = { '200': ok };
  const statuses = r.auth
    ? [400, 401, 403, 404, 409, 429, 500, ...(r.key ? [428] : [])]
    : id === 'openStream'
      ? [400, 500]
      : id === 'downloadOpenApi'
        ? [404, 500]
        : [500];
  for (const s of statuses.sort()) responses[String(s)] = { $ref: `#/components/responses/E${s}` };
  const op: Schema = {
    operationId: id,
    summary: r.purpose,
    tags: [r.contract ? 'interface' : 'linden'],
    parameters: params,
    responses,
    security: r.auth ? [{ oauth2: [] }] : [],
  };
  const body = BODY_OF[id];
  if (body)
    op.requestBody = {
      required: true,
      content: { 'application/json': { schema: { $ref: `#/components/schemas/${body}` } } },
    };
  return op;
}

/** The document of a version: 2026-06-12 had no delivery log (added in 2026-07-01). */
export function openApiDocument(o: State['options'], version = CURRENT_VERSION): Schema {
  const paths: Record<string, Schema> = {};
  const since = (r: Route): boolean => version !== '2026-06-12' || !r.path.includes('/messages');
  for (const r of ROUTES.filter(since)) {
    const item = paths[r.path] ?? {};
    item[r.method.toLowerCase()] = operation(r, o);
    paths[r.path] = item;
  }
  const responses = Object.fromEntries([400, 401, 403, 404, 409, 428, 429, 500].map((s) => [`E${s}`, failure(s)]));
  return {
    openapi: '3.1.0',
    jsonSchemaDialect: 'https://json-schema.org/draft/2020-12/schema',
    info: {
      title: 'Network Connections Service (linden)',
      version,
      description: 'Public interface /api/public/v1.',
    },
    servers: [{ url: '/' }],
    paths,
    webhooks: {
      connectionEvent: {
        post: {
          summary: `deliveries of ${WEBHOOK_EVENTS.join(', ')}; signed in Linden-Signature`,
          responses: { '204': { description: 'received' } },
        },
      },
    },
    components: {
      schemas: { ...SCHEMAS, ...BODIES },
      responses,
      parameters: {
        Tenant: { name: 'x-service-tenant', in: 'header', required: true, schema: { type: 'string', minLength: 1 } },
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
          schema: { type: 'string', examples: ['2026-07-01'] },
        },
      },
      securitySchemes: {
        oauth2: {
          type: 'oauth2',
          flows: {
            clientCredentials: {
              tokenUrl: TOKEN_PATH,
              scopes: {
                'ncs.catalog': 'catalog',
                'ncs.connections': 'connections',
                'ncs.webhooks': 'webhooks',
                'ncs.audit': 'audit log',
              },
            },
          },
        },
      },
    },
  };
}
