// The OpenAPI 3.1 document generated from the route table (JSON and YAML, per version).
import { ENVIRONMENTS } from './catalog.ts';
import { VERSIONS } from './http.ts';
import { KEY_PATTERN } from './idempotency.ts';
import { ROUTES, type Route } from './routes.ts';
import { WEBHOOK_EVENTS } from './webhooks.ts';

const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });
const s = (min: number, max: number) => ({ type: 'string', minLength: min, maxLength: max });
const obj = (props: Record<string, unknown>, required: string[] = []) => ({
  type: 'object',
  properties: props,
  required,
});

const schemas = {
  Meta: obj(
    {
      requestId: { type: 'string' },
      version: { type: 'string', enum: [...VERSIONS] },
      at: { type: 'string', format: 'date-time' },
      idempotencyKey: { type: 'string' },
      replayed: { type: 'boolean' },
    },
    ['requestId', 'version', 'at'],
  ),
  Success: obj({ ok: { const: true }, data: { type: 'object' }, meta: ref('Meta') }, ['ok', 'data', 'meta']),
  Failure: obj(
    {
      ok: { const: false },
      error: obj(
        {
          code: {
            type: 'string',
            enum: [
              'unauthorized',
              'forbidden',
              'not_found',
              'invalid_request',
              'capability_denied',
              'idempotency_conflict',
              'idempotency_required',
              'rate_limited',
              'internal',
            ],
          },
          message: { type: 'string' },
          detail: { type: 'string' },
          hint: { type: 'string' },
          status: { type: 'string' },
          details: { type: 'array', items: { type: 'object' } },
        },
        ['code', 'message'],
      ),
      meta: ref('Meta'),
    },
    ['ok', 'error', 'meta'],
  ),
  Environment: { type: 'string', enum: [...ENVIRONMENTS] },
  CapabilityCheck: obj({ connectorId: s(2, 120), capability: s(2, 120), environment: ref('Environment') }, [
    'connectorId',
    'capability',
  ]),
  ConnectionCreate: obj(
    {
      connectorId: s(2, 120),
      environment: ref('Environment'),
      scopeLabel: s(2, 120),
      capabilities: { type: 'array', minItems: 1, maxItems: 24, items: s(2, 120) },
    },
    ['connectorId', 'environment', 'scopeLabel', 'capabilities'],
  ),
  Connection: obj(
    {
      id: { type: 'string' },
      name: { type: 'string' },
      connectorId: { type: 'string' },
      environment: ref('Environment'),
      scopeLabel: { type: 'string' },
      state: { type: 'string', enum: ['CREATING', 'ACTIVE', 'PAUSED', 'FAILED'] },
      capabilities: {
        type: 'array',
        items: obj(
          { capability: { type: 'string' }, critical: { type: 'boolean' }, idempotencyRequired: { type: 'boolean' } },
          ['capability', 'critical', 'idempotencyRequired'],
        ),
      },
      nextStep: { type: 'string' },
      createdAt: { type: 'string', format: 'date-time' },
      updateTime: { type: 'string', format: 'date-time' },
      etag: { type: 'string' },
    },
    ['id', 'connectorId', 'environment', 'scopeLabel', 'state', 'capabilities', 'nextStep', 'createdAt'],
  ),
  IdempotencyKeyCreate: obj({ operation: s(2, 80) }, ['operation']),
  WebhookCreate: obj(
    {
      url: { type: 'string', format: 'uri' },
      events: { type: 'array', minItems: 1, items: { type: 'string', enum: WEBHOOK_EVENTS } },
    },
    ['url', 'events'],
  ),
};

const bodies: Record<string, string> = {
  checkCapability: 'CapabilityCheck',
  createConnection: 'ConnectionCreate',
  createIdempotencyKey: 'IdempotencyKeyCreate',
  createWebhook: 'WebhookCreate',
};

