// Component schemas of the OpenAPI document, written by hand from the interface's resource tables.
const str = { type: 'string' };
const bool = { type: 'boolean' };
const int = { type: 'integer', minimum: 0 };
const time = { type: 'string', format: 'date-time' };
const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });
const list = (item: unknown) => ({ type: 'array', items: item });
export const ENV_ENUM = ['development', 'sandbox', 'pilot', 'production'];

function obj(properties: Record<string, unknown>, required: string[] = Object.keys(properties)) {
  return { type: 'object', properties, required };
}

export const SCHEMAS: Record<string, unknown> = {
  Meta: obj({ requestId: str, version: str, at: time, idempotencyKey: str, replayed: bool }, [
    'requestId',
    'version',
    'at',
  ]),
  Error: obj(
    {
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
          message: str,
          detail: str,
          hint: str,
        },
        ['code', 'message'],
      ),
      meta: ref('Meta'),
    },
    ['ok', 'error', 'meta'],
  ),
  Environment: { type: 'string', enum: ENV_ENUM },
  Provider: obj({ id: str, name: str, category: str, summary: str }),
  Connector: obj({ id: str, providerId: str, name: str, category: str, capabilities: list(str) }),
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
    id: { type: 'string', pattern: '^[0-9]+$' },
    connectorId: str,
    environment: ref('Environment'),
    scopeLabel: str,
    state: { type: 'string', description: 'draft, enabled or disabled' },
    capabilities: list(obj({ capability: str, critical: bool, idempotencyRequired: bool })),
    nextStep: str,
    createdAt: time,
  }),
  RouteInfo: obj({ method: str, path: str, purpose: str, auth: bool }),
  IdempotencyKeyResult: obj({ idempotencyKey: str, operation: str, expiresAt: time }),
  ServiceDescription: obj({
    service: str,
    surface: str,
    version: str,
    authentication: { type: 'object' },
    idempotency: { type: 'object' },
    routes: list(ref('RouteInfo')),
  }),
  ProviderList: obj({ count: int, providers: list(ref('Provider')) }),
  ConnectorList: obj({ count: int, connectors: list(ref('Connector')) }),
  CapabilityList: obj({ count: int, capabilities: list(ref('Capability')) }),
  CapabilityCheckResult: obj({ decision: ref('CapabilityDecision'), environment: ref('Environment') }),
  ConnectionList: obj({ tenant: str, count: int, connections: list(ref('Connection')) }),
  Webhook: obj({ id: str, url: str, events: list(str), status: str, createdAt: time }),
  WebhookCreated: obj({
    id: str,
    url: str,
    events: list(str),
    status: str,
    createdAt: time,
    signingKey: { type: 'string', description: 'shown in this answer only' },
  }),
  WebhookDeleted: obj({ id: str, deleted: bool }),
  WebhookAttempt: obj(
    {
      id: str,
      eventId: str,
      event: str,
      trigger: { type: 'string', enum: ['automatic', 'retry', 'resend'] },
      status: { type: 'string', enum: ['pending', 'succeeded', 'failed'] },
      responseStatus: { type: ['integer', 'null'] },
      error: str,
      attemptedAt: time,
    },
    ['id', 'eventId', 'event', 'trigger', 'status', 'responseStatus', 'attemptedAt'],
  ),
  WebhookAttemptList: obj({ webhookId: str, count: int, attempts: list(ref('WebhookAttempt')) }),
  WebhookResend: obj({ webhookId: str, resentFrom: str, attempt: ref('WebhookAttempt') }),
  AuditEntry: obj({
    id: str,
    sequence: int,
    event: str,
    subjectType: str,
    subjectId: str,
    actor: str,
    requestId: str,
    at: time,
    prevHash: str,
    hash: str,
  }),
  AuditPage: obj({
    data: list(ref('AuditEntry')),
    links: obj({ first: str, last: str, prev: { type: ['string', 'null'] }, next: { type: ['string', 'null'] } }),
    meta: obj({
      current_page: int,
      from: { type: ['integer', 'null'] },
      last_page: int,
      path: str,
      per_page: int,
      to: { type: ['integer', 'null'] },
      total: int,
    }),
    proof: {
      type: 'object',
      description: 'HMAC-SHA256 chain: algorithm, keyId, fields, separator, genesis, chainHead',
    },
  }),
  Info: obj({ client: str, tenant: str, environment: ref('Environment'), tokenExpiresAt: time, purpose: str }),
};

/** Request bodies, with the interface's limits. */
export const BODIES: Record<string, unknown> = {
  checkCapability: obj(
    {
      connectorId: { type: 'string', minLength: 2, maxLength: 120 },
      capability: { type: 'string', minLength: 2, maxLength: 120 },
      environment: { ...ref('Environment'), default: 'sandbox' },
    },
    ['connectorId', 'capability'],
  ),
  createConnection: obj({
    connectorId: { type: 'string', minLength: 2, maxLength: 120 },
    environment: ref('Environment'),
    scopeLabel: { type: 'string', minLength: 2, maxLength: 120 },
    capabilities: { type: 'array', minItems: 1, maxItems: 24, items: { type: 'string', minLength: 2, maxLength: 120 } },
  }),
  createIdempotencyKey: obj({ operation: { type: 'string', minLength: 2, maxLength: 80 } }),
  createWebhook: obj({
    url: { type: 'string', format: 'uri', maxLength: 2048 },
    events: {
      type: 'array',
      minItems: 1,
      items: {
        type: 'string',
        enum: ['connection.created', 'connection.enabled', 'connection.disabled', 'order.created', 'order.paid'],
      },
    },
  }),
};

/** The success data schema of each operation. */
export const DATA: Record<string, string> = {
  describeService: 'ServiceDescription',
  getInfo: 'Info',
  listProviders: 'ProviderList',
  listConnectors: 'ConnectorList',
  listCapabilities: 'CapabilityList',
  checkCapability: 'CapabilityCheckResult',
  listConnections: 'ConnectionList',
  createConnection: 'Connection',
  showConnection: 'Connection',
  createIdempotencyKey: 'IdempotencyKeyResult',
  createWebhook: 'WebhookCreated',
  showWebhook: 'Webhook',
  deleteWebhook: 'WebhookDeleted',
  listWebhookAttempts: 'WebhookAttemptList',
  resendWebhookAttempt: 'WebhookResend',
  getAuditLog: 'AuditPage',
};
