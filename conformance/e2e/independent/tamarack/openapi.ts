// The OpenAPI 3.1 document, built from the route table per interface version, served as JSON at
// /openapi.json (the version of the call) and as downloadable JSON and YAML files per version.
import type { Handler, Route } from './app.ts';
import { ApiError, PUBLISHED_VERSIONS } from './http-kit.ts';
import { BODIES, DATA, SCHEMAS } from './openapi-schemas.ts';
import { ROUTES } from './routes.ts';
import { toYaml } from './yaml.ts';

const OPERATION_IDS: Record<string, string> = {
  'GET ': 'describe',
  'GET /openapi.json': 'openApiDocument',
  'GET /openapi/{file}': 'openApiFile',
  'GET /info': 'info',
  'GET /providers': 'listProviders',
  'GET /connectors': 'listConnectors',
  'GET /capabilities': 'listCapabilities',
  'POST /capabilities': 'checkCapability',
  'GET /connections': 'listConnections',
  'POST /connections': 'createConnection',
  'GET /connections/{connectionId}': 'getConnection',
  'POST /idempotency-keys': 'createIdempotencyKey',
  'GET /stream': 'streamStatus',
  'POST /webhooks': 'createWebhook',
  'GET /webhooks': 'listWebhooks',
  'GET /webhooks/{webhookId}': 'getWebhook',
  'DELETE /webhooks/{webhookId}': 'deleteWebhook',
  'GET /webhooks/{webhookId}/outbox': 'listDeliveries',
  'POST /webhooks/{webhookId}/outbox/{deliveryId}/requeue': 'requeueDelivery',
  'GET /audit-log': 'auditLog',
};

const QUERY: Record<string, Record<string, unknown>> = {
  listProviders: { category: { type: 'string' } },
  listConnectors: { capability: { type: 'string' }, providerId: { type: 'string' }, category: { type: 'string' } },
  streamStatus: { cursor: { type: 'integer', minimum: 0 } },
  auditLog: {
    limit: { type: 'integer', minimum: 1, maximum: 200, default: 50 },
    before: { type: 'integer', minimum: 1 },
    after: { type: 'integer', minimum: 0 },
  },
};

const header = (name: string, required: boolean, schema: unknown, description: string) => ({
  name,
  in: 'header',
  required,
  schema,
  description,
});
const failure = (description: string) => ({
  description,
  content: { 'application/json': { schema: { $ref: '#/components/schemas/Failure' } } },
});
const RATE_HEADERS = {
  'X-RateLimit-Limit': { schema: { type: 'integer' }, description: 'calls allowed in the current window' },
  'X-RateLimit-Remaining': { schema: { type: 'integer' }, description: 'calls left in the current window' },
};

