// JSON Schemas (OpenAPI 3.1 dialect) of tamarack's resources, request bodies and envelopes.
import { ENVIRONMENTS } from './catalog.ts';
import { EVENT_NAMES } from './webhooks.ts';

const str = { type: 'string' };
const bool = { type: 'boolean' };
const int = { type: 'integer' };
const dateTime = { type: 'string', format: 'date-time' };
const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });
const text = (min: number, max: number) => ({ type: 'string', minLength: min, maxLength: max });
const obj = (properties: Record<string, unknown>, required: string[] = Object.keys(properties)) => ({
  type: 'object',
  required,
  properties,
});
const list = (name: string, item: unknown) => obj({ count: int, [name]: { type: 'array', items: item } });

export const SCHEMAS: Record<string, unknown> = {
  Environment: { type: 'string', enum: [...ENVIRONMENTS] },
  Meta: obj({ requestId: str, version: str, at: dateTime, idempotencyKey: str, replayed: bool }, [
    'requestId',
    'version',
    'at',
  ]),
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
        message: str,
        detail: str,
        hint: str,
      },
      ['code', 'message'],
    ),
    meta: ref('Meta'),
  }),
  Provider: obj({ id: str, name: str, category: str, summary: str, website: { type: 'string', format: 'uri' } }, [
    'id',
    'name',
    'category',
    'summary',
  ]),
  Connector: obj(
    { id: str, providerId: str, name: str, category: str, capabilities: { type: 'array', items: str }, status: str },
    ['id', 'providerId', 'name', 'category', 'capabilities'],
  ),
  Capability: obj(
    {
      id: str,
      label: str,
      critical: bool,
      idempotencyRequired: bool,
      restrictedIn: { type: 'array', items: ref('Environment') },
    },
    ['id', 'label', 'critical', 'idempotencyRequired'],
  ),
  CapabilityDecision: obj({
    connectorId: str,
    capability: str,
    allowed: bool,
    critical: bool,
    idempotencyRequired: bool,
    reason: str,
  }),
  Connection: obj(
    {
      id: { type: 'string', format: 'uuid' },
      connectorId: str,
      environment: ref('Environment'),
      scopeLabel: str,
      state: { type: 'string', enum: ['requested', 'provisioning', 'live'] },
      capabilities: { type: 'array', items: obj({ capability: str, critical: bool, idempotencyRequired: bool }) },
      nextStep: str,
      createdAt: dateTime,
      stateChangedAt: dateTime,
    },
    ['id', 'connectorId', 'environment', 'scopeLabel', 'state', 'capabilities', 'nextStep', 'createdAt'],
  ),
  RouteInfo: obj({ method: str, path: str, purpose: str, auth: bool }),
  IdempotencyKeyResult: obj({ idempotencyKey: str, operation: str, expiresAt: dateTime }),
  Webhook: obj(
    {
      id: { type: 'string', format: 'uuid' },
      url: { type: 'string', format: 'uri' },
      events: { type: 'array', items: str },
      state: str,
      createdAt: dateTime,
      signingKeyHint: str,
    },
    ['id', 'url', 'events', 'state', 'createdAt'],
  ),
  Delivery: obj({
    id: str,
    webhookId: str,
    event: str,
    eventId: str,
    status: { type: 'string', enum: ['pending', 'retrying', 'delivered', 'dead'] },
    attemptCount: int,
    attempts: { type: 'array', items: { type: 'object' } },
    nextAttemptAt: { type: ['string', 'null'], format: 'date-time' },
    createdAt: dateTime,
  }),
};

/** The data schema of each operation's success answer, by operationId. */
export const DATA: Record<string, unknown> = {
  describe: obj({
    service: str,
    surface: str,
    version: str,
    authentication: { type: 'object' },
    idempotency: { type: 'object' },
    routes: { type: 'array', items: ref('RouteInfo') },
  }),
  info: { type: 'object' },
  listProviders: list('providers', ref('Provider')),
  listConnectors: list('connectors', ref('Connector')),
  listCapabilities: list('capabilities', ref('Capability')),
  checkCapability: obj({ decision: ref('CapabilityDecision'), environment: ref('Environment') }),
  listConnections: obj({ tenant: str, count: int, connections: { type: 'array', items: ref('Connection') } }),
  createConnection: ref('Connection'),
  getConnection: ref('Connection'),
  createIdempotencyKey: ref('IdempotencyKeyResult'),
  createWebhook: {
    allOf: [ref('Webhook')],
    properties: {
      signingKey: { type: ['string', 'null'], description: 'shown in the first answer only; null in a replay' },
    },
  },
  listWebhooks: list('webhooks', ref('Webhook')),
  getWebhook: ref('Webhook'),
  deleteWebhook: obj({ id: str, state: str, deletedAt: dateTime }),
  listDeliveries: obj({ webhookId: str, count: int, deliveries: { type: 'array', items: ref('Delivery') } }),
  requeueDelivery: obj({ requeuedAt: dateTime, delivery: ref('Delivery') }),
  auditLog: obj(
    {
      tenant: str,
      order: str,
      count: int,
      entries: { type: 'array', items: { type: 'object' } },
      nextPage: str,
      proof: { type: 'object' },
    },
    ['tenant', 'count', 'entries', 'proof'],
  ),
};

/** Request bodies, by operationId. */
export const BODIES: Record<string, unknown> = {
  checkCapability: {
    type: 'object',
    required: ['connectorId', 'capability'],
    properties: {
      connectorId: text(2, 120),
      capability: text(2, 120),
      environment: { ...ref('Environment'), default: 'sandbox' },
    },
  },
  createConnection: {
    type: 'object',
    additionalProperties: false,
    required: ['connectorId', 'environment', 'scopeLabel', 'capabilities'],
    properties: {
      connectorId: text(2, 120),
      environment: ref('Environment'),
      scopeLabel: text(2, 120),
      capabilities: { type: 'array', minItems: 1, maxItems: 24, items: text(2, 120) },
    },
  },
  createIdempotencyKey: { type: 'object', required: ['operation'], properties: { operation: text(2, 80) } },
  createWebhook: {
    type: 'object',
    required: ['url', 'events'],
    properties: {
      url: { type: 'string', format: 'uri', minLength: 8, maxLength: 2048 },
      events: { type: 'array', minItems: 1, maxItems: 20, items: { type: 'string', enum: EVENT_NAMES } },
    },
  },
};
