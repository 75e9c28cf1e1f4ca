// The OpenAPI 3.1 document, built from the route table so it lists exactly what larch serves.

import { schemas } from './openapi-schemas.ts';
import { BASE, ENVIRONMENTS, EVENT_NAMES, SIGNATURE_HEADER, TOKEN_PATH, VERSION } from './options.ts';
import { ROUTES } from './routes.ts';

const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });
const str = (min: number, max: number) => ({ type: 'string', minLength: min, maxLength: max });

const BODIES: Record<string, unknown> = {
  'POST /capabilities': {
    type: 'object',
    required: ['connectorId', 'capability'],
    properties: {
      connectorId: str(2, 120),
      capability: str(2, 120),
      environment: { type: 'string', enum: ENVIRONMENTS, default: 'sandbox' },
    },
  },
  'POST /connections': {
    type: 'object',
    required: ['connectorId', 'environment', 'scopeLabel', 'capabilities'],
    properties: {
      connectorId: str(2, 120),
      environment: { type: 'string', enum: ENVIRONMENTS },
      scopeLabel: str(2, 120),
      capabilities: { type: 'array', minItems: 1, maxItems: 24, items: str(2, 120) },
    },
  },
  'POST /idempotency-keys': { type: 'object', required: ['operation'], properties: { operation: str(2, 80) } },
  'POST /webhooks': {
    type: 'object',
    required: ['url', 'events'],
    properties: {
      url: { type: 'string', format: 'uri', maxLength: 2048 },
      events: { type: 'array', minItems: 1, maxItems: 20, items: { type: 'string', enum: EVENT_NAMES } },
    },
  },
};

const DATA: Record<string, string> = {
  'GET ': 'SelfDescription',
  'GET /providers': 'ProviderList',
  'GET /connectors': 'ConnectorList',
  'GET /capabilities': 'CapabilityList',
  'POST /capabilities': 'DecisionResult',
  'GET /connections': 'ConnectionList',
  'POST /connections': 'Connection',
  'POST /idempotency-keys': 'IdempotencyKeyResult',
  'POST /webhooks': 'WebhookRegistration',
  'GET /audit-log': 'AuditPage',
  'GET /info': 'Info',
  'GET /webhooks': 'WebhookList',
  'DELETE /webhooks/{webhookId}': 'WebhookRemoval',
  'GET /webhook-deliveries': 'DeliveryPage',
  'GET /webhook-deliveries/{deliveryId}': 'Delivery',
  'POST /webhook-deliveries/{deliveryId}/redeliver': 'Delivery',
};

const QUERY: Record<string, { name: string; schema: unknown }[]> = {
  'GET /providers': [{ name: 'category', schema: { type: 'string' } }],
  'GET /connectors': ['capability', 'providerId', 'category'].map((name) => ({ name, schema: { type: 'string' } })),
  'GET /stream': [{ name: 'cursor', schema: { type: 'integer', minimum: 0 } }],
  'GET /audit-log': ['page', 'size', 'limit'].map((name) => ({
    name,
    schema: { type: 'integer', minimum: name === 'page' ? 0 : 1, maximum: name === 'page' ? 1_000_000 : 500 },
  })),
  'GET /webhook-deliveries': [
    { name: 'webhookId', schema: { type: 'string', pattern: '^[0-9]{1,20}$' } },
    ...['page', 'size'].map((name) => ({
      name,
      schema: { type: 'integer', minimum: name === 'page' ? 0 : 1, maximum: name === 'page' ? 1_000_000 : 500 },
    })),
  ],
};

const RATE_HEADERS = {
  'X-RateLimit-Limit': { $ref: '#/components/headers/X-RateLimit-Limit' },
  'X-RateLimit-Remaining': { $ref: '#/components/headers/X-RateLimit-Remaining' },
  'X-RateLimit-Reset': { $ref: '#/components/headers/X-RateLimit-Reset' },
};

const HEADERS = {
  'X-RateLimit-Limit': {
    description: 'calls allowed in the current fixed window',
    schema: { type: 'integer', minimum: 1 },
  },
  'X-RateLimit-Remaining': { description: 'calls left in the current window', schema: { type: 'integer', minimum: 0 } },
  'X-RateLimit-Reset': { description: 'end of the current window, Unix seconds', schema: { type: 'integer' } },
  'Retry-After': { description: 'recommended wait in seconds', schema: { type: 'integer', minimum: 1 } },
};

const ERRORS = {
  '400': 'invalid_request',
  '401': 'unauthorized',
  '403': 'forbidden',
  '404': 'not_found',
  '409': 'idempotency_conflict or capability_denied',
  '428': 'idempotency_required',
  '429': 'rate_limited',
  '500': 'internal',
};

