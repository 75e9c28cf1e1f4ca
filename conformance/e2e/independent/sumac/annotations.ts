// The route annotations (what a Laravel team writes as #[OA\...] attributes on controllers): one row per
// route, read by the router's self-description and by the OpenAPI generator, so both say what is served.
export type Json = Record<string, unknown>;

export interface RouteAnnotation {
  method: 'GET' | 'POST' | 'DELETE';
  /** Path under /api/public/v1 ("" is the root). */
  path: string;
  name: string;
  purpose: string;
  auth: boolean;
  key?: boolean;
  query?: { name: string; schema: Json; description: string }[];
  headers?: { name: string; schema: Json; description: string }[];
  body?: Json;
  /** The schema of `data` in the 200 answer; `stream` for the event stream, `document` for raw JSON. */
  data: Json | 'stream' | 'document';
  tag: string;
}

const ref = (name: string): Json => ({ $ref: `#/components/schemas/${name}` });
const str = (min: number, max: number): Json => ({ type: 'string', minLength: min, maxLength: max });
const list = (of: Json): Json => ({ type: 'array', items: of });
const obj = (required: string[], properties: Json): Json => ({ type: 'object', required, properties });
const filter = (name: string, description: string) => ({ name, schema: { type: 'string' }, description });
const paging = [
  {
    name: 'limit',
    schema: { type: 'integer', minimum: 1, maximum: 100, default: 15 },
    description: 'entries per page',
  },
  { name: 'page', schema: { type: 'integer', minimum: 1, default: 1 }, description: 'page number' },
];
export const ENV_ENUM = ['development', 'sandbox', 'pilot', 'production'];

