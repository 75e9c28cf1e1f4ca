// The schemas of aspen's OpenAPI document, hand-written to match what the handlers accept and answer
// (strict request bodies: additionalProperties false), keyed by route id for bodies and answer data.
import { ENVIRONMENTS } from './catalog.ts';
import { EVENT_NAMES } from './webhooks.ts';

export const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });
const str = (min?: number, max?: number) => ({
  type: 'string',
  ...(min === undefined ? {} : { minLength: min, maxLength: max }),
});
export const obj = (properties: Record<string, unknown>, required: string[], strict = false) => ({
  type: 'object',
  properties,
  required,
  ...(strict ? { additionalProperties: false } : {}),
});
const list = (name: string, item: unknown) =>
  obj({ count: { type: 'integer', minimum: 0 }, [name]: { type: 'array', items: item } }, ['count', name]);

export const schemas: Record<string, unknown> = {
  Environment: { type: 'string', enum: ENVIRONMENTS },
  Meta: obj(
    {
      requestId: str(),
      version: str(),
      at: { type: 'string', format: 'date-time' },
      idempotencyKey: str(),
      replayed: { type: 'boolean' },
    },
    ['requestId', 'version', 'at'],
  ),
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
          message: str(),
          detail: str(),
          hint: str(),
        },
        ['code', 'message'],
      ),
      meta: ref('Meta'),
    },
    ['ok', 'error', 'meta'],
  ),
  Provider: obj({ id: str(), name: str(), category: str(), summary: str(), country: str() }, [
    'id',
    'name',
    'category',
    'summary',
  ]),
  Connector: obj(
    {
      id: str(),
      providerId: str(),
      name: str(),
      category: str(),
      capabilities: { type: 'array', items: str() },
      status: str(),
    },
    ['id', 'providerId', 'name', 'category', 'capabilities'],
  ),
  Capability: obj(
    {
      id: str(),
      label: str(),
      critical: { type: 'boolean' },
      idempotencyRequired: { type: 'boolean' },
      environments: { type: 'array', items: ref('Environment') },
    },
    ['id', 'label', 'critical', 'idempotencyRequired'],
  ),
  CapabilityDecision: obj(
    {
      connectorId: str(),
      capability: str(),
      allowed: { type: 'boolean' },
      critical: { type: 'boolean' },
      idempotencyRequired: { type: 'boolean' },
      reason: str(),
    },
    ['connectorId', 'capability', 'allowed', 'critical', 'idempotencyRequired', 'reason'],
  ),
  Connection: obj(
    {
      id: { type: 'string', pattern: '^[0-9A-HJKMNP-TV-Z]{26}$', description: 'ULID' },
      connectorId: str(),
      environment: ref('Environment'),
      scopeLabel: str(),
      state: { type: 'string', enum: ['pending_review', 'active', 'suspended'] },
      capabilities: {
        type: 'array',
        items: obj({ capability: str(), critical: { type: 'boolean' }, idempotencyRequired: { type: 'boolean' } }, [
          'capability',
          'critical',
          'idempotencyRequired',
        ]),
      },
      nextStep: str(),
      createdAt: { type: 'string', format: 'date-time' },
      stateChangedAt: { type: 'string', format: 'date-time' },
    },
    ['id', 'connectorId', 'environment', 'scopeLabel', 'state', 'capabilities', 'nextStep', 'createdAt'],
  ),
  RouteInfo: obj({ method: str(), path: str(), purpose: str(), auth: { type: 'boolean' } }, [
    'method',
    'path',
    'purpose',
    'auth',
  ]),
  IdempotencyKeyResult: obj(
    { idempotencyKey: str(8, 128), operation: str(), expiresAt: { type: 'string', format: 'date-time' } },
    ['idempotencyKey', 'operation', 'expiresAt'],
  ),
  Webhook: obj(
    {
      id: str(),
      url: str(),
      events: { type: 'array', items: str() },
      status: str(),
      createdAt: { type: 'string', format: 'date-time' },
    },
    ['id', 'url', 'events', 'status', 'createdAt'],
  ),
  Delivery: {
    type: 'object',
    required: ['id', 'webhookId', 'eventId', 'event', 'status'],
    properties: {
      id: str(),
      webhookId: str(),
      eventId: str(),
      event: str(),
      status: { type: 'string', enum: ['pending', 'delivered', 'failed'] },
    },
  },
};

export const bodies: Record<string, unknown> = {
  'capability-check': obj(
    { connectorId: str(2, 120), capability: str(2, 120), environment: { ...ref('Environment'), default: 'sandbox' } },
    ['connectorId', 'capability'],
    true,
  ),
  'connection-create': obj(
    {
      connectorId: str(2, 120),
      environment: ref('Environment'),
      scopeLabel: str(2, 120),
      capabilities: { type: 'array', minItems: 1, maxItems: 24, items: str(2, 120) },
    },
    ['connectorId', 'environment', 'scopeLabel', 'capabilities'],
    true,
  ),
  'idempotency-keys': obj({ operation: str(2, 80) }, ['operation'], true),
  'webhook-create': obj(
    {
      url: { type: 'string', format: 'uri' },
      events: {
        type: 'array',
        minItems: 1,
        maxItems: 20,
        uniqueItems: true,
        items: { type: 'string', enum: EVENT_NAMES },
      },
    },
    ['url', 'events'],
    true,
  ),
};

export const data: Record<string, unknown> = {
  self: obj(
    {
      service: str(),
      surface: str(),
      version: str(),
      authentication: { type: 'object' },
      idempotency: { type: 'object' },
      routes: { type: 'array', items: ref('RouteInfo') },
    },
    ['service', 'surface', 'version', 'authentication', 'idempotency', 'routes'],
  ),
  providers: list('providers', ref('Provider')),
  connectors: list('connectors', ref('Connector')),
  capabilities: list('capabilities', ref('Capability')),
  'capability-check': obj({ decision: ref('CapabilityDecision'), environment: ref('Environment') }, [
    'decision',
    'environment',
  ]),
  connections: obj(
    { tenant: str(), count: { type: 'integer' }, connections: { type: 'array', items: ref('Connection') } },
    ['tenant', 'count', 'connections'],
  ),
  'connection-create': ref('Connection'),
  'idempotency-keys': ref('IdempotencyKeyResult'),
  'webhook-create': obj({ webhook: ref('Webhook'), signingKey: { type: 'string', description: 'shown once' } }, [
    'webhook',
    'signingKey',
  ]),
  'webhook-delete': obj({ webhook: ref('Webhook') }, ['webhook']),
  deliveries: obj(
    { webhookId: str(), count: { type: 'integer' }, deliveries: { type: 'array', items: ref('Delivery') } },
    ['webhookId', 'count', 'deliveries'],
  ),
  redeliver: obj({ delivery: ref('Delivery') }, ['delivery']),
  'audit-log': obj(
    {
      count: { type: 'integer' },
      entries: { type: 'array', items: { type: 'object' } },
      merkleRoot: str(),
      treeSize: { type: 'integer' },
    },
    ['count', 'entries', 'merkleRoot', 'treeSize'],
  ),
  info: { type: 'object' },
};