function operation(r: Route): Record<string, unknown> {
  const params: unknown[] = [...r.path.matchAll(/\{([^}]+)\}/g)].map((m) => ({
    name: m[1],
    in: 'path',
    required: true,
    schema: { type: 'string' },
  }));
  if (r.auth) {
    params.push({ name: 'x-service-tenant', in: 'header', required: true, schema: { type: 'string' } });
    params.push({
      name: 'Service-Version',
      in: 'header',
      required: false,
      schema: { type: 'string', enum: [...VERSIONS] },
    });
  }
  if (r.key || r.body)
    params.push({
      name: 'Idempotency-Key',
      in: 'header',
      required: r.key === true,
      schema: { type: 'string', pattern: KEY_PATTERN.source },
    });
  const q = (name: string, schema: unknown) => params.push({ name, in: 'query', required: false, schema });
  if (r.operationId === 'listProviders') q('category', { type: 'string' });
  if (r.operationId === 'listConnectors')
    for (const n of ['capability', 'providerId', 'category']) q(n, { type: 'string' });
  if (r.operationId === 'streamStatus') {
    q('cursor', { type: 'integer', minimum: 0 });
    params.push({ name: 'Last-Event-ID', in: 'header', required: false, schema: { type: 'string' } });
  }
  if (r.operationId === 'listAuditLog') q('limit', { type: 'integer', minimum: 1, maximum: 500 });
  if (['listAuditLog', 'listWebhooks', 'listWebhookDeliveries'].includes(r.operationId))
    q('pageToken', { type: 'string' });
  if (['listWebhooks', 'listWebhookDeliveries'].includes(r.operationId))
    q('pageSize', { type: 'integer', minimum: 1, maximum: 1000 });
  const ok =
    r.operationId === 'streamStatus'
      ? { description: 'Server-Sent Events', content: { 'text/event-stream': { schema: { type: 'string' } } } }
      : r.operationId.includes('Yaml')
        ? { description: 'YAML document', content: { 'application/yaml': { schema: { type: 'string' } } } }
        : r.operationId.includes('OpenApi')
          ? { description: 'OpenAPI 3.1 document', content: { 'application/json': { schema: { type: 'object' } } } }
          : {
              description: 'Success envelope',
              content: {
                'application/json': {
                  schema: r.operationId.endsWith('Connection')
                    ? { allOf: [ref('Success'), { properties: { data: ref('Connection') } }] }
                    : ref('Success'),
                },
              },
            };
  const failure = { $ref: '#/components/responses/Failure' };
  const statuses = r.auth ? ['400', '401', '403', '404', '409', '428', '429', '500'] : ['400', '404', '500'];
  const op: Record<string, unknown> = {
    operationId: r.operationId,
    summary: r.purpose,
    parameters: params,
    responses: {
      '200': ok,
      ...Object.fromEntries(statuses.map((x) => [x, failure])),
    },
    security: r.auth ? [{ oauth2: [] }] : [],
  };
  const body = bodies[r.operationId];
  if (body) op.requestBody = { required: true, content: { 'application/json': { schema: ref(body) } } };
  if (r.operationId === 'createWebhook') op['x-webhook-events'] = WEBHOOK_EVENTS;
  return op;
}

export function openApiDocument(version: string, servers: string[], tokenUrl: string): Record<string, unknown> {
  const paths: Record<string, Record<string, unknown>> = {};
  for (const r of ROUTES) {
    const entry = paths[r.path] ?? {};
    entry[r.method.toLowerCase()] = operation(r);
    paths[r.path] = entry;
  }
  return {
    openapi: '3.1.0',
    info: {
      title: 'Network Connections Service (sandalwood)',
      version,
      description: 'Public interface /api/public/v1.',
      license: { name: 'Proprietary', identifier: 'LicenseRef-Proprietary' },
    },
    servers: servers.map((url) => ({ url })),
    paths,
    components: {
      schemas,
      responses: {
        Failure: { description: 'Failure envelope', content: { 'application/json': { schema: ref('Failure') } } },
      },
      securitySchemes: { oauth2: { type: 'oauth2', flows: { clientCredentials: { tokenUrl, scopes: {} } } } },
    },
  };
}

/** A YAML rendering (block style; every string double-quoted, which YAML reads as JSON strings). */
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
