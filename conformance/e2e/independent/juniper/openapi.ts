// The OpenAPI 3.1 document, built from the route table and the component schemas. Every operation
// answers 200 on success and the failure envelope for the statuses of the interface.
import { schemas } from './openapi-schemas.ts';
import { ROUTES, type Route } from './route-table.ts';
import { ENVIRONMENTS, type JuniperOptions, VERSIONS } from './types.ts';
import { WEBHOOK_EVENTS } from './webhooks.ts';

type Schema = Record<string, unknown>;
const ref = (name: string): Schema => ({ $ref: `#/components/schemas/${name}` });
const text = (min: number, max: number): Schema => ({ type: 'string', minLength: min, maxLength: max });

const DATA: Record<string, string> = {
  describeService: 'ServiceDescription',
  getInfo: 'Info',
  listProviders: 'ProviderList',
  listConnectors: 'ConnectorList',
  listCapabilities: 'CapabilityList',
  checkCapability: 'CapabilityCheckResult',
  listConnections: 'ConnectionList',
  createConnection: 'Connection',
  getConnection: 'Connection',
  createIdempotencyKey: 'IdempotencyKeyResult',
  createWebhook: 'WebhookCreated',
  listWebhooks: 'WebhookList',
  getWebhook: 'Webhook',
  deleteWebhook: 'WebhookDeleted',
  listWebhookDeliveries: 'DeliveryLog',
  retryWebhookDelivery: 'Delivery',
  getAuditLog: 'AuditLog',
};

const BODIES: Record<string, Schema> = {
  checkCapability: {
    type: 'object',
    properties: {
      connectorId: text(2, 120),
      capability: text(2, 120),
      environment: { ...ref('Environment'), default: 'sandbox' },
    },
    required: ['connectorId', 'capability'],
  },
  createConnection: {
    type: 'object',
    properties: {
      connectorId: text(2, 120),
      environment: { type: 'string', enum: ENVIRONMENTS },
      scopeLabel: text(2, 120),
      capabilities: { type: 'array', minItems: 1, maxItems: 24, items: text(2, 120) },
    },
    required: ['connectorId', 'environment', 'scopeLabel', 'capabilities'],
  },
  createIdempotencyKey: { type: 'object', properties: { operation: text(2, 80) }, required: ['operation'] },
  createWebhook: {
    type: 'object',
    properties: {
      url: { type: 'string', format: 'uri', minLength: 8, maxLength: 2048 },
      events: { type: 'array', minItems: 1, maxItems: 20, items: { type: 'string', enum: WEBHOOK_EVENTS } },
    },
    required: ['url', 'events'],
  },
};

const query = (name: string, schema: Schema, description: string) => ({
  name,
  in: 'query',
  required: false,
  schema,
  description,
});
const QUERIES: Record<string, Schema[]> = {
  listProviders: [query('category', { type: 'string' }, 'restricts to one category')],
  listConnectors: [
    query('capability', { type: 'string' }, 'connectors offering this capability'),
    query('providerId', { type: 'string' }, 'connectors of this provider'),
    query('category', { type: 'string' }, 'restricts to one category'),
  ],
  streamStatus: [
    query('cursor', { type: 'integer', minimum: 0 }, 'last number read'),
    {
      name: 'Last-Event-ID',
      in: 'header',
      required: false,
      schema: { type: 'string', pattern: '^\\d+$' },
      description: 'last number read (wins over cursor)',
    },
  ],
  getAuditLog: [
    query('limit', { type: 'integer', minimum: 1 }, 'entries per page (same as per_page; at most 100 are served)'),
    query('page', { type: 'integer', minimum: 1 }, 'page number, 1 is the newest'),
    query('per_page', { type: 'integer', minimum: 1 }, 'entries per page (at most 100 are served)'),
  ],
};

const pathParam = (name: string) => ({ name, in: 'path', required: true, schema: { type: 'string' } });

function success(route: Route): Schema {
  if (route.operationId === 'streamStatus') {
    return {
      description: 'Server-Sent Events: id, event and a JSON data line per message',
      content: { 'text/event-stream': { schema: { type: 'string' } } },
    };
  }
  if (route.path.endsWith('.yaml'))
    return { description: 'the description as YAML', content: { 'application/yaml': { schema: { type: 'string' } } } };
  if (route.path.includes('openapi'))
    return { description: 'the description as JSON', content: { 'application/json': { schema: { type: 'object' } } } };
  const data = DATA[route.operationId] ?? 'Meta';
  const envelope = {
    type: 'object',
    properties: { ok: { type: 'boolean', const: true }, data: ref(data), meta: ref('Meta') },
    required: ['ok', 'data', 'meta'],
  };
  return { description: route.purpose, content: { 'application/json': { schema: envelope } } };
}

