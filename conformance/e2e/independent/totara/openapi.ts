// totara: the OpenAPI 3.1 document built from the route table and its TypeBox schemas (as @fastify/swagger would),
// served as JSON and offered as downloadable JSON and YAML files per version.
import { TOKEN_PATH } from './auth.ts';
import { ROUTES } from './routes.ts';
import type { Schema } from './schema.ts';
import { CURRENT_VERSION, ENVIRONMENTS, KEY_PATTERN, VERSIONS } from './types.ts';
import { SIGNATURE_HEADER, WEBHOOK_EVENTS } from './webhooks.ts';

const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });
const obj = (properties: Record<string, unknown>, required = Object.keys(properties)) => ({
  type: 'object',
  properties,
  required,
});
const s = { type: 'string' };
const dt = { type: 'string', format: 'date-time' };
const b = { type: 'boolean' };

const COMPONENTS = {
  Meta: obj({ requestId: s, version: s, at: dt, idempotencyKey: s, replayed: b }, ['requestId', 'version', 'at']),
  Failure: obj({
    ok: { type: 'boolean', const: false },
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
        message: s,
        detail: s,
        hint: s,
      },
      ['code', 'message'],
    ),
    meta: ref('Meta'),
  }),
  Environment: { type: 'string', enum: [...ENVIRONMENTS] },
  Provider: obj({ id: s, name: s, category: s, summary: s }),
  Connector: obj({ id: s, providerId: s, name: s, category: s, capabilities: { type: 'array', items: s } }),
  Capability: obj({ id: s, label: s, critical: b, idempotencyRequired: b }),
  CapabilityDecision: obj({
    connectorId: s,
    capability: s,
    allowed: b,
    critical: b,
    idempotencyRequired: b,
    reason: s,
  }),
  Connection: obj({
    id: s,
    connectorId: s,
    environment: ref('Environment'),
    scopeLabel: s,
    state: { type: 'string', enum: ['PENDING', 'ACTIVE'] },
    capabilities: { type: 'array', items: obj({ capability: s, critical: b, idempotencyRequired: b }) },
    nextStep: s,
    createdAt: dt,
  }),
  RouteInfo: obj({ method: s, path: s, purpose: s, auth: b }),
  IdempotencyKeyResult: obj({ idempotencyKey: s, operation: s, expiresAt: dt }),
  Webhook: obj({
    id: s,
    url: s,
    events: { type: 'array', items: s },
    status: s,
    createdAt: dt,
    updatedAt: dt,
    signatureHeader: s,
    deliveryIdHeader: s,
  }),
  WebhookJob: obj(
    {
      id: s,
      webhookId: s,
      name: s,
      eventId: s,
      status: s,
      attemptsMade: { type: 'integer' },
      timestamp: dt,
      logs: { type: 'array', items: { type: 'object' } },
    },
    ['id', 'webhookId', 'name', 'eventId', 'status', 'attemptsMade'],
  ),
  AuditEntry: obj({
    id: s,
    seq: { type: 'integer' },
    action: s,
    resourceType: s,
    resourceId: s,
    actor: s,
    createdAt: dt,
    prevHash: s,
    hash: s,
  }),
};

const arr = (items: unknown) => ({ type: 'array', items });
const list = (name: string, item: string) => obj({ count: { type: 'integer' }, [name]: arr(ref(item)) });
const free = { type: 'object', additionalProperties: true };

/** The `data` of each route's success answer (@fastify/swagger reads them from the routes' response schemas). */
const DATA: Record<string, unknown> = {
  self: obj({
    service: s,
    surface: s,
    version: s,
    authentication: free,
    idempotency: free,
    routes: arr(ref('RouteInfo')),
  }),
  info: obj({ service: s, version: s, environment: s, serverTime: dt }),
  providers: list('providers', 'Provider'),
  connectors: list('connectors', 'Connector'),
  capabilities: list('capabilities', 'Capability'),
  capabilityCheck: obj({ decision: ref('CapabilityDecision'), environment: ref('Environment') }),
  connections: obj({ tenant: s, count: { type: 'integer' }, connections: arr(ref('Connection')) }),
  connection: ref('Connection'),
  connectionCreate: ref('Connection'),
  keyCreate: ref('IdempotencyKeyResult'),
  webhooks: obj({ count: { type: 'integer' }, webhooks: arr(ref('Webhook')) }),
  webhookCreate: {
    allOf: [
      ref('Webhook'),
      obj({ secret: { type: ['string', 'null'] }, secretIssued: { type: 'string', enum: ['now', 'already_issued'] } }),
    ],
  },
  webhook: ref('Webhook'),
  webhookDelete: obj({ id: s, deleted: b }),
  webhookJobs: obj({ webhookId: s, count: { type: 'integer' }, jobs: arr(ref('WebhookJob')) }),
  webhookJobRetry: ref('WebhookJob'),
  auditLog: obj({
    tenant: s,
    count: { type: 'integer' },
    total: { type: 'integer' },
    order: { type: 'string', enum: ['asc', 'desc'] },
    entries: arr(ref('AuditEntry')),
    proof: free,
  }),
};

