// openapi.json (OpenAPI 3.1) built from the route table, and the self-description. Servers name the base
// path, so paths are relative (/providers), as an edge router mounted under /api/public/v1 sees them.
import { TOKEN_PATH } from './auth.ts';
import { KEY_TTL_MS } from './idempotency.ts';
import { CODES, SCHEMAS } from './openapi-schemas.ts';
import { BASE, ROUTES, type Route } from './routes.ts';
import type { State } from './state.ts';
import { CURRENT_VERSION } from './util.ts';
import { WEBHOOK_EVENTS } from './webhooks.ts';

const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });
const RESULT: Record<string, string> = {
  describe: 'SelfDescription',
  info: 'Info',
  listProviders: 'ProviderList',
  listConnectors: 'ConnectorList',
  listCapabilities: 'CapabilityList',
  checkCapability: 'DecisionResult',
  listConnections: 'ConnectionList',
  createConnection: 'Connection',
  issueIdempotencyKey: 'KeyResult',
  createWebhook: 'WebhookCreated',
  listWebhooks: 'WebhookList',
  getWebhook: 'Webhook',
  deleteWebhook: 'WebhookDeleted',
  listDeliveries: 'DeliveryLog',
  retriggerDelivery: 'Retriggered',
  auditLog: 'AuditLog',
};
const BODY: Record<string, string> = {
  checkCapability: 'CheckBody',
  createConnection: 'CreateBody',
  issueIdempotencyKey: 'KeyBody',
  createWebhook: 'WebhookBody',
};
const QUERY: Record<string, [string, unknown, boolean][]> = {
  listProviders: [['category', { type: 'string' }, false]],
  listConnectors: [
    ['capability', { type: 'string' }, false],
    ['providerId', { type: 'string' }, false],
    ['category', { type: 'string' }, false],
  ],
  stream: [['cursor', { type: 'integer', minimum: 0 }, false]],
  listDeliveries: [['webhookId', { type: 'string' }, true]],
  auditLog: [
    ['limit', { type: 'integer', minimum: 1, maximum: 500, default: 50 }, false], // maximum set per deployment
    ['after', { type: 'integer', minimum: 0, default: 0 }, false],
  ],
};

const header = (schema: unknown, description: string) => ({ schema, description });
const RATE_HEADERS = {
  'X-RateLimit-Limit': header({ type: 'integer' }, 'calls allowed in the current window'),
  'X-RateLimit-Remaining': header({ type: 'integer' }, 'calls left in the current window'),
  'X-RateLimit-Reset': header({ type: 'integer' }, 'unix seconds when the window ends'),
  'X-Request-Id': header({ type: 'string' }, 'equals meta.requestId'),
};
const failure = (description: string, extra: Record<string, unknown> = {}) => ({
  description,
  headers: { ...RATE_HEADERS, ...extra },
  content: { 'application/json': { schema: ref('Failure') } },
});

