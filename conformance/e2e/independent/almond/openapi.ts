// The OpenAPI 3.1 document, generated from the route table: GET /openapi.json for the requested version, and
// the downloadable files /openapi/{version}.json and /openapi/{version}.yaml.
import { TOKEN_PATH } from './auth.ts';
import { SCHEMAS } from './openapi-schemas.ts';
import type { Route } from './routes.ts';
import type { Reply, RoutingContext } from './types.ts';
import { API, notFound, VERSIONS } from './util.ts';
import { toYaml } from './yaml.ts';

const BODIES: Record<string, string> = {
  'POST /capabilities': 'CapabilityCheck',
  'POST /connections': 'ConnectionCreate',
  'POST /idempotency-keys': 'IdempotencyKeyCreate',
  'POST /webhooks': 'WebhookCreate',
};
const QUERIES: Record<string, [string, Record<string, unknown>][]> = {
  'GET /providers': [['category', { type: 'string' }]],
  'GET /connectors': [
    ['capability', { type: 'string' }],
    ['providerId', { type: 'string' }],
    ['category', { type: 'string' }],
  ],
  'GET /stream': [['cursor', { type: 'integer', minimum: 0 }]],
  'GET /audit-log': [
    ['limit', { type: 'integer', minimum: 1, maximum: 500, default: 50 }],
    ['cursor', { type: 'integer', minimum: 0 }],
  ],
};

const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });
const list = (field: string, item: string, extra: Record<string, unknown> = {}) => ({
  type: 'object',
  properties: { count: { type: 'integer' }, [field]: { type: 'array', items: ref(item) }, ...extra },
  required: ['count', field, ...Object.keys(extra)],
});
/** The payload schema of each operation's success (the interface's fields as required). */
const DATA: Record<string, Record<string, unknown>> = {
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
  'GET /providers': list('providers', 'Provider'),
  'GET /connectors': list('connectors', 'Connector'),
  'GET /capabilities': list('capabilities', 'Capability'),
  'POST /capabilities': {
    type: 'object',
    properties: { decision: ref('CapabilityDecision'), environment: ref('Environment') },
    required: ['decision', 'environment'],
  },
  'GET /connections': list('connections', 'Connection', { tenant: { type: 'string' } }),
  'POST /connections': ref('Connection'),
  'GET /connections/{connectionId}': ref('Connection'),
  'POST /idempotency-keys': ref('IdempotencyKeyResult'),
  'POST /webhooks': ref('Webhook'),
  'GET /webhooks/{webhookId}': ref('Webhook'),
  'GET /webhooks/{webhookId}/deliveries': list('deliveries', 'Delivery', { webhookId: { type: 'string' } }),
  'GET /webhooks/{webhookId}/deliveries/{deliveryId}': ref('Delivery'),
};
const envelope = (data: Record<string, unknown> = { type: 'object' }) => ({
  type: 'object',
  properties: { ok: { type: 'boolean', const: true }, data, meta: ref('Meta') },
  required: ['ok', 'data', 'meta'],
});
const header = (name: string, required: boolean, schema: Record<string, unknown>) => ({
  name,
  in: 'header',
  required,
  schema,
});
const integer = (description: string) => ({ description, schema: { type: 'integer', minimum: 0 } });
const LIMIT_HEADERS = {
  'X-RateLimit-Limit': integer('limit for the current window'),
  'X-RateLimit-Remaining': integer('calls left in the window'),
  'X-Request-Id': {
    description: 'identifier of this call (meta.requestId)',
    schema: { type: 'string', format: 'uuid' },
  },
};
const failure = (description: string, counted = false) => ({
  description,
  ...(counted ? { headers: LIMIT_HEADERS } : {}),
  content: { 'application/json': { schema: { $ref: '#/components/schemas/Failure' } } },
});

