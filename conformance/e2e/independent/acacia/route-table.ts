// The experience API's resource table, RAML-first: one row per method and resource, read by the router, the
// self-description and the OpenAPI document alike (so the three never disagree).
export interface RouteDef {
  operationId: string;
  method: 'GET' | 'POST' | 'DELETE';
  path: string;
  purpose: string;
  auth: boolean;
  /** Idempotency-Key: required ("yes + key"), honoured when sent, or not read. */
  key: 'required' | 'optional' | 'none';
  /** Component schema of the JSON body, where there is one. */
  body?: string;
  /** Component schema of `data` in the 200 answer. */
  data: string;
  query?: { name: string; schema: Record<string, unknown>; description: string }[];
  /** Served from 2026-07-01 on (the delivery log). */
  since?: string;
}

const P = '/api/public/v1';
const str = { type: 'string' };

export const ROUTES: RouteDef[] = [
  {
    operationId: 'getSelfDescription',
    method: 'GET',
    path: P,
    purpose: 'self-description',
    auth: false,
    key: 'none',
    data: 'SelfDescription',
  },
  {
    operationId: 'getOpenApi',
    method: 'GET',
    path: `${P}/openapi.json`,
    purpose: 'OpenAPI 3.1 document',
    auth: false,
    key: 'none',
    data: 'OpenApiDocument',
  },
  {
    operationId: 'listProviders',
    method: 'GET',
    path: `${P}/providers`,
    purpose: 'list providers',
    auth: true,
    key: 'none',
    data: 'ProviderList',
    query: [{ name: 'category', schema: str, description: 'restricts to one category' }],
  },
  {
    operationId: 'listConnectors',
    method: 'GET',
    path: `${P}/connectors`,
    purpose: 'list connectors',
    auth: true,
    key: 'none',
    data: 'ConnectorList',
    query: [
      { name: 'capability', schema: str, description: 'connectors offering this capability' },
      { name: 'providerId', schema: str, description: 'connectors of this provider' },
      { name: 'category', schema: str, description: 'connectors of this category' },
    ],
  },
  {
    operationId: 'listCapabilities',
    method: 'GET',
    path: `${P}/capabilities`,
    purpose: 'capability catalog',
    auth: true,
    key: 'none',
    data: 'CapabilityList',
  },
  {
    operationId: 'checkCapability',
    method: 'POST',
    path: `${P}/capabilities`,
    purpose: 'check a capability of a connector',
    auth: true,
    key: 'optional',
    body: 'CapabilityCheck',
    data: 'CapabilityCheckResult',
  },
  {
    operationId: 'listConnections',
    method: 'GET',
    path: `${P}/connections`,
    purpose: 'connections of the tenant',
    auth: true,
    key: 'none',
    data: 'ConnectionList',
  },
  {
    operationId: 'createConnection',
    method: 'POST',
    path: `${P}/connections`,
    purpose: 'create a connection',
    auth: true,
    key: 'required',
    body: 'ConnectionCreate',
    data: 'Connection',
  },
  {
    operationId: 'createIdempotencyKey',
    method: 'POST',
    path: `${P}/idempotency-keys`,
    purpose: 'generate an idempotency key',
    auth: true,
    key: 'optional',
    body: 'IdempotencyKeyRequest',
    data: 'IdempotencyKeyResult',
  },
  {
    operationId: 'getStream',
    method: 'GET',
    path: `${P}/stream`,
    purpose: 'status stream (Server-Sent Events)',
    auth: false,
    key: 'none',
    data: 'StreamMessage',
    query: [{ name: 'cursor', schema: { type: 'integer', minimum: 0 }, description: 'last number read' }],
  },
  {
    operationId: 'createWebhook',
    method: 'POST',
    path: `${P}/webhooks`,
    purpose: 'create a webhook receiver',
    auth: true,
    key: 'required',
    body: 'WebhookCreate',
    data: 'Webhook',
  },
  {
    operationId: 'getAuditLog',
    method: 'GET',
    path: `${P}/audit-log`,
    purpose: 'audit log with proof of integrity',
    auth: true,
    key: 'none',
    data: 'AuditLog',
    query: [
      {
        name: 'limit',
        schema: { type: 'integer', minimum: 1, maximum: 500, default: 50 },
        description: 'number of entries',
      },
      {
        name: 'beforeSequence',
        schema: { type: 'integer', minimum: 0 },
        description: 'page (newest first): entries older than this sequence',
      },
      {
        name: 'afterSequence',
        schema: { type: 'integer', minimum: 0 },
        description: 'page (oldest first, where so configured): entries newer than this sequence',
      },
    ],
  },
  {
    operationId: 'getInfo',
    method: 'GET',
    path: `${P}/info`,
    purpose: 'who is calling: client, tenant, environment, SLA tier',
    auth: true,
    key: 'none',
    data: 'Info',
  },
  {
    operationId: 'deleteWebhook',
    method: 'DELETE',
    path: `${P}/webhooks/{webhookId}`,
    purpose: 'remove a webhook receiver',
    auth: true,
    key: 'required',
    data: 'WebhookRemoved',
  },
  {
    operationId: 'listDeliveryAttempts',
    method: 'GET',
    path: `${P}/webhooks/{webhookId}/delivery-attempts`,
    purpose: 'delivery log of a webhook receiver',
    auth: true,
    key: 'none',
    data: 'DeliveryLog',
    since: '2026-07-01',
    query: [
      {
        name: 'status',
        schema: { type: 'string', enum: ['queued', 'delivered', 'retrying', 'dead-lettered'] },
        description: 'only deliveries in this status',
      },
    ],
  },
  {
    operationId: 'replayDeliveryAttempt',
    method: 'POST',
    path: `${P}/webhooks/{webhookId}/delivery-attempts/{deliveryId}/replay`,
    purpose: 'trigger a logged delivery again',
    auth: true,
    key: 'required',
    data: 'Delivery',
    since: '2026-07-01',
  },
];

/** Matches a concrete path against the table's templates; returns the route rows of that path and its parameters. */
export function matchPath(path: string): { rows: RouteDef[]; params: Record<string, string> } | undefined {
  for (const r of ROUTES) {
    const names: string[] = [];
    const re = new RegExp(
      `^${r.path.replace(/[.]/g, '\\.').replace(/\{(\w+)\}/g, (_, n: string) => {
        names.push(n);
        return '([^/]+)';
      })}$`,
    );
    const m = re.exec(path);
    if (!m) continue;
    const params: Record<string, string> = {};
    names.forEach((n, i) => {
      const raw = m[i + 1] ?? '';
      try {
        params[n] = decodeURIComponent(raw);
      } catch {
        params[n] = raw;
      }
    });
    return { rows: ROUTES.filter((x) => x.path === r.path), params };
  }
  return undefined;
}
