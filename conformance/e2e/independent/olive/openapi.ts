// The OpenAPI 3.1 document, built from the route table plus a hand-written table of what each operation
// takes and answers. Paths are relative to servers[0].url (/api/public/v1), as a Go team's spec is.

import { KEY_PATTERN } from './idempotency.ts';
import type { Route } from './mux.ts';
import { BODIES, SCHEMAS } from './openapi-schemas.ts';
import { VERSION, VERSIONS } from './util.ts';

const BASE = '/api/public/v1';
interface Doc {
  id: string;
  data?: string;
  body?: string;
  query?: [string, unknown, string][];
  headers?: [string, unknown, string][];
  media?: string;
}

const intQ = (min: number, max?: number) => ({ type: 'integer', minimum: min, ...(max ? { maximum: max } : {}) });
const DOCS: Record<string, Doc> = {
  'GET /api/public/v1': { id: 'describeService', data: 'SelfDescription' },
  'GET /api/public/v1/openapi.json': { id: 'getOpenAPI', media: 'application/json' },
  'GET /api/public/v1/openapi/{file}': { id: 'downloadOpenAPI', media: 'application/yaml' },
  'GET /api/public/v1/providers': {
    id: 'listProviders',
    data: 'ProviderList',
    query: [['category', { type: 'string' }, 'restricts to one category']],
  },
  'GET /api/public/v1/connectors': {
    id: 'listConnectors',
    data: 'ConnectorList',
    query: [
      ['capability', { type: 'string' }, 'connectors offering this capability'],
      ['providerId', { type: 'string' }, 'connectors of this provider'],
      ['category', { type: 'string' }, 'connectors of this category'],
    ],
  },
  'GET /api/public/v1/capabilities': { id: 'listCapabilities', data: 'CapabilityList' },
  'POST /api/public/v1/capabilities': { id: 'checkCapability', data: 'CheckResult', body: 'CheckRequest' },
  'GET /api/public/v1/connections': { id: 'listConnections', data: 'ConnectionList' },
  'POST /api/public/v1/connections': { id: 'createConnection', data: 'Connection', body: 'CreateConnection' },
  'POST /api/public/v1/idempotency-keys': {
    id: 'createIdempotencyKey',
    data: 'IdempotencyKeyResult',
    body: 'CreateKey',
  },
  'GET /api/public/v1/stream': {
    id: 'streamStatus',
    media: 'text/event-stream',
    query: [['cursor', intQ(0), 'last number read']],
    headers: [['Last-Event-ID', { type: 'string', pattern: '^[0-9]+$' }, 'last number read']],
  },
  'POST /api/public/v1/webhooks': { id: 'createWebhook', data: 'Webhook', body: 'CreateWebhook' },
  'GET /api/public/v1/webhooks': { id: 'listWebhooks', data: 'WebhookList' },
  'DELETE /api/public/v1/webhooks/{id}': { id: 'deleteWebhook', data: 'Webhook' },
  'GET /api/public/v1/webhooks/{id}/deliveries': { id: 'listWebhookDeliveries', data: 'DeliveryList' },
  'POST /api/public/v1/webhooks/{id}/deliveries/{deliveryId}/retry': { id: 'retryWebhookDelivery', data: 'Delivery' },
  'GET /api/public/v1/audit-log': {
    id: 'readAuditLog',
    data: 'AuditPage',
    query: [
      ['limit', intQ(1, 500), 'entries per page (default 50)'],
      ['after', intQ(0), 'last seq read (oldest first)'],
      ['before', intQ(1), 'last seq read (newest first)'],
      ['cursor', { type: 'string' }, 'opaque cursor of data.nextCursor, where the log pages by cursor'],
    ],
  },
  'GET /api/public/v1/info': { id: 'getInfo', data: 'Info' },
};

const num = { type: 'integer', minimum: 0 };
const rateHeaders = {
  'X-RateLimit-Limit': { description: 'burst of the token bucket', schema: num },
  'X-RateLimit-Remaining': { description: 'calls left', schema: num },
};
const failure = (description: string, extra: Record<string, unknown> = {}) => ({
  description,
  headers: { ...rateHeaders, ...extra },
  content: { 'application/json': { schema: { $ref: '#/components/schemas/Failure' } } },
});