const int = (description: string) => ({ description, schema: { type: 'integer', minimum: 0 } });
/** @fastify/rate-limit's headers, documented as @fastify/swagger would from the route's response headers. */
const LIMIT_HEADERS = {
  'X-RateLimit-Limit': int('limit of the current window'),
  'X-RateLimit-Remaining': int('calls left in the window'),
  'X-RateLimit-Reset': int('seconds until the window ends'),
};
const RETRY_AFTER = { 'Retry-After': int('recommended wait in seconds') };

const ERRORS = ['400', '401', '403', '404', '409', '428', '429', '500'];

function toJsonSchema(schema: Schema | undefined): unknown {
  return schema ? JSON.parse(JSON.stringify(schema)) : undefined;
}

function operation(r: (typeof ROUTES)[number]) {
  const parameters: unknown[] = [];
  for (const m of r.path.matchAll(/\{(\w+)\}/g)) parameters.push({ name: m[1], in: 'path', required: true, schema: s });
  for (const [name, schema] of Object.entries(r.query ?? {}))
    parameters.push({ name, in: 'query', required: false, schema });
  if (r.auth) parameters.push({ name: 'x-service-tenant', in: 'header', required: true, schema: s });
  if (r.key !== 'none')
    parameters.push({
      name: 'Idempotency-Key',
      in: 'header',
      required: r.key === 'required',
      schema: { type: 'string', pattern: KEY_PATTERN.source },
    });
  if (r.id === 'stream') parameters.push({ name: 'Last-Event-ID', in: 'header', required: false, schema: s });
  parameters.push({
    name: 'Service-Version',
    in: 'header',
    required: false,
    schema: { type: 'string', enum: [...VERSIONS] },
  });
  const envelope = obj({ ok: { type: 'boolean', const: true }, data: DATA[r.id] ?? free, meta: ref('Meta') });
  const responses: Record<string, unknown> = {
    '200':
      r.id === 'stream'
        ? { description: 'Server-Sent Events', content: { 'text/event-stream': { schema: s } } }
        : r.id === 'openapi' || r.id === 'openapiFile'
          ? {
              description: 'OpenAPI 3.1 document',
              content: { 'application/json': { schema: free }, 'application/yaml': { schema: s } },
            }
          : { description: 'success envelope', content: { 'application/json': { schema: envelope } } },
  };
  (responses['200'] as Record<string, unknown>).headers = LIMIT_HEADERS;
  for (const code of ERRORS)
    responses[code] = {
      description: 'failure envelope',
      headers: code === '429' ? { ...LIMIT_HEADERS, ...RETRY_AFTER } : LIMIT_HEADERS,
      content: { 'application/json': { schema: ref('Failure') } },
    };
  const op: Record<string, unknown> = { operationId: r.id, summary: r.purpose, parameters, responses };
  if (r.auth) op.security = [{ oauth2: [] }];
  else if (r.authOptional) op.security = [{}, { oauth2: [] }];
  else op.security = [];
  if (r.body) op.requestBody = { required: true, content: { 'application/json': { schema: toJsonSchema(r.body) } } };
  return op;
}

export function openapiDocument(version: string): Record<string, unknown> {
  const paths: Record<string, Record<string, unknown>> = {};
  for (const r of ROUTES) {
    const item = paths[r.path] ?? {};
    item[r.method.toLowerCase()] = operation(r);
    paths[r.path] = item;
  }
  return {
    openapi: '3.1.0',
    info: {
      title: 'Network Connections Service',
      version,
      description:
        version === CURRENT_VERSION
          ? 'Current version; adds the webhook delivery log (jobs) and its retry.'
          : 'Earlier version; modifying calls require an idempotency key.',
    },
    servers: [{ url: '/' }],
    paths,
    webhooks: Object.fromEntries(
      WEBHOOK_EVENTS.map((e) => [
        e,
        {
          post: {
            summary: `${e}, signed in ${SIGNATURE_HEADER}: t=<unix>,v1=<hex hmac-sha256>`,
            responses: { '2XX': { description: 'accepted' } },
          },
        },
      ]),
    ),
    components: {
      schemas: COMPONENTS,
      securitySchemes: {
        oauth2: {
          type: 'oauth2',
          flows: { clientCredentials: { tokenUrl: TOKEN_PATH, scopes: { 'ncs.read': 'read', 'ncs.write': 'write' } } },
        },
      },
    },
  };
}

/** YAML 1.2 block style; strings are double-quoted (JSON-compatible) so nothing is misread. */
export function toYaml(value: unknown, indent = ''): string {
  if (Array.isArray(value)) {
    if (value.length === 0) return ' []';
    return value.map((v) => `\n${indent}-${block(v, `${indent}  `)}`).join('');
  }
  if (value !== null && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>).filter(([, v]) => v !== undefined);
    if (entries.length === 0) return ' {}';
    return entries.map(([k, v]) => `\n${indent}${JSON.stringify(k)}:${block(v, `${indent}  `)}`).join('');
  }
  return ` ${JSON.stringify(value)}`;
}

function block(v: unknown, indent: string): string {
  return toYaml(v, indent);
}

export function yamlDocument(version: string): string {
  return `${toYaml(openapiDocument(version)).trimStart()}\n`;
}
