// The component schemas of wisteria's OpenAPI document: what every answer's data looks like.
import { ENVIRONMENTS } from './catalog.ts';
import { ERROR_STATUS } from './http-kit.ts';
import { WEBHOOK_EVENTS } from './webhooks.ts';

export const str = (min?: number, max?: number) => ({
  type: 'string',
  ...(min === undefined ? {} : { minLength: min, maxLength: max }),
});
export const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });
export const obj = (properties: Record<string, unknown>, required = Object.keys(properties)) => ({
  type: 'object',
  properties,
  required,
});
const list = (name: string, item: string) =>
  obj({ count: { type: 'integer' }, [name]: { type: 'array', items: ref(item) } });
export const time = { type: 'string', format: 'date-time' };
const links = { type: 'object', description: 'HATEOAS links' };
const pageMeta = obj({
  number: { type: 'integer' },
  size: { type: 'integer' },
  totalElements: { type: 'integer' },
  totalPages: { type: 'integer' },
});

export const SCHEMAS: Record<string, unknown> = {
  Environment: { type: 'string', enum: [...ENVIRONMENTS] },
  Meta: obj({ requestId: str(), version: str(), at: time, idempotencyKey: str(), replayed: { type: 'boolean' } }, [
    'requestId',
    'version',
    'at',
  ]),
  Error: obj({
    ok: { const: false },
    error: obj(
      { code: { type: 'string', enum: Object.keys(ERROR_STATUS) }, message: str(), detail: str(), hint: str() },
      ['code', 'message'],
    ),
    meta: ref('Meta'),
  }),
  Description: obj({
    service: str(),
    surface: str(),
    version: str(),
    authentication: { type: 'object' },
    idempotency: { type: 'object' },
    routes: { type: 'array', items: ref('RouteInfo') },
  }),
  RouteInfo: obj({ method: str(), path: str(), purpose: str(), auth: { type: 'boolean' } }),
  Provider: obj({ id: str(), name: str(), category: str(), summary: str() }),
  Connector: obj({
    id: str(),
    providerId: str(),
    name: str(),
    category: str(),
    capabilities: { type: 'array', items: str() },
  }),
  Capability: obj({ id: str(), label: str(), critical: { type: 'boolean' }, idempotencyRequired: { type: 'boolean' } }),
  ProviderList: list('providers', 'Provider'),
  ConnectorList: list('connectors', 'Connector'),
  CapabilityList: list('capabilities', 'Capability'),
  CapabilityCheck: {
    ...obj({ connectorId: str(2, 120), capability: str(2, 120), environment: ref('Environment') }, [
      'connectorId',
      'capability',
    ]),
    additionalProperties: false,
  },
  CapabilityDecision: obj({
    connectorId: str(),
    capability: str(),
    allowed: { type: 'boolean' },
    critical: { type: 'boolean' },
    idempotencyRequired: { type: 'boolean' },
    reason: str(),
  }),
  CapabilityCheckResult: obj({ decision: ref('CapabilityDecision'), environment: ref('Environment') }),
  ConnectionCreate: {
    ...obj({
      connectorId: str(2, 120),
      environment: ref('Environment'),
      scopeLabel: str(2, 120),
      capabilities: { type: 'array', minItems: 1, maxItems: 24, items: str(2, 120) },
    }),
    additionalProperties: false,
  },
  Connection: obj(
    {
      id: str(),
      connectorId: str(),
      environment: ref('Environment'),
      scopeLabel: str(),
      state: { type: 'string', enum: ['PENDING', 'ACTIVE'] },
      capabilities: {
        type: 'array',
        items: obj({ capability: str(), critical: { type: 'boolean' }, idempotencyRequired: { type: 'boolean' } }),
      },
      nextStep: { type: 'string', enum: ['AWAIT_ACTIVATION', 'NONE'] },
      createdAt: time,
      updatedAt: time,
      _links: links,
    },
    ['id', 'connectorId', 'environment', 'scopeLabel', 'state', 'capabilities', 'nextStep', 'createdAt'],
  ),
  ConnectionList: obj({
    tenant: str(),
    count: { type: 'integer' },
    connections: { type: 'array', items: ref('Connection') },
  }),
  IdempotencyKeyCreate: { ...obj({ operation: str(2, 80) }), additionalProperties: false },
  IdempotencyKey: obj({
    idempotencyKey: { type: 'string', pattern: '^[A-Za-z0-9._:-]{8,128}$' },
    operation: str(),
    expiresAt: time,
  }),
  WebhookCreate: obj({
    url: { type: 'string', format: 'uri', maxLength: 2048 },
    events: { type: 'array', minItems: 1, items: { type: 'string', enum: WEBHOOK_EVENTS } },
  }),
  Webhook: obj({
    id: str(),
    url: str(),
    events: { type: 'array', items: str() },
    status: str(),
    createdAt: time,
    _links: links,
  }),
  WebhookCreated: {
    allOf: [
      ref('Webhook'),
      obj({ signingKey: { type: 'string', description: 'HMAC key, shown in this answer only' } }),
    ],
  },
  WebhookList: list('webhooks', 'Webhook'),
  WebhookDeleted: obj({ id: str(), status: str() }),
  Delivery: obj({
    id: str(),
    webhookId: str(),
    eventId: str(),
    event: str(),
    status: { type: 'string', enum: ['PENDING', 'RETRYING', 'SUCCEEDED', 'FAILED'] },
    attempts: { type: 'integer' },
    responseStatus: { type: ['integer', 'null'] },
    error: { type: ['string', 'null'] },
    redeliveryOf: { type: ['string', 'null'] },
    createdAt: time,
    lastAttemptAt: { type: ['string', 'null'], format: 'date-time' },
  }),
  DeliveryPage: obj({ content: { type: 'array', items: ref('Delivery') }, page: pageMeta }),
  AuditEntry: obj({
    seq: { type: 'integer' },
    at: time,
    tenant: str(),
    actor: str(),
    action: str(),
    resourceType: str(),
    resourceId: str(),
    detail: { type: 'object' },
    previousHash: str(64, 64),
    hash: str(64, 64),
  }),
  AuditPage: obj({
    tenant: str(),
    content: { type: 'array', items: ref('AuditEntry') },
    page: pageMeta,
    proof: obj({
      alg: { const: 'PS256' },
      kid: str(),
      jwksUri: { type: 'string', format: 'uri' },
      hashAlgorithm: str(),
      chain: str(),
      payload: obj({
        tenant: str(),
        fromSeq: { type: 'integer' },
        toSeq: { type: 'integer' },
        entryHashes: { type: 'array', items: str() },
      }),
      signature: str(),
    }),
    _links: links,
  }),
  Info: obj({ tenant: str(), clientId: str(), environment: ref('Environment'), tokenExpiresAt: time }),
};