function operation(route: Route, doc: Doc): Record<string, unknown> {
  const params: unknown[] = [
    { name: 'Service-Version', in: 'header', required: false, schema: { type: 'string', enum: VERSIONS } },
  ];
  if (route.auth)
    params.push({ name: 'x-service-tenant', in: 'header', required: true, schema: { type: 'string', minLength: 1 } });
  if (route.key !== 'none')
    params.push({
      name: 'Idempotency-Key',
      in: 'header',
      required: route.key === 'required',
      schema: { type: 'string', pattern: KEY_PATTERN.source },
    });
  for (const name of route.pattern.match(/\{(\w+)\}/g) ?? [])
    params.push({ name: name.slice(1, -1), in: 'path', required: true, schema: { type: 'string' } });
  for (const [name, schema, description] of doc.query ?? [])
    params.push({ name, in: 'query', required: false, description, schema });
  for (const [name, schema, description] of doc.headers ?? [])
    params.push({ name, in: 'header', required: false, description, schema });
  const okContent = doc.data
    ? {
        'application/json': {
          schema: {
            type: 'object',
            required: ['ok', 'data', 'meta'],
            properties: {
              ok: { const: true },
              data: { $ref: `#/components/schemas/${doc.data}` },
              meta: { $ref: '#/components/schemas/Meta' },
            },
          },
        },
      }
    : doc.media === 'text/event-stream'
      ? { 'text/event-stream': { schema: { type: 'string' } } }
      : {
          [doc.media ?? 'application/json']: {
            schema: doc.media === 'application/json' ? { type: 'object' } : { type: 'string' },
          },
        };
  const responses: Record<string, unknown> = {
    '200': { description: 'success', ...(route.auth ? { headers: rateHeaders } : {}), content: okContent },
    '400': failure('invalid_request'),
    '500': failure('internal'),
  };
  if (route.auth) {
    Object.assign(responses, {
      '401': failure('unauthorized'),
      '403': failure('forbidden'),
      '404': failure('not_found'),
      '409': failure('capability_denied or idempotency_conflict'),
      '429': failure('rate_limited', {
        'Retry-After': { description: 'seconds to wait', schema: { type: 'integer', minimum: 1 } },
      }),
    });
    if (route.key === 'required') responses['428'] = failure('idempotency_required');
  } else if (route.pattern !== BASE) responses['404'] = failure('not_found');
  const op: Record<string, unknown> = { operationId: doc.id, summary: route.purpose, parameters: params, responses };
  op.security = route.auth ? [{ bearer: [] }, { oauth2: ['connections'] }] : [];
  if (doc.body)
    op.requestBody = {
      required: true,
      content: { 'application/json': { schema: { $ref: `#/components/schemas/${doc.body}` } } },
    };
  return op;
}

export function buildOpenApi(routes: Route[], tokenUrl: string, nestedWebhook = false): Record<string, unknown> {
  const paths: Record<string, Record<string, unknown>> = {};
  for (const route of routes) {
    const found = DOCS[`${route.method} ${route.pattern}`];
    const doc = found?.id === 'createWebhook' && nestedWebhook ? { ...found, data: 'WebhookCreated' } : found;
    if (!doc) continue;
    const rel = route.pattern.slice(BASE.length) || '/';
    paths[rel] = { ...paths[rel], [route.method.toLowerCase()]: operation(route, doc) };
  }
  return {
    openapi: '3.1.0',
    info: {
      title: 'Network Connections Service',
      version: VERSION,
      description: 'olive: written from the interface contract.',
    },
    servers: [{ url: BASE }],
    paths,
    components: {
      schemas: { ...SCHEMAS, ...BODIES },
      securitySchemes: {
        bearer: { type: 'http', scheme: 'bearer', bearerFormat: 'opaque (v4.local.…)' },
        oauth2: {
          type: 'oauth2',
          flows: { clientCredentials: { tokenUrl, scopes: { connections: 'the interface' } } },
        },
      },
    },
  };
}

/** JSON to block YAML; every string is double-quoted (JSON string syntax is YAML's), so nothing is misread. */
export function toYaml(value: unknown, indent = ''): string {
  if (Array.isArray(value)) {
    if (value.length === 0) return '[]';
    return value.map((v) => `\n${indent}- ${toYaml(v, `${indent}  `).replace(/^\n\s*/, '')}`).join('');
  }
  if (value !== null && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>);
    if (entries.length === 0) return '{}';
    return entries.map(([k, v]) => `\n${indent}${JSON.stringify(k)}: ${toYaml(v, `${indent}  `)}`).join('');
  }
  return JSON.stringify(value);
}