export const ROUTES: RouteAnnotation[] = [
  {
    method: 'GET',
    path: '',
    name: 'meta.describe',
    purpose: 'self-description',
    auth: false,
    tag: 'Meta',
    data: obj(['service', 'surface', 'version', 'authentication', 'idempotency', 'routes'], {
      service: { type: 'string' },
      surface: { type: 'string' },
      version: { type: 'string' },
      authentication: { type: 'object' },
      idempotency: { type: 'object' },
      routes: list(ref('RouteInfo')),
    }),
  },
  {
    method: 'GET',
    path: '/openapi.json',
    name: 'meta.openapi',
    purpose: 'OpenAPI 3.1 document',
    auth: false,
    tag: 'Meta',
    data: 'document',
  },
  {
    method: 'GET',
    path: '/info',
    name: 'meta.info',
    purpose: 'the calling access: client, tenant, environment, token expiry',
    auth: true,
    tag: 'Meta',
    data: { type: 'object' },
  },
  {
    method: 'GET',
    path: '/providers',
    name: 'providers.index',
    purpose: 'list providers',
    auth: true,
    tag: 'Catalog',
    query: [filter('category', 'restricts to one category')],
    data: obj(['count', 'providers'], { count: { type: 'integer' }, providers: list(ref('Provider')) }),
  },
  {
    method: 'GET',
    path: '/connectors',
    name: 'connectors.index',
    purpose: 'list connectors',
    auth: true,
    tag: 'Catalog',
    query: [
      filter('capability', 'offers this capability'),
      filter('providerId', 'of this provider'),
      filter('category', 'of this category'),
    ],
    data: obj(['count', 'connectors'], { count: { type: 'integer' }, connectors: list(ref('Connector')) }),
  },
  {
    method: 'GET',
    path: '/capabilities',
    name: 'capabilities.index',
    purpose: 'capability catalog',
    auth: true,
    tag: 'Catalog',
    data: obj(['count', 'capabilities'], { count: { type: 'integer' }, capabilities: list(ref('Capability')) }),
  },
  {
    method: 'POST',
    path: '/capabilities',
    name: 'capabilities.check',
    purpose: 'check a capability of a connector',
    auth: true,
    tag: 'Catalog',
    body: obj(['connectorId', 'capability'], {
      connectorId: str(2, 120),
      capability: str(2, 120),
      environment: { type: 'string', enum: ENV_ENUM, default: 'sandbox' },
    }),
    data: obj(['decision', 'environment'], { decision: ref('CapabilityDecision'), environment: ref('Environment') }),
  },
  {
    method: 'GET',
    path: '/connections',
    name: 'connections.index',
    purpose: 'connections of the tenant',
    auth: true,
    tag: 'Connections',
    data: obj(['tenant', 'count', 'connections'], {
      tenant: { type: 'string' },
      count: { type: 'integer' },
      connections: list(ref('Connection')),
    }),
  },
  {
    method: 'POST',
    path: '/connections',
    name: 'connections.store',
    purpose: 'create a connection',
    auth: true,
    key: true,
    tag: 'Connections',
    body: obj(['connectorId', 'environment', 'scopeLabel', 'capabilities'], {
      connectorId: str(2, 120),
      environment: { type: 'string', enum: ENV_ENUM },
      scopeLabel: str(2, 120),
      capabilities: { type: 'array', minItems: 1, maxItems: 24, items: str(2, 120) },
    }),
    data: ref('Connection'),
  },
  {
    method: 'POST',
    path: '/idempotency-keys',
    name: 'idempotency-keys.store',
    purpose: 'generate an idempotency key',
    auth: true,
    tag: 'Connections',
    body: obj(['operation'], { operation: str(2, 80) }),
    data: ref('IdempotencyKeyResult'),
  },
  {
    method: 'GET',
    path: '/stream',
    name: 'stream.show',
    purpose: 'status stream (Server-Sent Events)',
    auth: false,
    tag: 'Events',
    query: [{ name: 'cursor', schema: { type: 'integer', minimum: 0 }, description: 'last number read' }],
    headers: [{ name: 'Last-Event-ID', schema: { type: 'string' }, description: 'last number read' }],
    data: 'stream',
  },
  {
    method: 'POST',
    path: '/webhooks',
    name: 'webhooks.store',
    purpose: 'create a webhook receiver',
    auth: true,
    key: true,
    tag: 'Webhooks',
    body: obj(['url', 'events'], {
      url: { type: 'string', format: 'uri', maxLength: 2048 },
      events: { type: 'array', minItems: 1, items: ref('WebhookEvent') },
    }),
    data: ref('WebhookCreated'),
  },
  {
    method: 'DELETE',
    path: '/webhooks/{webhook}',
    name: 'webhooks.destroy',
    purpose: 'remove a webhook receiver',
    auth: true,
    key: true,
    tag: 'Webhooks',
    data: obj(['id', 'deleted'], { id: { type: 'string' }, deleted: { type: 'boolean' } }),
  },
  {
    method: 'GET',
    path: '/webhooks/{webhook}/deliveries',
    name: 'webhooks.deliveries.index',
    purpose: 'delivery log of a webhook receiver',
    auth: true,
    tag: 'Webhooks',
    query: paging,
    data: obj(['webhook_id', 'deliveries', 'links', 'meta'], {
      webhook_id: { type: 'string' },
      deliveries: list(ref('Delivery')),
      links: ref('PaginationLinks'),
      meta: ref('PaginationMeta'),
    }),
  },
  {
    method: 'POST',
    path: '/webhooks/{webhook}/deliveries/{delivery}/retry',
    name: 'webhooks.deliveries.retry',
    purpose: 'trigger a logged delivery again',
    auth: true,
    key: true,
    tag: 'Webhooks',
    data: ref('Delivery'),
  },
  {
    method: 'GET',
    path: '/audit-log',
    name: 'audit-log.index',
    purpose: 'audit log with a proof of integrity',
    auth: true,
    tag: 'Audit',
    query: paging,
    data: obj(['entries', 'proof', 'links', 'meta'], {
      entries: list(ref('AuditEntry')),
      proof: ref('AuditProof'),
      links: ref('PaginationLinks'),
      meta: ref('PaginationMeta'),
    }),
  },
];