function operation(r: Route, auditMax: number): Record<string, unknown> {
  const parameters: unknown[] = [];
  for (const [name, schema, required] of QUERY[r.id] ?? []) {
    const s =
      r.id === 'auditLog' && name === 'limit'
        ? { ...(schema as object), maximum: auditMax, default: Math.min(50, auditMax) }
        : schema;
    parameters.push({ name, in: 'query', required, schema: s });
  }
  for (const m of r.path.matchAll(/\{(\w+)\}/g))
    parameters.push({ name: m[1], in: 'path', required: true, schema: { type: 'string' } });
  if (r.auth) parameters.push({ name: 'x-service-tenant', in: 'header', required: true, schema: { type: 'string' } });
  if (r.method !== 'GET')
    parameters.push({
      name: 'Idempotency-Key',
      in: 'header',
      required: r.key,
      schema: { type: 'string', pattern: '^[A-Za-z0-9._:-]{8,128}$', minLength: 8, maxLength: 128 },
    });
  if (r.id === 'stream')
    parameters.push({ name: 'Last-Event-ID', in: 'header', required: false, schema: { type: 'string' } });
  parameters.push({
    name: 'Service-Version',
    in: 'header',
    required: false,
    schema: { type: 'string', examples: [CURRENT_VERSION] },
  });
  let content: Record<string, unknown>;
  if (r.id === 'stream') content = { 'text/event-stream': { schema: { type: 'string' } } };
  else if (r.id === 'openapiJson') content = { 'application/json': { schema: { type: 'object' } } };
  else if (r.id === 'openapiYaml') content = { 'application/yaml': { schema: { type: 'string' } } };
  else
    content = {
      'application/json': {
        schema: {
          type: 'object',
          properties: { ok: { const: true }, data: ref(RESULT[r.id] ?? 'Info'), meta: ref('Meta') },
          required: ['ok', 'data', 'meta'],
        },
      },
    };
  const responses: Record<string, unknown> = {
    '200': { description: 'success', headers: RATE_HEADERS, content },
    '400': failure('invalid_request'),
    '404': failure('not_found'),
    '429': failure('rate_limited', { 'Retry-After': header({ type: 'integer', minimum: 1 }, 'wait in seconds') }),
    '500': failure('internal'),
  };
  if (r.auth) Object.assign(responses, { '401': failure('unauthorized'), '403': failure('forbidden') });
  if (r.method !== 'GET') responses['409'] = failure('capability_denied or idempotency_conflict');
  if (r.key) responses['428'] = failure('idempotency_required');
  const op: Record<string, unknown> = {
    operationId: r.id,
    summary: r.purpose,
    security: r.auth ? [{ bearer: [] }, { oauth: [] }] : [],
    parameters,
    responses,
  };
  const body = BODY[r.id];
  if (body) op.requestBody = { required: true, content: { 'application/json': { schema: ref(body) } } };
  return op;
}

export function openapiDocument(state: State): Record<string, unknown> {
  const paths: Record<string, Record<string, unknown>> = {};
  for (const r of ROUTES) {
    const p = r.path === '' ? '/' : r.path;
    paths[p] = { ...paths[p], [r.method.toLowerCase()]: operation(r, state.opts.auditMaxLimit) };
  }
  return {
    openapi: '3.1.0',
    info: { title: 'Network Connections Service (hornbeam)', version: CURRENT_VERSION },
    servers: [{ url: BASE }],
    paths,
    components: {
      schemas: SCHEMAS,
      securitySchemes: {
        bearer: { type: 'http', scheme: 'bearer' },
        oauth: { type: 'oauth2', flows: { clientCredentials: { tokenUrl: TOKEN_PATH, scopes: {} } } },
      },
    },
  };
}

export function selfDescription(state: State, origin: string): Record<string, unknown> {
  return {
    service: 'hornbeam',
    surface: 'public',
    version: CURRENT_VERSION,
    authentication: {
      type: 'oauth2',
      flows: ['client_credentials'],
      tokenEndpoint: `${origin}${TOKEN_PATH}`,
      metadata: `${origin}/.well-known/oauth-authorization-server`,
      tokenRequestContentTypes: ['application/x-www-form-urlencoded', 'application/json'],
      tenantHeader: 'x-service-tenant',
    },
    idempotency: {
      header: 'Idempotency-Key',
      pattern: '^[A-Za-z0-9._:-]{8,128}$',
      minLength: 8,
      maxLength: 128,
      requiredOn: ROUTES.filter((r) => r.key).map((r) => `${r.method} ${BASE}${r.path}`),
      ttlSeconds: KEY_TTL_MS / 1000,
    },
    rateLimit: { limit: state.opts.rateLimit, windowSeconds: state.opts.windowMs / 1000 },
    webhooks: { events: WEBHOOK_EVENTS, signatureHeader: 'Webhook-Signature', deliveryIdHeader: 'Webhook-Id' },
    errors: CODES,
    routes: ROUTES.map((r) => ({ method: r.method, path: BASE + r.path, purpose: r.purpose, auth: r.auth })),
  };
}
