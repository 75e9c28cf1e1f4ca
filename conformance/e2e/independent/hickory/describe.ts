// The self-description and the OpenAPI 3.1 document, both built from the route table (routes.ts) so they
// list exactly what the server answers.
import { type Route, routesOf } from './routes.ts';
import { data, SCHEMAS } from './schemas.ts';
import type { State } from './state.ts';
import { type Ctx, VERSIONS } from './util.ts';
import type { Schema } from './validate.ts';
import { EVENT_NAMES } from './webhooks.ts';

export function describe(state: State, ctx: Ctx): Record<string, unknown> {
  return {
    service: 'hickory',
    surface: 'public',
    version: ctx.version,
    versions: VERSIONS,
    authentication: {
      type: 'oauth2',
      flows: ['client_credentials'],
      tokenEndpoint: `${ctx.origin}/oauth2/token`,
      metadata: `${ctx.origin}/.well-known/oauth-authorization-server`,
      tokenLifetimeSeconds: state.options.tokenTtlS,
      tenantHeader: 'x-service-tenant',
    },
    idempotency: {
      header: 'Idempotency-Key',
      pattern: '^[A-Za-z0-9._:-]{8,128}$',
      validitySeconds: 86400,
      scope: 'access, tenant and key',
    },
    rateLimit: {
      headers: ['X-RateLimit-Limit', 'X-RateLimit-Remaining', 'Retry-After', 'RateLimit-Policy', 'RateLimit'],
    },
    webhooks: {
      events: EVENT_NAMES,
      signatureHeader: 'Hickory-Signature',
      timestampHeader: 'Hickory-Timestamp',
      retries: [1, 5],
    },
    audit: { algorithm: 'Ed25519', publicKey: state.auditKey.jwk },
    openapi: {
      json: '/api/public/v1/openapi.json',
      files: VERSIONS.flatMap((v) => [`/api/public/v1/openapi/${v}.json`, `/api/public/v1/openapi/${v}.yaml`]),
    },
    routes: routesOf(ctx.version).map((r) => ({ method: r.method, path: r.path, purpose: r.purpose, auth: r.auth })),
  };
}

function bodySchema(schema: Schema, operationId: string): Record<string, unknown> {
  const properties: Record<string, unknown> = {};
  const required: string[] = [];
  for (const [field, rule] of Object.entries(schema)) {
    if (rule.kind === 'string') {
      properties[field] = {
        type: 'string',
        minLength: rule.min,
        maxLength: rule.max,
        ...(rule.oneOf ? { enum: rule.oneOf } : {}),
      };
      if (!rule.optional) required.push(field);
    } else {
      const item: Record<string, unknown> = { type: 'string', minLength: rule.min, maxLength: rule.max };
      if (operationId === 'createWebhook') item.enum = EVENT_NAMES;
      properties[field] = { type: 'array', minItems: rule.minItems, maxItems: rule.maxItems, items: item };
      required.push(field);
    }
  }
  if (operationId === 'createWebhook')
    properties.url = { type: 'string', format: 'uri', minLength: 8, maxLength: 2048 };
  return { type: 'object', properties, required, additionalProperties: false };
}

const header = (name: string, required: boolean, schema: Record<string, unknown>) => ({
  name,
  in: 'header',
  required,
  schema,
});

function operation(r: Route): Record<string, unknown> {
  const parameters: unknown[] = [header('Service-Version', false, { type: 'string', enum: VERSIONS })];
  for (const m of r.path.matchAll(/\{(\w+)\}/g))
    parameters.push({ name: m[1], in: 'path', required: true, schema: { type: 'string' } });
  if (r.auth) parameters.push(header('x-service-tenant', true, { type: 'string' }));
  if (r.method !== 'GET')
    parameters.push(header('Idempotency-Key', r.key === true, { type: 'string', pattern: '^[A-Za-z0-9._:-]{8,128}$' }));
  const query = (name: string, schema: Record<string, unknown>) =>
    parameters.push({ name, in: 'query', required: false, schema });
  if (r.operationId === 'listProviders') query('category', { type: 'string' });
  if (r.operationId === 'listConnectors')
    for (const q of ['capability', 'providerId', 'category']) query(q, { type: 'string' });
  if (r.operationId === 'stream') {
    query('cursor', { type: 'integer', minimum: 0 });
    parameters.push(header('Last-Event-ID', false, { type: 'string' }));
  }
  if (r.operationId === 'auditLog') {
    query('page[size]', { type: 'integer', minimum: 1, maximum: 500, default: 50 });
    query('limit', { type: 'integer', minimum: 1, maximum: 500 });
    query('page[cursor]', { type: 'string' });
  }
  const responses: Record<string, unknown> = {};
  const int = { schema: { type: 'integer', minimum: 0 } };
  const text = { schema: { type: 'string' } };
  const limits = r.auth
    ? { 'X-RateLimit-Limit': int, 'X-RateLimit-Remaining': int, 'RateLimit-Policy': text, RateLimit: text }
    : {};
  const headers = { ...limits, 'X-Request-Id': text };
  if (r.operationId === 'stream') {
    responses['200'] = {
      description: 'Server-Sent Events: id, event: message, data JSON',
      content: { 'text/event-stream': { schema: { type: 'string' } } },
    };
  } else if (r.operationId === 'openapi') {
    responses['200'] = {
      description: 'this document',
      content: { 'application/json': { schema: { type: 'object' } } },
    };
  } else {
    responses['200'] = {
      description: 'success',
      headers,
      content: { 'application/json': { schema: data(r.operationId) } },
    };
  }
  for (const s of r.auth ? ['400', '401', '403', '404', '409', '428', '429', '500'] : ['400', '500']) {
    const extra = s === '429' ? { 'Retry-After': { ...int, description: 'seconds to wait' } } : {};
    responses[s] = {
      description: 'failure',
      headers: { ...headers, ...extra },
      content: { 'application/json': { schema: { $ref: '#/components/schemas/Failure' } } },
    };
  }
  return {
    operationId: r.operationId,
    summary: r.purpose,
    security: r.auth ? [{ oauth2: [] }] : [],
    parameters,
    ...(r.body
      ? {
          requestBody: {
            required: true,
            content: { 'application/json': { schema: bodySchema(r.body, r.operationId) } },
          },
        }
      : {}),
    responses,
  };
}

export function openapiDocument(origin: string, version: string): Record<string, unknown> {
  const paths: Record<string, Record<string, unknown>> = {};
  for (const r of routesOf(version)) {
    paths[r.path] ??= {};
    (paths[r.path] as Record<string, unknown>)[r.method.toLowerCase()] = operation(r);
  }
  return {
    openapi: '3.1.0',
    info: { title: 'Network Connections Service (hickory)', version },
    servers: [{ url: origin }],
    paths,
    components: {
      schemas: SCHEMAS,
      securitySchemes: {
        oauth2: { type: 'oauth2', flows: { clientCredentials: { tokenUrl: `${origin}/oauth2/token`, scopes: {} } } },
      },
    },
  };
}