function operation(route: Route, id: string): Record<string, unknown> {
  const parameters: unknown[] = [
    header(
      'Service-Version',
      false,
      { type: 'string', pattern: '^\\d{4}-\\d{2}-\\d{2}$' },
      'interface version (a date); default the current one',
    ),
  ];
  for (const name of route.path.match(/\{(\w+)\}/g) ?? []) {
    const schema =
      name === '{file}'
        ? { type: 'string', enum: PUBLISHED_VERSIONS.flatMap((v) => [`${v}.json`, `${v}.yaml`]) }
        : { type: 'string' };
    parameters.push({ name: name.slice(1, -1), in: 'path', required: true, schema });
  }
  for (const [name, schema] of Object.entries(QUERY[id] ?? {}))
    parameters.push({ name, in: 'query', required: false, schema });
  if (route.auth)
    parameters.push(
      header('x-service-tenant', true, { type: 'string', minLength: 1 }, 'the tenant the call applies to'),
    );
  if (route.key)
    parameters.push(
      header(
        'Idempotency-Key',
        true,
        { type: 'string', pattern: '^[A-Za-z0-9._:-]{8,128}$' },
        'key against double effects',
      ),
    );
  if (id === 'streamStatus')
    parameters.push(
      header('Last-Event-ID', false, { type: 'string', pattern: '^[0-9]+$' }, 'last number read (wins over cursor)'),
    );
  const ok =
    id === 'streamStatus'
      ? {
          description: 'Server-Sent Events; each id is a Kafka offset',
          content: { 'text/event-stream': { schema: { type: 'string' } } },
        }
      : id === 'openApiDocument' || id === 'openApiFile'
        ? {
            description: 'OpenAPI 3.1 document',
            content: {
              'application/json': { schema: { type: 'object' } },
              ...(id === 'openApiFile' ? { 'application/yaml': { schema: { type: 'string' } } } : {}),
            },
          }
        : {
            description: 'success',
            ...(route.auth ? { headers: RATE_HEADERS } : {}),
            content: {
              'application/json': {
                schema: {
                  type: 'object',
                  required: ['ok', 'data', 'meta'],
                  properties: {
                    ok: { type: 'boolean', const: true },
                    data: DATA[id] ?? { type: 'object' },
                    meta: { $ref: '#/components/schemas/Meta' },
                  },
                },
              },
            },
          };
  const responses: Record<string, unknown> = { '200': ok, '400': failure('invalid_request') };
  if (route.auth) {
    Object.assign(responses, {
      '401': failure('unauthorized'),
      '403': failure('forbidden'),
      '404': failure('not_found'),
      '409': failure('capability_denied or idempotency_conflict'),
      '428': failure('idempotency_required'),
      '429': {
        ...failure('rate_limited'),
        headers: { ...RATE_HEADERS, 'Retry-After': { schema: { type: 'integer' } } },
      },
    });
  } else if (id === 'streamStatus') {
    Object.assign(responses, {
      '401': failure('unauthorized (a token was sent and is not valid)'),
      '403': failure('forbidden'),
    });
  }
  responses['500'] = failure('internal');
  const op: Record<string, unknown> = { operationId: id, summary: route.purpose, parameters, responses };
  if (route.auth) op.security = [{ oauth2: route.scope ? [route.scope] : [] }];
  else op.security = [];
  const body = BODIES[id];
  if (body) op.requestBody = { required: true, content: { 'application/json': { schema: body } } };
  return op;
}

export function buildDocument(version: string): Record<string, unknown> {
  const paths: Record<string, Record<string, unknown>> = {};
  for (const route of ROUTES) {
    if (route.since !== undefined && route.since > version) continue;
    const id = OPERATION_IDS[`${route.method} ${route.path}`] ?? `${route.method.toLowerCase()}${route.path}`;
    const path = route.path === '' ? '/' : route.path;
    paths[path] = { ...paths[path], [route.method.toLowerCase()]: operation(route, id) };
  }
  return {
    openapi: '3.1.0',
    info: {
      title: 'Network Connections Service (tamarack)',
      version,
      description: 'Public interface; every success answers 200 in the success envelope.',
    },
    servers: [{ url: '/api/public/v1' }],
    paths,
    components: {
      schemas: SCHEMAS,
      securitySchemes: {
        oauth2: {
          type: 'oauth2',
          description: 'Opaque bearer tokens from the client credentials grant, sent as Authorization: Bearer <token>.',
          flows: {
            clientCredentials: {
              tokenUrl: '/oauth2/token',
              scopes: {
                'catalog:read': 'read the catalog and check capabilities',
                'connections:read': 'read connections',
                'connections:write': 'create connections and keys',
                'webhooks:manage': 'manage webhook receivers',
                'audit:read': 'read the audit log',
              },
            },
          },
        },
      },
    },
  };
}

export const openApiDocument: Handler = (ctx) => {
  const text = JSON.stringify(buildDocument(ctx.version));
  ctx.res.writeHead(200, { ...ctx.headers, 'content-type': 'application/json', 'x-unique-id': ctx.requestId });
  ctx.res.end(text);
};

export const openApiFile: Handler = (ctx, _app, params) => {
  const m = /^(\d{4}-\d{2}-\d{2})\.(json|yaml)$/.exec(params.file ?? '');
  const version = m?.[1];
  if (!m || !version || !(PUBLISHED_VERSIONS as readonly string[]).includes(version)) {
    throw new ApiError('not_found', 'No description file of this name; files are <version>.json and <version>.yaml.');
  }
  const doc = buildDocument(version);
  const yaml = m[2] === 'yaml';
  ctx.res.writeHead(200, {
    ...ctx.headers,
    'content-type': yaml ? 'application/yaml' : 'application/json',
    'content-disposition': `attachment; filename="tamarack-openapi-${m[0]}"`,
    'x-unique-id': ctx.requestId,
  });
  ctx.res.end(yaml ? toYaml(doc) : JSON.stringify(doc, null, 2));
};