function operation(route: Route): Schema {
  const parameters: Schema[] = [{ $ref: '#/components/parameters/ServiceVersion' }];
  if (route.auth) parameters.push({ $ref: '#/components/parameters/Tenant' });
  if (route.key === 'required') parameters.push({ $ref: '#/components/parameters/IdempotencyKeyRequired' });
  if (route.key === 'optional') parameters.push({ $ref: '#/components/parameters/IdempotencyKeyOptional' });
  for (const m of route.path.matchAll(/\{(\w+)\}/g)) parameters.push(pathParam(m[1] ?? ''));
  parameters.push(...(QUERIES[route.operationId] ?? []));
  const responses: Record<string, Schema> = { '200': success(route) };
  for (const status of ['400', '401', '403', '404', '409', '428', '429', '500'])
    responses[status] = { $ref: '#/components/responses/Error' };
  const op: Schema = { operationId: route.operationId, summary: route.purpose, parameters, responses };
  if (!route.auth) op.security = [];
  const body = BODIES[route.operationId];
  if (body) op.requestBody = { required: true, content: { 'application/json': { schema: body } } };
  return op;
}

export function buildOpenApi(version: string, origin: string, options: JuniperOptions): Record<string, unknown> {
  const deliveryLogCurrentOnly = options.deliveryLogCurrentOnly;
  const host = origin.replace(/^https?:\/\//, '');
  const servers = options.openapiServerVariables
    ? [{ url: 'http://{defaultHost}', variables: { defaultHost: { default: host } } }]
    : [{ url: origin }];
  const paths: Record<string, Record<string, Schema>> = {};
  for (const route of ROUTES) {
    if (route.since !== undefined && version < route.since && deliveryLogCurrentOnly) continue;
    const item = paths[route.path] ?? {};
    item[route.method.toLowerCase()] = operation(route);
    paths[route.path] = item;
  }
  return {
    openapi: '3.1.0',
    info: { title: 'Network Connections Service public interface', version, description: 'juniper deployment' },
    servers,
    security: [{ oauth2: [] }],
    paths,
    components: {
      securitySchemes: {
        oauth2: { type: 'oauth2', flows: { clientCredentials: { tokenUrl: `${origin}/oauth/token`, scopes: {} } } },
      },
      parameters: {
        ServiceVersion: {
          name: 'Service-Version',
          in: 'header',
          required: false,
          schema: { type: 'string', enum: VERSIONS },
        },
        Tenant: { name: 'x-service-tenant', in: 'header', required: true, schema: { type: 'string', minLength: 1 } },
        IdempotencyKeyRequired: {
          name: 'Idempotency-Key',
          in: 'header',
          required: true,
          schema: { type: 'string', pattern: '^[A-Za-z0-9._:-]{8,128}$' },
        },
        IdempotencyKeyOptional: {
          name: 'Idempotency-Key',
          in: 'header',
          required: false,
          schema: { type: 'string', pattern: '^[A-Za-z0-9._:-]{8,128}$' },
        },
      },
      responses: {
        Error: { description: 'failure envelope', content: { 'application/json': { schema: ref('Error') } } },
      },
      schemas,
    },
  };
}

// The YAML form: YAML 1.2 block style, every string and key double-quoted with JSON escapes (valid YAML
// double-quoted scalars), so no value can be read back as another type.
type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

const scalar = (v: Json): string => {
  if (v === null) return 'null';
  if (typeof v === 'string') return JSON.stringify(v);
  return String(v);
};

const isEmptyContainer = (v: Json): boolean =>
  (Array.isArray(v) && v.length === 0) ||
  (v !== null && typeof v === 'object' && !Array.isArray(v) && Object.keys(v).length === 0);

function emit(value: Json, indent: string, lines: string[]) {
  if (Array.isArray(value)) {
    for (const item of value) {
      if (item !== null && typeof item === 'object' && !isEmptyContainer(item)) {
        const sub: string[] = [];
        emit(item, `${indent}  `, sub);
        // The first line of the nested block moves up behind the dash.
        lines.push(`${indent}- ${(sub[0] ?? '').trimStart()}`);
        lines.push(...sub.slice(1));
      } else lines.push(`${indent}- ${inline(item)}`);
    }
    return;
  }
  if (value !== null && typeof value === 'object') {
    for (const [key, item] of Object.entries(value)) {
      if (item !== null && typeof item === 'object' && !isEmptyContainer(item)) {
        lines.push(`${indent}${JSON.stringify(key)}:`);
        emit(item, `${indent}  `, lines);
      } else lines.push(`${indent}${JSON.stringify(key)}: ${inline(item)}`);
    }
    return;
  }
  lines.push(`${indent}${scalar(value)}`);
}

const inline = (v: Json): string => (Array.isArray(v) ? '[]' : v !== null && typeof v === 'object' ? '{}' : scalar(v));

export function toYaml(doc: unknown): string {
  const lines: string[] = [];
  emit(JSON.parse(JSON.stringify(doc)) as Json, '', lines);
  return `${lines.join('\n')}\n`;
}
