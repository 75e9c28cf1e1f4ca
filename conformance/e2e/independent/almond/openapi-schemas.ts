// Component schemas of the OpenAPI 3.1 document (the interface's resources plus almond's own records).
import { ENVIRONMENTS } from './catalog.ts';
import { WEBHOOK_EVENTS } from './webhooks.ts';

const str = { type: 'string' };
const bool = { type: 'boolean' };
const int = { type: 'integer' };
const time = { type: 'string', format: 'date-time' };
const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });
const obj = (properties: Record<string, unknown>, required: string[] = Object.keys(properties)) => ({
  type: 'object',
  properties,
  required,
});

export const SCHEMAS: Record<string, unknown> = {
  Meta: obj({ requestId: str, version: str, at: time, idempotencyKey: str, replayed: bool }, [
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
  Environment: { type: 'string', enum: ENVIRONMENTS },
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
    id: { type: 'string', format: 'uuid' },
    connectorId: str,
    environment: ref('Environment'),
    scopeLabel: str,
    state: { type: 'string', examples: ['pending', 'provisioning', 'active'] },
    capabilities: { type: 'array', items: obj({ capability: str, critical: bool, idempotencyRequired: bool }) },
    nextStep: str,
    createdAt: time,
  }),
  RouteInfo: obj({ method: str, path: str, purpose: str, auth: bool }),
  IdempotencyKeyResult: obj({ idempotencyKey: str, operation: str, expiresAt: time }),
  CapabilityCheck: obj(
    {
      connectorId: { type: 'string', minLength: 2, maxLength: 120 },
      capability: { type: 'string', minLength: 2, maxLength: 120 },
      environment: ref('Environment'),
    },
    ['connectorId', 'capability'],
  ),
  ConnectionCreate: obj({
    connectorId: { type: 'string', minLength: 2, maxLength: 120 },
    environment: ref('Environment'),
    scopeLabel: { type: 'string', minLength: 2, maxLength: 120 },
    capabilities: { type: 'array', minItems: 1, maxItems: 24, items: { type: 'string', minLength: 2, maxLength: 120 } },
  }),
  IdempotencyKeyCreate: obj({ operation: { type: 'string', minLength: 2, maxLength: 80 } }),
  WebhookCreate: obj({
    url: { type: 'string', format: 'uri' },
    events: { type: 'array', minItems: 1, items: { type: 'string', enum: WEBHOOK_EVENTS } },
  }),
  Webhook: obj(
    {
      id: str,
      url: str,
      events: { type: 'array', items: { type: 'string', enum: WEBHOOK_EVENTS } },
      status: str,
      createdAt: time,
      signatureHeader: str,
      deliveryIdHeader: str,
      signingKey: { type: ['string', 'null'], description: 'issued once, in the first answer only' },
    },
    ['id', 'url', 'events', 'status', 'createdAt'],
  ),
  Delivery: obj({
    id: str,
    webhookId: str,
    eventId: str,
    event: str,
    status: { type: 'string', enum: ['pending', 'succeeded', 'retrying', 'failed'] },
    attempts: { type: 'array', items: { type: 'object' } },
    createdAt: time,
    updatedAt: time,
  }),
  AuditEntry: obj({
    id: str,
    seq: int,
    tenantId: str,
    action: str,
    resourceType: str,
    resourceId: str,
    actor: str,
    requestId: str,
    at: time,
    prevHash: str,
    hash: str,
  }),
};
