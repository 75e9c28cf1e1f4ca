// The OpenAPI 3.1 document (servers name the base path, paths are relative to it, as rswag writes it), its
// YAML download, and the self-description. Built from the route table, so both list what is served.
import { SCOPES } from './oauth.ts';
import { BODIES, DATA, SCHEMAS } from './openapi-schemas.ts';
import { ROUTES, type Route } from './routes.ts';
import { BASE, type Ctx, CURRENT_VERSION } from './util.ts';
import { KEY_PATTERN, WEBHOOK_EVENTS } from './validate.ts';
import { SIGNATURE_HEADER } from './webhooks.ts';

const ERROR_STATUSES = ['400', '401', '403', '404', '409', '428', '429', '500'];
const BODY_OF: Record<string, string> = {
  'POST /capabilities': 'CapabilityCheck',
  'POST /connections': 'ConnectionCreate',
  'POST /idempotency-keys': 'IdempotencyKeyRequest',
  'POST /webhooks': 'WebhookCreate',
};
const QUERY_OF: Record<string, object[]> = {
  'GET /providers': [{ name: 'category', in: 'query', required: false, schema: { type: 'string' } }],
  'GET /connectors': ['capability', 'providerId', 'category'].map((name) => ({
    name,
    in: 'query',
    required: false,
    schema: { type: 'string' },
  })),
  'GET /stream': [
    {
      name: 'cursor',
      in: 'query',
      required: false,
      description: 'last number read',
      schema: { type: 'integer', minimum: 0 },
    },
    {
      name: 'Last-Event-ID',
      in: 'header',
      required: false,
      description: 'last number read (wins over cursor)',
      schema: { type: 'string' },
    },
  ],
  'GET /audit-log': [
    { name: 'limit', in: 'query', required: false, schema: { type: 'integer', minimum: 1, maximum: 100, default: 25 } },
    { name: 'page', in: 'query', required: false, schema: { type: 'integer', minimum: 1, default: 1 } },
  ],
  'GET /webhook-deliveries': [{ name: 'webhookId', in: 'query', required: false, schema: { type: 'string' } }],
};

const rateHeaders = {
  'X-RateLimit-Limit': { $ref: '#/components/headers/X-RateLimit-Limit' },
  'X-RateLimit-Remaining': { $ref: '#/components/headers/X-RateLimit-Remaining' },
};

