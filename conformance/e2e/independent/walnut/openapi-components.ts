// components of the OpenAPI document, named the way drf-spectacular names them (Serializer names,
// `...Request` for write serializers, `Paginated...List`, `...Enum`), reused everywhere through $ref.
import { CURRENT_VERSION } from './core.ts';
import { ENVIRONMENTS } from './validate.ts';
import { EVENTS } from './webhooks.ts';

const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });
const str = { type: 'string' };
const dt = { type: 'string', format: 'date-time' };
const uuid = { type: 'string', format: 'uuid', readOnly: true };
const bool = { type: 'boolean' };
const int = { type: 'integer' };
const text = (min: number, max: number) => ({ type: 'string', minLength: min, maxLength: max });
const obj = (properties: Record<string, unknown>, required = Object.keys(properties)) => ({
  type: 'object',
  properties,
  required,
});
const list = (name: string, item: string) => obj({ count: int, [name]: { type: 'array', items: ref(item) } });
const paginated = (item: string) =>
  obj({
    count: { type: 'integer', example: 123 },
    next: { type: ['string', 'null'], format: 'uri', example: 'http://api.example.org/accounts/?offset=400&limit=100' },
    previous: {
      type: ['string', 'null'],
      format: 'uri',
      example: 'http://api.example.org/accounts/?offset=200&limit=100',
    },
    results: { type: 'array', items: ref(item) },
  });

export const schemas = {
  EnvironmentEnum: {
    type: 'string',
    enum: ENVIRONMENTS,
    description: '* `development` - development\n* `sandbox` - sandbox\n* `pilot` - pilot\n* `production` - production',
  },
  EventEnum: { type: 'string', enum: EVENTS },
  Meta: obj(
    {
      requestId: str,
      version: { type: 'string', example: CURRENT_VERSION },
      at: dt,
      idempotencyKey: str,
      replayed: bool,
    },
    ['requestId', 'version', 'at'],
  ),
  ErrorDetail: obj(
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
  Error: obj({ ok: { type: 'boolean', const: false }, error: ref('ErrorDetail'), meta: ref('Meta') }),
  Envelope: obj({ ok: { type: 'boolean', const: true }, data: { type: 'object' }, meta: ref('Meta') }),
  Provider: obj({ id: str, name: str, category: str, summary: str, slug: str }, ['id', 'name', 'category', 'summary']),
  Connector: obj(
    {
      id: str,
      providerId: str,
      name: str,
      category: str,
      capabilities: { type: 'array', items: str },
      production_certified: bool,
    },
    ['id', 'providerId', 'name', 'category', 'capabilities'],
  ),
  Capability: obj({ id: str, label: str, critical: bool, idempotencyRequired: bool, description: str }, [
    'id',
    'label',
    'critical',
    'idempotencyRequired',
  ]),
  ProviderList: list('providers', 'Provider'),
  ConnectorList: list('connectors', 'Connector'),
  CapabilityList: list('capabilities', 'Capability'),
  CapabilityDecision: obj({
    connectorId: str,
    capability: str,
    allowed: bool,
    critical: bool,
    idempotencyRequired: bool,
    reason: str,
  }),
  CapabilityCheckRequest: obj(
    {
      connectorId: text(2, 120),
      capability: text(2, 120),
      environment: { allOf: [ref('EnvironmentEnum')], default: 'sandbox' },
    },
    ['connectorId', 'capability'],
  ),
  CapabilityCheck: obj({ decision: ref('CapabilityDecision'), environment: ref('EnvironmentEnum') }),
  ConnectionCapability: obj({ capability: str, critical: bool, idempotencyRequired: bool }),
  Connection: obj({
    id: uuid,
    connectorId: str,
    environment: ref('EnvironmentEnum'),
    scopeLabel: str,
    state: { type: 'string', examples: ['pending_activation', 'active'] },
    capabilities: { type: 'array', items: ref('ConnectionCapability') },
    nextStep: str,
    createdAt: dt,
  }),
  ConnectionRequest: obj({
    connectorId: text(2, 120),
    environment: ref('EnvironmentEnum'),
    scopeLabel: text(2, 120),
    capabilities: { type: 'array', minItems: 1, maxItems: 24, items: text(2, 120) },
  }),
  ConnectionList: obj({ tenant: str, count: int, connections: { type: 'array', items: ref('Connection') } }),
  IdempotencyKeyRequest: obj({ operation: text(2, 80) }),
  IdempotencyKey: obj(
    {
      idempotencyKey: { type: 'string', pattern: '^[A-Za-z0-9._:-]{8,128}$' },
      operation: str,
      expiresAt: dt,
      ttl_seconds: int,
    },
    ['idempotencyKey', 'operation', 'expiresAt'],
  ),
  RouteInfo: obj({ method: str, path: str, purpose: str, auth: bool }),
  SelfDescription: obj({
    service: str,
    surface: str,
    version: str,
    authentication: { type: 'object', additionalProperties: true },
    idempotency: { type: 'object', additionalProperties: true },
    routes: { type: 'array', items: ref('RouteInfo') },
  }),
  WebhookRequest: obj({
    url: { type: 'string', format: 'uri', minLength: 10, maxLength: 2000 },
    events: { type: 'array', minItems: 1, items: ref('EventEnum') },
  }),
  Webhook: obj(
    {
      id: uuid,
      url: { type: 'string', format: 'uri' },
      events: { type: 'array', items: ref('EventEnum') },
      is_active: bool,
      created_at: dt,
      signature_header: str,
      signing_key: { type: 'string', writeOnly: false, description: 'Issued once, in the creation answer only.' },
    },
    ['id', 'url', 'events', 'is_active', 'created_at'],
  ),
  WebhookList: paginated('Webhook'),
  Delivery: obj({
    id: uuid,
    webhook_id: { type: 'string', format: 'uuid' },
    event_id: { type: 'string', format: 'uuid' },
    event: ref('EventEnum'),
    status: { type: 'string', enum: ['pending', 'retrying', 'delivered', 'failed'] },
    attempts: int,
    last_response_status: { type: ['integer', 'null'] },
    last_error: { type: ['string', 'null'] },
    redelivery_of: { type: ['string', 'null'], format: 'uuid' },
    created_at: dt,
    last_attempt_at: { type: ['string', 'null'], format: 'date-time' },
    next_retry_at: { type: ['string', 'null'], format: 'date-time' },
    payload: { type: 'object' },
  }),
  PaginatedDeliveryList: paginated('Delivery'),
  AuditEntry: obj({
    id: uuid,
    sequence: int,
    created_at: dt,
    actor: str,
    action: str,
    object_type: str,
    object_id: str,
    idempotency_key: str,
    summary: str,
    prev_digest: str,
    digest: { type: 'string', description: 'SHA-256 (hex) of the canonical string named in proof.entry_digest' },
  }),
  AuditCheckpoint: obj({ sequence: int, digest: str, signature: str, key_id: str, created_at: dt }),
  AuditProof: obj({
    entry_digest: { type: 'object' },
    checkpoint: { type: 'object' },
    checkpoints: { type: 'array', items: ref('AuditCheckpoint') },
    head: { type: ['object', 'null'] },
  }),
  PaginatedAuditEntryList: {
    ...paginated('AuditEntry'),
    properties: { ...paginated('AuditEntry').properties, proof: ref('AuditProof') },
  },
  Info: { type: 'object', additionalProperties: true },
};

export function envelope(data: string) {
  return { allOf: [ref('Envelope'), { type: 'object', properties: { data: ref(data) } }] };
}