function operation(r: (typeof ROUTES)[number]): Record<string, unknown> {
  const id = `${r.method} ${r.path}`;
  const params: unknown[] = (QUERY[id] ?? []).map((q) => ({
    name: q.name,
    in: 'query',
    required: false,
    schema: q.schema,
  }));
  for (const m of r.path.matchAll(/\{(\w+)\}/g))
    params.push({ name: m[1], in: 'path', required: true, schema: { type: 'string', pattern: '^[0-9]{1,20}$' } });
  if (r.key !== 'none')
    params.push({
      name: 'Idempotency-Key',
      in: 'header',
      required: r.key === 'required',
      schema: { type: 'string', pattern: '^[A-Za-z0-9._:-]{8,128}$' },
    });
  if (r.path === '/stream')
    params.push({ name: 'Last-Event-ID', in: 'header', required: false, schema: { type: 'string' } });
  params.push({
    name: 'Service-Version',
    in: 'header',
    required: false,
    schema: { type: 'string', enum: ['2026-07-01', '2026-06-12'] },
  });
  if (r.auth) params.push({ name: 'x-service-tenant', in: 'header', required: true, schema: { type: 'string' } });
  const responses: Record<string, unknown> = {};
  if (r.path === '/stream')
    responses['200'] = {
      description: 'Server-Sent Events: id = sequence, event = kind, data = JSON',
      content: { 'text/event-stream': { schema: { type: 'string' } } },
    };
  else if (r.path === '/openapi.json')
    responses['200'] = {
      description: 'this document',
      content: { 'application/json': { schema: { type: 'object' } } },
    };
  else {
    responses['200'] = {
      description: r.purpose,
      content: {
        'application/json': {
          schema: {
            type: 'object',
            required: ['ok', 'data', 'meta'],
            properties: { ok: { const: true }, data: ref(DATA[id] ?? 'Object'), meta: ref('Meta') },
          },
        },
      },
    };
  }
  const codes = r.auth ? Object.keys(ERRORS) : ['400', '500'];
  for (const c of codes)
    responses[c] = {
      description: ERRORS[c as keyof typeof ERRORS],
      content: { 'application/json': { schema: ref('Failure') } },
    };
  if (r.auth) {
    // Every call counted by the limiter carries the window's headers; a 429 adds Retry-After.
    for (const c of ['200', '400', '403', '404', '409', '428', '429']) {
      const res = responses[c] as Record<string, unknown> | undefined;
      if (res)
        res.headers =
          c === '429' ? { ...RATE_HEADERS, 'Retry-After': { $ref: '#/components/headers/Retry-After' } } : RATE_HEADERS;
    }
  }
  const op: Record<string, unknown> = {
    operationId: `${r.method.toLowerCase()}${r.path.replace(/[{}]/g, '').replace(/(^|[/-])(\w)/g, (_m, _s, c: string) => c.toUpperCase()) || 'Root'}`,
    summary: r.purpose,
    tags: [r.extension ? 'larch extensions' : 'interface'],
    parameters: params,
    responses,
  };
  if (BODIES[id]) op.requestBody = { required: true, content: { 'application/json': { schema: BODIES[id] } } };
  if (r.auth) op.security = [{ oauth2: [] }];
  else op.security = [];
  return op;
}

/** The document of a version: 2026-06-12 had no delivery log (added in 2026-07-01). */
export function openApiDocument(
  origin: string,
  style: 'page' | 'hal' | 'impl',
  version: string = VERSION,
): Record<string, unknown> {
  const paths: Record<string, Record<string, unknown>> = {};
  for (const r of ROUTES) {
    if (version !== VERSION && r.path.startsWith('/webhook-deliveries')) continue;
    const p = `${BASE}${r.path}`;
    paths[p] = { ...(paths[p] ?? {}), [r.method.toLowerCase()]: operation(r) };
  }
  return {
    openapi: '3.1.0',
    info: {
      title: 'Network Connections Service (larch)',
      version,
      description: `Webhook deliveries are signed in the ${SIGNATURE_HEADER} header.`,
    },
    servers: [{ url: '/' }],
    paths,
    webhooks: {
      connectionEvent: {
        post: {
          summary: 'A webhook delivery',
          requestBody: { content: { 'application/json': { schema: ref('WebhookEvent') } } },
          responses: { '204': { description: 'received' } },
        },
      },
    },
    components: {
      schemas: schemas(style),
      headers: HEADERS,
      securitySchemes: {
        oauth2: { type: 'oauth2', flows: { clientCredentials: { tokenUrl: `${origin}${TOKEN_PATH}`, scopes: {} } } },
      },
    },
  };
}
