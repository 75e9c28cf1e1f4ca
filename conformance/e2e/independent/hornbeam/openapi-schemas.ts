// Component schemas of hornbeam's OpenAPI document (JSON Schema 2020-12), written by hand.
import { CURRENT_VERSION } from './util.ts';
import { WEBHOOK_EVENTS } from './webhooks.ts';

const str = { type: 'string' };
const bool = { type: 'boolean' };
const int = { type: 'integer', minimum: 0 };
const dt = { type: 'string', format: 'date-time' };
const ENV = { type: 'string', enum: ['development', 'sandbox', 'pilot', 'production'] };
const text = (max: number) => ({ type: 'string', minLength: 2, maxLength: max });
const obj = (properties: Record<string, unknown>, required = Object.keys(properties)) => ({
  type: 'object',
  properties,
  required,
});
const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });
const list = (name: string, item: unknown) => obj({ count: int, [name]: { type: 'array', items: item } });

export const CODES = [
  'unauthorized',
  'forbidden',
  'not_found',
  'invalid_request',
  'capability_denied',
  'idempotency_conflict',
  'idempotency_required',
  'rate_limited',
  'internal',
];

const webhook = obj({ id: str, url: str, events: { type: 'array', items: str }, active: bool, createdAt: dt });
const delivery = obj({
  id: str,
  webhookId: str,
  eventId: str,
  event: str,
  status: { type: 'string', enum: ['pending', 'delivered', 'failed'] },
  attempts: {
    type: 'array',
    items: obj({ at: dt, responseStatus: { type: ['integer', 'null'] }, outcome: str }),
  },
  createdAt: dt,
  retriggerOf: { type: ['string', 'null'] },
});

export const SCHEMAS: Record<string, unknown> = {
  Meta: obj(
    {
      requestId: str,
      version: { type: 'string', examples: [CURRENT_VERSION] },
      at: dt,
      idempotencyKey: str,
      replayed: bool,
    },
    ['requestId', 'version', 'at'],
  ),
  Failure: obj({
    ok: { type: 'boolean', const: false },
    error: obj({ code: { type: 'string', enum: CODES }, message: str, detail: str, hint: str }, ['code', 'message']),
    meta: ref('Meta'),
  }),
  Provider: obj({ id: str, name: str, category: str, summary: str, homepage: str }, [
    'id',
    'name',
    'category',
    'summary',
  ]),
  Connector: obj(
    {
      id: str,
      providerId: str,
      name: str,
      category: str,
      capabilities: { type: 'array', items: str },
      region: str,
    },
    ['id', 'providerId', 'name', 'category', 'capabilities'],
  ),
  Capability: obj({ id: str, label: str, critical: bool, idempotencyRequired: bool, scope: str }, [
    'id',
    'label',
    'critical',
    'idempotencyRequired',
  ]),
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
    environment: ENV,
    scopeLabel: str,
    state: { type: 'string', enum: ['queued', 'live'] },
    capabilities: { type: 'array', items: obj({ capability: str, critical: bool, idempotencyRequired: bool }) },
    nextStep: str,
    createdAt: dt,
  }),
  RouteInfo: obj({ method: str, path: str, purpose: str, auth: bool }),
  SelfDescription: obj({
    service: str,
    surface: str,
    version: str,
    authentication: { type: 'object' },
    idempotency: { type: 'object' },
    routes: { type: 'array', items: ref('RouteInfo') },
  }),
  Info: obj({ tenant: str, clientId: str, environment: ENV, tokenExpiresAt: dt, purpose: str, owner: str }, [
    'tenant',
    'clientId',
    'environment',
  ]),
  ProviderList: list('providers', ref('Provider')),
  ConnectorList: list('connectors', ref('Connector')),
  CapabilityList: list('capabilities', ref('Capability')),
  DecisionResult: obj({ decision: ref('CapabilityDecision'), environment: ENV }),
  ConnectionList: obj({ tenant: str, count: int, connections: { type: 'array', items: ref('Connection') } }),
  KeyResult: obj({ idempotencyKey: str, operation: str, expiresAt: dt }),
  Webhook: webhook,
  WebhookCreated: obj({ ...webhook.properties, secret: str, signatureHeader: str }, [
    'id',
    'url',
    'events',
    'active',
    'createdAt',
    'secret',
  ]),
  WebhookList: list('webhooks', ref('Webhook')),
  WebhookDeleted: obj({ id: str, deleted: bool }),
  Delivery: delivery,
  DeliveryLog: obj({ webhookId: str, count: int, deliveries: { type: 'array', items: ref('Delivery') } }),
  Retriggered: obj({ delivery: ref('Delivery') }),
  AuditLog: obj({
    tenant: str,
    count: int,
    order: str,
    entries: {
      type: 'array',
      items: obj(
        {
          id: str,
          seq: { type: 'integer', minimum: 1 },
          at: dt,
          action: str,
          resourceType: str,
          resourceId: str,
          actor: str,
          requestId: str,
          idempotencyKey: str,
          leafIndex: int,
          leafHash: str,
          auditPath: { type: 'array', items: str },
        },
        ['id', 'seq', 'at', 'action', 'resourceType', 'resourceId', 'leafIndex', 'leafHash', 'auditPath'],
      ),
    },
    proof: obj({
      type: str,
      standard: str,
      hashAlgorithm: str,
      leafEncoding: str,
      treeSize: int,
      rootHash: str,
    }),
    next: { type: ['string', 'null'] },
  }),
  CheckBody: obj({ connectorId: text(120), capability: text(120), environment: { ...ENV, default: 'sandbox' } }, [
    'connectorId',
    'capability',
  ]),
  CreateBody: obj({
    connectorId: text(120),
    environment: ENV,
    scopeLabel: text(120),
    capabilities: { type: 'array', minItems: 1, maxItems: 24, items: text(120) },
  }),
  KeyBody: obj({ operation: text(80) }),
  WebhookBody: obj({
    url: { type: 'string', format: 'uri', maxLength: 2048 },
    events: { type: 'array', minItems: 1, maxItems: 20, items: { type: 'string', enum: WEBHOOK_EVENTS } },
  }),
};
