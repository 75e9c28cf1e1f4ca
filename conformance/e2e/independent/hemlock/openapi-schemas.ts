// JSON Schemas (2020-12, OpenAPI 3.1's dialect) of the resources, request bodies and envelopes.
import { EVENT_NAMES } from './routes-webhooks.ts';
import { ENVIRONMENTS } from './validate.ts';

type Schema = Record<string, unknown>;
const str = (extra: Schema = {}): Schema => ({ type: 'string', ...extra });
const bool: Schema = { type: 'boolean' };
const int = (extra: Schema = {}): Schema => ({ type: 'integer', ...extra });
const ref = (name: string): Schema => ({ $ref: `#/components/schemas/${name}` });
const obj = (
  properties: Record<string, Schema>,
  required: string[] = Object.keys(properties),
  extra: Schema = {},
): Schema => ({
  type: 'object',
  properties,
  required,
  ...extra,
});
const list = (items: Schema, extra: Schema = {}): Schema => ({ type: 'array', items, ...extra });
const dateTime = str({ format: 'date-time' });
const text = (min: number, max: number): Schema => str({ minLength: min, maxLength: max });

export const STATUS_CODES: Record<string, string[]> = {
  '400': ['invalid_request'],
  '401': ['unauthorized'],
  '403': ['forbidden'],
  '404': ['not_found'],
  '409': ['capability_denied', 'idempotency_conflict'],
  '428': ['idempotency_required'],
  '429': ['rate_limited'],
  '500': ['internal'],
};

export const SCHEMAS: Record<string, Schema> = {
  Environment: str({ enum: ENVIRONMENTS }),
  Meta: obj({ requestId: str(), version: str(), at: dateTime, idempotencyKey: str(), replayed: bool }, [
    'requestId',
    'version',
    'at',
  ]),
  Provider: obj({ id: str(), name: str(), category: str(), summary: str() }),
  Connector: obj({ id: str(), providerId: str(), name: str(), category: str(), capabilities: list(str()) }),
  Capability: obj({ id: str(), label: str(), critical: bool, idempotencyRequired: bool }),
  CapabilityDecision: obj({
    connectorId: str(),
    capability: str(),
    allowed: bool,
    critical: bool,
    idempotencyRequired: bool,
    reason: str(),
  }),
  ConnectionCapability: obj({ capability: str(), critical: bool, idempotencyRequired: bool }),
  Connection: obj({
    id: str({ pattern: '^cn_[0-9A-Za-z]+$' }),
    connectorId: str(),
    environment: ref('Environment'),
    scopeLabel: str(),
    state: str({ enum: ['draft', 'live', 'suspended'] }),
    capabilities: list(ref('ConnectionCapability')),
    nextStep: str({ enum: ['wait_for_activation', 'none', 'contact_support'] }),
    createdAt: dateTime,
  }),
  RouteInfo: obj({ method: str(), path: str(), purpose: str(), auth: bool }),
  IdempotencyKeyResult: obj({
    idempotencyKey: str({ pattern: '^[A-Za-z0-9._:-]{8,128}$' }),
    operation: str(),
    expiresAt: dateTime,
  }),
  Webhook: obj({
    id: str(),
    url: str({ format: 'uri' }),
    events: list(str()),
    state: str({ enum: ['active', 'deleted'] }),
    createdAt: dateTime,
  }),
  WebhookCreated: {
    allOf: [ref('Webhook')],
    type: 'object',
    properties: { signingKey: str({ description: 'issued exactly once: store it at once' }), signatureHeader: str() },
    required: ['signingKey'],
  },
  DeliveryAttempt: obj(
    {
      id: str(),
      webhookId: str(),
      eventId: str(),
      event: str(),
      attempt: int({ minimum: 1 }),
      replayOf: str(),
      status: str({ enum: ['pending', 'succeeded', 'failed'] }),
      responseStatus: int(),
      error: str(),
      attemptedAt: dateTime,
      payload: { type: 'object' },
    },
    ['id', 'webhookId', 'eventId', 'event', 'attempt', 'status', 'attemptedAt', 'payload'],
  ),
  AuditEntry: obj(
    {
      id: str(),
      seq: int({ minimum: 1 }),
      at: dateTime,
      action: str(),
      resourceType: str(),
      resourceId: str(),
      actor: str(),
      idempotencyKey: str(),
      prevHash: str({ pattern: '^[0-9a-f]{64}$' }),
      hash: str({ pattern: '^[0-9a-f]{64}$' }),
    },
    ['id', 'seq', 'at', 'action', 'resourceType', 'resourceId', 'actor', 'prevHash', 'hash'],
  ),
  CapabilityCheckRequest: obj(
    { connectorId: text(2, 120), capability: text(2, 120), environment: { ...ref('Environment'), default: 'sandbox' } },
    ['connectorId', 'capability'],
  ),
  ConnectionCreateRequest: obj(
    {
      connectorId: text(2, 120),
      environment: ref('Environment'),
      scopeLabel: text(2, 120),
      capabilities: list(text(2, 120), { minItems: 1, maxItems: 24 }),
    },
    undefined,
    { additionalProperties: false },
  ),
  IdempotencyKeyRequest: obj({ operation: text(2, 80) }),
  WebhookCreateRequest: obj({
    url: str({ format: 'uri', maxLength: 2048 }),
    events: list(str({ enum: EVENT_NAMES }), { minItems: 1, maxItems: EVENT_NAMES.length }),
  }),
};

