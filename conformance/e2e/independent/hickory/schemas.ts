// Component schemas of the OpenAPI document: the envelopes, the contract's resources and hickory's own
// records (webhooks, their event log, the audit log). Further fields are allowed everywhere but the bodies.
const str = { type: 'string' };
const bool = { type: 'boolean' };
const int = { type: 'integer' };
const time = { type: 'string', format: 'date-time' };
const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });
const obj = (properties: Record<string, unknown>, required = Object.keys(properties)) => ({
  type: 'object',
  properties,
  required,
});
const list = (name: string, item: unknown) => obj({ count: int, [name]: { type: 'array', items: item } });

export const SCHEMAS: Record<string, unknown> = {
  Meta: obj({ requestId: str, version: str, at: time, idempotencyKey: str, replayed: bool }, [
    'requestId',
    'version',
    'at',
  ]),
  Failure: obj({
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
        message: str,
        detail: str,
        hint: str,
      },
      ['code', 'message'],
    ),
    meta: ref('Meta'),
  }),
  Environment: { type: 'string', enum: ['development', 'sandbox', 'pilot', 'production'] },
  Provider: obj({ id: str, name: str, category: str, summary: str }),
  Connector: obj({ id: str, providerId: str, name: str, category: str, capabilities: { type: 'array', items: str } }),
  Capability: obj({ id: str, label: str, critical: bool, idempotencyRequired: bool }),
  CapabilityDecision: obj({
    connectorId: str,
    capability: str,
    allowed: bool,
    critical: bool,
    idempotencyRequired: bool,
    reason: str,
  }),
  Connection: obj({
    id: str,
    connectorId: str,
    environment: ref('Environment'),
    scopeLabel: str,
    state: { type: 'string', enum: ['created', 'active', 'suspended'] },
    capabilities: { type: 'array', items: obj({ capability: str, critical: bool, idempotencyRequired: bool }) },
    nextStep: str,
    createdAt: time,
  }),
  RouteInfo: obj({ method: str, path: str, purpose: str, auth: bool }),
  IdempotencyKeyResult: obj({ idempotencyKey: str, operation: str, expiresAt: time }),
  Webhook: obj({ id: str, url: str, events: { type: 'array', items: str }, state: str, createdAt: time }),
  DeliveryAttempt: obj({
    attempt_id: str,
    status: { type: 'string', enum: ['pending', 'delivered', 'failed'] },
    at: time,
  }),
  WebhookEvent: obj({
    event_id: str,
    type: str,
    created_at: time,
    delivery_attempts: { type: 'array', items: ref('DeliveryAttempt') },
  }),
  AuditEntry: obj({ id: str, sequence: int, at: time, action: str, actor: str, kid: str, signature: str }),
};

const DATA: Record<string, unknown> = {
  describe: obj({
    service: str,
    surface: str,
    version: str,
    authentication: { type: 'object' },
    idempotency: { type: 'object' },
    routes: { type: 'array', items: ref('RouteInfo') },
  }),
  info: obj({ tenant: str, clientId: str, environment: str }),
  listProviders: list('providers', ref('Provider')),
  listConnectors: list('connectors', ref('Connector')),
  listCapabilities: list('capabilities', ref('Capability')),
  checkCapability: obj({ decision: ref('CapabilityDecision'), environment: ref('Environment') }),
  listConnections: obj({ tenant: str, count: int, connections: { type: 'array', items: ref('Connection') } }),
  createConnection: ref('Connection'),
  createIdempotencyKey: ref('IdempotencyKeyResult'),
  listWebhooks: list('webhooks', ref('Webhook')),
  createWebhook: {
    allOf: [ref('Webhook'), obj({ signingKey: { type: 'string', description: 'shown in this answer only' } })],
  },
  deleteWebhook: obj({ id: str, deleted: bool }),
  listWebhookEvents: list('events', ref('WebhookEvent')),
  replayWebhookEvent: obj({ event_id: str, attempt_id: str, status: str }),
  auditLog: obj(
    {
      count: int,
      entries: { type: 'array', items: ref('AuditEntry') },
      next: { type: ['string', 'null'] },
      links: obj({ next: { type: ['string', 'null'] } }),
      integrity: { type: 'object' },
    },
    ['count', 'entries', 'integrity'],
  ),
};

/** The success envelope of an operation, with its data schema. */
export function data(operationId: string): Record<string, unknown> {
  return obj({ ok: { const: true }, data: DATA[operationId] ?? { type: 'object' }, meta: ref('Meta') });
}