function operation(r: Route): Record<string, unknown> {
  const id = `${r.method} ${r.path}`;
  const params: unknown[] = [header('Service-Version', false, { type: 'string', enum: [...VERSIONS] })];
  for (const [, name] of r.path.matchAll(/\{(\w+)\}/g))
    params.push({ name, in: 'path', required: true, schema: { type: 'string' } });
  for (const [name, schema] of QUERIES[id] ?? []) params.push({ name, in: 'query', required: false, schema });
  if (r.path === '/stream') params.push(header('Last-Event-ID', false, { type: 'string' }));
  if (r.auth) params.push(header('x-service-tenant', true, { type: 'string' }));
  if (r.key !== 'none')
    params.push(
      header('Idempotency-Key', r.key === 'required', { type: 'string', pattern: '^[A-Za-z0-9._:-]{8,128}$' }),
    );
  const body = BODIES[id];
  const ok =
    r.path === '/stream'
      ? { description: 'Server-Sent Events', content: { 'text/event-stream': { schema: { type: 'string' } } } }
      : {
          description: 'Success envelope',
          ...(r.auth ? { headers: LIMIT_HEADERS } : {}),
          content: { 'application/json': { schema: envelope(DATA[id]) } },
        };
  const responses: Record<string, unknown> = {
    '200': ok,
    '400': failure('invalid_request'),
    '500': failure('internal'),
  };
  if (r.auth)
    Object.assign(responses, {
      '401': failure('unauthorized'),
      '403': failure('forbidden'),
      '404': failure('not_found'),
      '409': failure('capability_denied or idempotency_conflict'),
      '429': {
        ...failure('rate_limited', true),
        headers: { ...LIMIT_HEADERS, 'Retry-After': integer('recommended wait in seconds') },
      },
    });
  if (r.key === 'required') responses['428'] = failure('idempotency_required');
  return {
    operationId: `${r.method.toLowerCase()}${r.path.replace(/[{}]/g, '').replace(/[/-](\w)/g, (_m, c: string) => c.toUpperCase()) || 'Root'}`,
    summary: r.purpose,
    ...(r.auth ? { security: [{ oauth2: [] }] } : { security: [] }),
    parameters: params,
    ...(body
      ? {
          requestBody: {
            required: true,
            content: { 'application/json': { schema: { $ref: `#/components/schemas/${body}` } } },
          },
        }
      : {}),
    responses,
  };
}

export function buildDocument(version: string, routes: readonly Route[]): Record<string, unknown> {
  const paths: Record<string, Record<string, unknown>> = {};
  for (const r of routes) {
    const path = r.path === '' ? '/' : r.path;
    paths[path] = { ...paths[path], [r.method.toLowerCase()]: operation(r) };
  }
  return {
    openapi: '3.1.0',
    info: { title: 'Network Connections Service', version, description: 'almond deployment (Vert.x style)' },
    servers: [{ url: API }],
    paths,
    components: {
      schemas: SCHEMAS,
      securitySchemes: {
        oauth2: { type: 'oauth2', flows: { clientCredentials: { tokenUrl: TOKEN_PATH, scopes: {} } } },
      },
    },
  };
}

let routeTable: readonly Route[] = [];
/** The route table the documents describe (set once by the router at start). */
export function describeRoutes(routes: readonly Route[]): void {
  routeTable = routes;
}

export function openapiDocument(ctx: RoutingContext): Reply | undefined {
  ctx.res.writeHead(200, { ...ctx.headers, 'content-type': 'application/json; charset=utf-8' });
  ctx.res.end(JSON.stringify(buildDocument(ctx.version, routeTable)));
  return undefined;
}

export function openapiFile(ctx: RoutingContext): Reply | undefined {
  const m = /^(\d{4}-\d{2}-\d{2})\.(json|yaml)$/.exec(ctx.params.file ?? '');
  if (!m?.[1] || !VERSIONS.includes(m[1])) throw notFound(`No OpenAPI file ${ctx.params.file}`);
  const doc = buildDocument(m[1], routeTable);
  const yaml = m[2] === 'yaml';
  ctx.res.writeHead(200, {
    ...ctx.headers,
    'content-type': yaml ? 'application/yaml; charset=utf-8' : 'application/json; charset=utf-8',
    'content-disposition': `attachment; filename="network-connections-${m[1]}.${m[2]}"`,
  });
  ctx.res.end(yaml ? toYaml(doc) : JSON.stringify(doc, null, 2));
  return undefined;
}
