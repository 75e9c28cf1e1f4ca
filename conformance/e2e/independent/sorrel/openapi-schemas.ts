// Component schemas of sorrel's OpenAPI 3.1 document, as the team writes them next to its Kotlin data classes.
import { ENVIRONMENTS, type Rec, WEBHOOK_EVENTS } from './state.ts';

const str = { type: 'string' };
const int = { type: 'integer' };
const bool = { type: 'boolean' };
const dt = { type: 'string', format: 'date-time' };
/** Instants of records whose fields are not shown: RFC 3339, or epoch milliseconds where the mapper writes them so. */
const when = {
  anyOf: [
    { type: 'string', format: 'date-time' },
    { type: 'integer', description: 'epoch milliseconds' },
  ],
};
const arr = (items: Rec) => ({ type: 'array', items });
const ref = (n: string) => ({ $ref: `#/components/schemas/${n}` });
const obj = (properties: Rec, required: string[] = Object.keys(properties)) => ({
  type: 'object',
  properties,
  required,
});

export const SCHEMAS: Rec = {
  Meta: obj({ requestId: str, version: str, at: dt, idempotencyKey: str, replayed: bool }, [
    'requestId',
    'version',
    'at',
  ]),
  Failure: obj({
    ok: { const: false },
    error: obj({ code: str, message: str, detail: str, hint: str }, ['code', 'message']),
    meta: ref('Meta'),
  }),
  Environment: { type: 'string', enum: [...ENVIRONMENTS] },
  Provider: obj({ id: str, name: str, category: str, summary: str, country: str }, [
    'id',
    'name',
    'category',
    'summary',
  ]),
  Connector: obj({ id: str, providerId: str, name: str, category: str, capabilities: arr(str), releaseStage: str }, [
    'id',
    'providerId',
    'name',
    'category',
    'capabilities',
  ]),
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
    id: { type: 'string', description: 'ULID' },
    connectorId: str,
    environment: ref('Environment'),
    scopeLabel: str,
    state: { type: 'string', examples: ['PENDING', 'ACTIVE'] },
    capabilities: arr(obj({ capability: str, critical: bool, idempotencyRequired: bool })),
    nextStep: str,
    createdAt: dt,
  }),
  RouteInfo: obj({ method: str, path: str, purpose: str, auth: bool }),
  IdempotencyKey: obj({ idempotencyKey: str, operation: str, expiresAt: dt }),
  Webhook: obj({ id: int, url: str, events: arr(str), active: bool, createdAt: dt, signingKey: str }, [
    'id',
    'url',
    'events',
    'active',
    'createdAt',
  ]),
  Delivery: obj(
    {
      id: int,
      webhookId: int,
      eventId: str,
      eventType: str,
      status: { type: 'string', enum: ['PENDING', 'RETRYING', 'DELIVERED', 'FAILED'] },
      attemptCount: int,
      attempts: arr(obj({ at: when, responseStatus: int, error: str }, ['at'])),
      createdAt: when,
      lastAttemptAt: when,
      redeliveryOf: int,
    },
    ['id', 'webhookId', 'eventId', 'eventType', 'status', 'attemptCount', 'attempts', 'createdAt'],
  ),
  AuditEntry: obj(
    { seq: int, id: str, at: when, action: str, target: str, actor: str, requestId: str, prevHash: str, hash: str },
    ['seq', 'id', 'at', 'action', 'target', 'prevHash', 'hash'],
  ),
};

/** Request bodies (the data classes the handlers read; unknown fields are refused). */
export const BODIES: Rec = {
  check: obj(
    {
      connectorId: { type: 'string', minLength: 2, maxLength: 120 },
      capability: { type: 'string', minLength: 2, maxLength: 120 },
      environment: { ...ref('Environment'), default: 'sandbox' },
    },
    ['connectorId', 'capability'],
  ),
  connection: obj({
    connectorId: { type: 'string', minLength: 2, maxLength: 120 },
    environment: ref('Environment'),
    scopeLabel: { type: 'string', minLength: 2, maxLength: 120 },
    capabilities: { type: 'array', minItems: 1, maxItems: 24, items: { type: 'string', minLength: 2, maxLength: 120 } },
  }),
  key: obj({ operation: { type: 'string', minLength: 2, maxLength: 80 } }),
  webhook: obj(
    {
      url: { type: 'string', format: 'uri' },
      events: { type: 'array', minItems: 1, items: { type: 'string', enum: [...WEBHOOK_EVENTS] } },
      description: str,
    },
    ['url', 'events'],
  ),
};

export const DATA = { str, int, bool, dt, arr, ref, obj };