function operationId(r: Route): string {
  const name =
    r.path
      .replace(/\/:\w+/g, '')
      .replace(/^\//, '')
      .replace(/[/.-]/g, '_') || 'root';
  return `${r.method.toLowerCase()}_${name}`;
}

function operation(r: Route): object {
  const id = `${r.method} ${r.path}`;
  const params: object[] = [{ $ref: '#/components/parameters/ServiceVersion' }];
  if (r.auth) params.push({ $ref: '#/components/parameters/Tenant' });
  if (r.key === 'required') params.push({ $ref: '#/components/parameters/IdempotencyKey' });
  if (r.key === 'optional') params.push({ $ref: '#/components/parameters/IdempotencyKeyOptional' });
  for (const m of r.path.matchAll(/:(\w+)/g))
    params.push({ name: m[1], in: 'path', required: true, schema: { type: 'string' } });
  params.push(...(QUERY_OF[id] ?? []));
  let content: object;
  if (r.path === '/stream') content = { 'text/event-stream': { schema: { type: 'string' } } };
  else if (r.path.endsWith('.yaml')) content = { 'application/yaml': { schema: { type: 'string' } } };
  else if (r.path.startsWith('/openapi')) content = { 'application/json': { schema: { type: 'object' } } };
  else {
    const envelope = {
      type: 'object',
      required: ['ok', 'data', 'meta'],
      properties: {
        ok: { type: 'boolean', const: true },
        data: DATA[id] ?? { type: 'object' },
        meta: { $ref: '#/components/schemas/Meta' },
      },
    };
    content = { 'application/json': { schema: envelope } };
  }
  const responses: Record<string, object> = {
    '200': { description: 'success', ...(r.auth ? { headers: rateHeaders } : {}), content },
  };
  const errors = r.auth ? ERROR_STATUSES : r.path === '/stream' ? ['400', '500'] : ['500'];
  for (const s of errors)
    responses[s] = { $ref: s === '429' ? '#/components/responses/RateLimited' : '#/components/responses/Failure' };
  const op: Record<string, unknown> = {
    operationId: operationId(r),
    summary: r.purpose,
    parameters: params,
    responses,
  };
  if (r.auth) op.security = [{ doorkeeper: [] }];
  const body = BODY_OF[id];
  if (body)
    op.requestBody = {
      required: true,
      content: { 'application/json': { schema: { $ref: `#/components/schemas/${body}` } } },
    };
  return op;
}

export function openapiDocument(_ctx: Ctx): object {
  const paths: Record<string, Record<string, object>> = {};
  for (const r of ROUTES) {
    const p = r.path.replace(/:(\w+)/g, '{$1}') || '/';
    paths[p] = { ...paths[p], [r.method.toLowerCase()]: operation(r) };
  }
  const failure = { 'application/json': { schema: { $ref: '#/components/schemas/Failure' } } };
  return {
    openapi: '3.1.0',
    info: { title: 'Network Connections Service (cypress)', version: CURRENT_VERSION },
    servers: [{ url: BASE }],
    paths,
    components: {
      schemas: { ...SCHEMAS, ...BODIES },
      securitySchemes: {
        doorkeeper: {
          type: 'http',
          scheme: 'bearer',
          description: `OAuth 2 client credentials at /oauth/token (scopes: ${SCOPES.join(', ')})`,
        },
      },
      parameters: {
        ServiceVersion: {
          name: 'Service-Version',
          in: 'header',
          required: false,
          schema: { type: 'string', examples: [CURRENT_VERSION] },
        },
        Tenant: { name: 'x-service-tenant', in: 'header', required: true, schema: { type: 'string', minLength: 1 } },
        IdempotencyKey: {
          name: 'Idempotency-Key',
          in: 'header',
          required: true,
          schema: { type: 'string', pattern: KEY_PATTERN.source },
        },
        IdempotencyKeyOptional: {
          name: 'Idempotency-Key',
          in: 'header',
          required: false,
          schema: { type: 'string', pattern: KEY_PATTERN.source },
        },
      },
      headers: {
        'X-RateLimit-Limit': { schema: { type: 'integer', minimum: 0 } },
        'X-RateLimit-Remaining': { schema: { type: 'integer', minimum: 0 } },
        'Retry-After': { schema: { type: 'integer', minimum: 1 } },
      },
      responses: {
        Failure: { description: 'failure envelope', headers: rateHeaders, content: failure },
        RateLimited: {
          description: 'rate_limited',
          headers: { ...rateHeaders, 'Retry-After': { $ref: '#/components/headers/Retry-After' } },
          content: failure,
        },
      },
    },
  };
}

export function selfDescription(ctx: Ctx): object {
  return {
    service: 'network-connections',
    surface: 'public',
    version: ctx.version,
    authentication: {
      type: 'oauth2',
      grantTypes: ['client_credentials'],
      tokenEndpoint: `${ctx.origin}/oauth/token`,
      tokenEndpointAuthMethods: ['client_secret_basic', 'client_secret_post'],
      scopes: SCOPES,
      header: 'Authorization: Bearer <token>',
      tenantHeader: 'x-service-tenant',
    },
    idempotency: {
      header: 'Idempotency-Key',
      pattern: KEY_PATTERN.source,
      requiredOn: ROUTES.filter((r) => r.key === 'required').map((r) => `${r.method} ${BASE}${r.path}`),
      retentionSeconds: 86_400,
    },
    webhooks: {
      events: WEBHOOK_EVENTS,
      signatureHeader: SIGNATURE_HEADER,
      deliveryLog: `${BASE}/webhook-deliveries?webhookId={webhookId}`,
    },
    openapi: { json: `${BASE}/openapi/${CURRENT_VERSION}.json`, yaml: `${BASE}/openapi/${CURRENT_VERSION}.yaml` },
    routes: ROUTES.map((r) => ({
      method: r.method,
      path: `${BASE}${r.path}`.replace(/:(\w+)/g, '{$1}'),
      purpose: r.purpose,
      auth: r.auth,
    })),
  };
}

/** Block-style YAML; every key and string as a JSON string, which YAML reads as a double-quoted scalar. */
export function toYaml(value: unknown, indent = 0): string {
  const pad = ' '.repeat(indent);
  const inline = (v: unknown) =>
    v === null || typeof v !== 'object'
      ? JSON.stringify(v)
      : Array.isArray(v) && v.length === 0
        ? '[]'
        : Object.keys(v).length === 0
          ? '{}'
          : undefined;
  if (Array.isArray(value)) {
    return value
      .map((v) => (inline(v) !== undefined ? `${pad}- ${inline(v)}\n` : `${pad}-\n${toYaml(v, indent + 2)}`))
      .join('');
  }
  return Object.entries(value as Record<string, unknown>)
    .map(([k, v]) =>
      inline(v) !== undefined
        ? `${pad}${JSON.stringify(k)}: ${inline(v)}\n`
        : `${pad}${JSON.stringify(k)}:\n${toYaml(v, indent + 2)}`,
    )
    .join('');
}