/** The failure envelope of one status, its error.code limited to the codes the Errors table pairs with it. */
export function failureSchema(status: string): Schema {
  const error = obj({ code: str({ enum: STATUS_CODES[status] ?? [] }), message: str(), detail: str(), hint: str() }, [
    'code',
    'message',
  ]);
  return obj({ ok: { const: false }, error, meta: ref('Meta') });
}

export function successSchema(data: Schema): Schema {
  return obj({ ok: { const: true }, data, meta: ref('Meta') });
}

/** The `data` schema of each operation's success answer. */
export const DATA: Record<string, Schema> = {
  describeService: obj(
    {
      service: str(),
      surface: str(),
      version: str(),
      authentication: { type: 'object' },
      idempotency: { type: 'object' },
      routes: list(ref('RouteInfo')),
    },
    ['service', 'surface', 'version', 'authentication', 'idempotency', 'routes'],
  ),
  getInfo: obj({
    tenant: str(),
    clientId: str(),
    environment: ref('Environment'),
    purpose: str(),
    expiresAt: { type: ['string', 'null'] },
  }),
  listProviders: obj({ count: int({ minimum: 0 }), providers: list(ref('Provider')) }),
  listConnectors: obj({ count: int({ minimum: 0 }), connectors: list(ref('Connector')) }),
  listCapabilities: obj({ count: int({ minimum: 0 }), capabilities: list(ref('Capability')) }),
  checkCapability: obj({ decision: ref('CapabilityDecision'), environment: ref('Environment') }),
  listConnections: obj({ tenant: str(), count: int({ minimum: 0 }), connections: list(ref('Connection')) }),
  createConnection: ref('Connection'),
  getConnection: ref('Connection'),
  issueIdempotencyKey: ref('IdempotencyKeyResult'),
  createWebhook: ref('WebhookCreated'),
  listWebhooks: obj({ count: int({ minimum: 0 }), webhooks: list(ref('Webhook')) }),
  getWebhook: ref('Webhook'),
  deleteWebhook: obj({ id: str(), deleted: bool }),
  listDeliveryAttempts: obj({ webhookId: str(), count: int({ minimum: 0 }), attempts: list(ref('DeliveryAttempt')) }),
  replayDeliveryAttempt: ref('DeliveryAttempt'),
  getAuditLog: obj(
    {
      tenant: str(),
      count: int({ minimum: 0 }),
      entries: list(ref('AuditEntry')),
      head: str({ pattern: '^[0-9a-f]{64}$' }),
      headSeq: int({ minimum: 0 }),
      headSignature: str({ pattern: '^[0-9a-f]{64}$' }),
      proof: { type: 'object' },
      nextCursor: { type: ['string', 'null'] },
    },
    ['tenant', 'count', 'entries', 'head', 'headSeq', 'headSignature'],
  ),
};

export const BODIES: Record<string, string> = {
  checkCapability: 'CapabilityCheckRequest',
  createConnection: 'ConnectionCreateRequest',
  issueIdempotencyKey: 'IdempotencyKeyRequest',
  createWebhook: 'WebhookCreateRequest',
};
