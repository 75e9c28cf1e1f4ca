// Component schemas of sweetgum's OpenAPI document, as the team writes them beside their json_serializable
// models: the nullable extras (`websiteUrl`, `updatedAt`…) are typed `[T, 'null']` because toJson() writes nulls.
import { ENVIRONMENTS, type Rec } from './state.ts';

export const s = (type: string | string[], extra: Rec = {}): Rec => ({ type, ...extra });
export const obj = (properties: Rec, required: string[] = Object.keys(properties)): Rec => ({
  type: 'object',
  properties,
  required,
});
export const ref = (name: string): Rec => ({ $ref: `#/components/schemas/${name}` });
export const list = (items: Rec): Rec => ({ type: 'array', items });
const dt = s('string', { format: 'date-time' });

export const SCHEMAS: Rec = {
  Meta: obj(
    { requestId: s('string'), version: s('string'), at: dt, idempotencyKey: s('string'), replayed: s('boolean') },
    ['requestId', 'version', 'at'],
  ),
  Failure: obj({
    ok: s('boolean', { const: false }),
    error: obj(
      {
        code: s('string', {
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
        }),
        message: s('string'),
        detail: s('string'),
        hint: s('string'),
      },
      ['code', 'message'],
    ),
    meta: ref('Meta'),
  }),
  Environment: s('string', { enum: [...ENVIRONMENTS] }),
  Provider: obj(
    {
      id: s('string'),
      name: s('string'),
      category: s('string'),
      summary: s('string'),
      websiteUrl: s(['string', 'null']),
    },
    ['id', 'name', 'category', 'summary'],
  ),
  Connector: obj(
    {
      id: s('string'),
      providerId: s('string'),
      name: s('string'),
      category: s('string'),
      capabilities: list(s('string')),
      deprecatedAt: s(['string', 'null'], { format: 'date-time' }),
    },
    ['id', 'providerId', 'name', 'category', 'capabilities'],
  ),
  Capability: obj(
    {
      id: s('string'),
      label: s('string'),
      critical: s('boolean'),
      idempotencyRequired: s('boolean'),
      description: s(['string', 'null']),
    },
    ['id', 'label', 'critical', 'idempotencyRequired'],
  ),
  CapabilityDecision: obj({
    connectorId: s('string'),
    capability: s('string'),
    allowed: s('boolean'),
    critical: s('boolean'),
    idempotencyRequired: s('boolean'),
    reason: s('string'),
  }),
  Connection: obj(
    {
      id: s('string', { format: 'uuid' }),
      connectorId: s('string'),
      environment: ref('Environment'),
      scopeLabel: s('string'),
      state: s('string', { enum: ['pendingActivation', 'active', 'paused', 'revoked'] }),
      capabilities: list(obj({ capability: s('string'), critical: s('boolean'), idempotencyRequired: s('boolean') })),
      nextStep: s('string'),
      createdAt: dt,
      updatedAt: s(['string', 'null'], { format: 'date-time' }),
    },
    ['id', 'connectorId', 'environment', 'scopeLabel', 'state', 'capabilities', 'nextStep', 'createdAt'],
  ),
  RouteInfo: obj({ method: s('string'), path: s('string'), purpose: s('string'), auth: s('boolean') }),
  IdempotencyKeyResult: obj({ idempotencyKey: s('string'), operation: s('string'), expiresAt: dt }),
  Webhook: obj(
    {
      id: s('string'),
      url: s('string'),
      events: list(s('string')),
      createdAt: dt,
      description: s(['string', 'null']),
      signingKey: s('string'),
    },
    ['id', 'url', 'events', 'createdAt'],
  ),
  DeliveryAttempt: obj({
    id: s('string'),
    webhookId: s('string'),
    eventId: s('string'),
    event: s('string'),
    attempt: s('integer'),
    status: s('string', { enum: ['pending', 'succeeded', 'failed'] }),
    responseStatus: s(['integer', 'null']),
    error: s(['string', 'null']),
    requestedAt: dt,
    completedAt: s(['string', 'null'], { format: 'date-time' }),
    redeliveryOf: s(['string', 'null']),
  }),
  AuditEntry: obj({
    sequence: s('integer'),
    id: s('string'),
    action: s('string'),
    resourceType: s('string'),
    resourceId: s('string'),
    actor: s('string'),
    at: dt,
    previousHash: s(['string', 'null']),
    hash: s('string'),
  }),
};
