// Component schemas of hawthorn's OpenAPI 3.1 document (JSON Schema 2020-12), written by hand the way
// smallrye-openapi would derive them from the resource records.
import { WEBHOOK_EVENTS } from './state.ts';
import { PUBLISHED_VERSIONS } from './util.ts';
import { ENVIRONMENTS } from './validate.ts';

const str = { type: 'string' };
const bool = { type: 'boolean' };
const int = { type: 'integer' };
const dt = { type: 'string', format: 'date-time' };
const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });
const obj = (properties: Record<string, unknown>, required = Object.keys(properties)) => ({
  type: 'object',
  properties,
  required,
});
const text = (min: number, max: number) => ({ type: 'string', minLength: min, maxLength: max });

export const ERROR_CODES = [
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

export const SCHEMAS: Record<string, unknown> = {
  Meta: obj(
    {
      requestId: str,
      version: { type: 'string', examples: PUBLISHED_VERSIONS },
      at: dt,
      idempotencyKey: str,
      replayed: bool,
    },
    ['requestId', 'version', 'at'],
  ),
  Failure: obj({
    ok: { const: false },
    error: obj({ code: { type: 'string', enum: ERROR_CODES }, message: str, detail: str, hint: str }, [
      'code',
      'message',
    ]),
    meta: ref('Meta'),
  }),
  Environment: { type: 'string', enum: ENVIRONMENTS },
  Provider: obj({ id: str, name: str, category: str, summary: str, country: str }, [
    'id',
    'name',
    'category',
    'summary',
  ]),
  Connector: obj(
    { id: str, providerId: str, name: str, category: str, capabilities: { type: 'array', items: str }, protocol: str },
    ['id', 'providerId', 'name', 'category', 'capabilities'],
  ),
  Capability: obj({ id: str, label: str, critical: bool, idempotencyRequired: bool, domain: str }, [
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
  Connection: obj(
    {
      id: { type: 'string', format: 'uuid' },
      connectorId: str,
      environment: ref('Environment'),
      scopeLabel: str,
      state: { type: 'string', examples: ['REQUESTED', 'ACTIVE'] },
      capabilities: { type: 'array', items: obj({ capability: str, critical: bool, idempotencyRequired: bool }) },
      nextStep: { type: 'string', examples: ['AWAIT_PROVISIONING', 'NONE'] },
      createdAt: dt,
      updatedAt: dt,
      revision: int,
    },
    ['id', 'connectorId', 'environment', 'scopeLabel', 'state', 'capabilities', 'nextStep', 'createdAt'],
  ),
  RouteInfo: obj({ method: str, path: str, purpose: str, auth: bool }),
  IdempotencyKeyResult: obj({ idempotencyKey: str, operation: str, expiresAt: dt }),
  CapabilityCheck: obj({ connectorId: text(2, 120), capability: text(2, 120), environment: ref('Environment') }, [
    'connectorId',
    'capability',
  ]),
  ConnectionCreate: {
    ...obj({
      connectorId: text(2, 120),
      environment: ref('Environment'),
      scopeLabel: text(2, 120),
      capabilities: { type: 'array', minItems: 1, maxItems: 24, items: text(2, 120) },
    }),
    additionalProperties: false,
  },
  KeyRequest: obj({ operation: text(2, 80) }),
  WebhookCreate: obj({
    url: { type: 'string', format: 'uri' },
    events: { type: 'array', minItems: 1, maxItems: 20, items: { type: 'string', enum: WEBHOOK_EVENTS } },
  }),
  Webhook: obj(
    {
      id: { type: 'string', format: 'uuid' },
      url: str,
      events: { type: 'array', items: { type: 'string', enum: WEBHOOK_EVENTS } },
      status: str,
      createdAt: dt,
      signing: obj(
        {
          algorithm: str,
          keyId: str,
          header: str,
          format: str,
          key: { type: 'string', description: 'the signing key: in the registering answer only' },
          keyShown: str,
        },
        ['algorithm', 'keyId', 'header', 'format'],
      ),
    },
    ['id', 'url', 'events', 'status', 'createdAt', 'signing'],
  ),
  Delivery: obj(
    {
      id: { type: 'integer', format: 'int64' },
      webhookId: str,
      eventId: str,
      eventType: str,
      status: { type: 'string', enum: ['PENDING', 'RETRY_SCHEDULED', 'DELIVERED', 'FAILED'] },
      createdAt: dt,
      resendOf: { type: ['integer', 'null'] },
      attemptCount: int,
      attempts: { type: 'array', items: { type: 'object' } },
    },
    ['id', 'webhookId', 'eventId', 'eventType', 'status', 'createdAt'],
  ),
  AuditEntry: obj(
    {
      seq: int,
      at: dt,
      action: str,
      resourceType: str,
      resourceId: str,
      actor: str,
      requestId: str,
      idempotencyKey: str,
      summary: { type: 'object' },
      prevHash: str,
      hash: str,
    },
    ['seq', 'at', 'action', 'resourceType', 'resourceId', 'actor', 'requestId', 'prevHash', 'hash'],
  ),
};

/** The success envelope around a data schema. */
export const envelope = (data: unknown) => obj({ ok: { const: true }, data, meta: ref('Meta') });
export { bool, dt, int, obj, ref, str };
