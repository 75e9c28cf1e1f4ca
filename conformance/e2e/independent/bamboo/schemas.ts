// JSON Schemas (2020-12) of bamboo's bodies and records, for the hand-built OpenAPI document: the same
// limits the validators apply (validate.ts), `additionalProperties: false` where serde denies unknown fields.
import { EVENT_TYPES } from './deliveries.ts';
import { ENVIRONMENTS } from './validate.ts';

const str = (minLength?: number, maxLength?: number) => ({
  type: 'string',
  ...(minLength ? { minLength } : {}),
  ...(maxLength ? { maxLength } : {}),
});
const obj = (properties: Record<string, unknown>, required: string[], closed = false) => ({
  type: 'object',
  properties,
  required,
  ...(closed ? { additionalProperties: false } : {}),
});
const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });
const list = (items: unknown) => ({ type: 'array', items });
const dateTime = { type: 'string', format: 'date-time' };

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
  Environment: { type: 'string', enum: [...ENVIRONMENTS] },
  Meta: obj({ requestId: str(), version: str(), at: dateTime, idempotencyKey: str(), replayed: { type: 'boolean' } }, [
    'requestId',
    'version',
    'at',
  ]),
  Failure: obj(
    {
      ok: { type: 'boolean', const: false },
      error: obj({ code: { type: 'string', enum: ERROR_CODES }, message: str(), detail: str(), hint: str() }, [
        'code',
        'message',
      ]),
      meta: ref('Meta'),
    },
    ['ok', 'error', 'meta'],
  ),
  Provider: obj({ id: str(), name: str(), category: str(), summary: str(), region: str() }, [
    'id',
    'name',
    'category',
    'summary',
  ]),
  Connector: obj({ id: str(), providerId: str(), name: str(), category: str(), capabilities: list(str()) }, [
    'id',
    'providerId',
    'name',
    'category',
    'capabilities',
  ]),
  Capability: obj(
    { id: str(), label: str(), critical: { type: 'boolean' }, idempotencyRequired: { type: 'boolean' } },
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
      id: str(),
      connectorId: str(),
      environment: ref('Environment'),
      scopeLabel: str(),
      state: { type: 'string', examples: ['pending', 'live'] },
      capabilities: list(
        obj({ capability: str(), critical: { type: 'boolean' }, idempotencyRequired: { type: 'boolean' } }, [
          'capability',
          'critical',
          'idempotencyRequired',
        ]),
      ),
      nextStep: str(),
      createdAt: dateTime,
    },
    ['id', 'connectorId', 'environment', 'scopeLabel', 'state', 'capabilities', 'nextStep', 'createdAt'],
  ),
  RouteInfo: obj({ method: str(), path: str(), purpose: str(), auth: { type: 'boolean' } }, [
    'method',
    'path',
    'purpose',
    'auth',
  ]),
  CapabilityCheck: obj(
    { connectorId: str(2, 120), capability: str(2, 120), environment: { ...ref('Environment'), default: 'sandbox' } },
    ['connectorId', 'capability'],
    true,
  ),
  ConnectionCreate: obj(
    {
      connectorId: str(2, 120),
      environment: ref('Environment'),
      scopeLabel: str(2, 120),
      capabilities: { type: 'array', minItems: 1, maxItems: 24, items: str(2, 120) },
    },
    ['connectorId', 'environment', 'scopeLabel', 'capabilities'],
    true,
  ),
  KeyRequest: obj({ operation: str(2, 80) }, ['operation'], true),
  KeyResult: obj({ idempotencyKey: str(), operation: str(), expiresAt: dateTime }, [
    'idempotencyKey',
    'operation',
    'expiresAt',
  ]),
  WebhookCreate: obj(
    {
      url: { type: 'string', format: 'uri', maxLength: 2048 },
      events: { type: 'array', minItems: 1, maxItems: 32, items: { type: 'string', enum: [...EVENT_TYPES] } },
      description: str(),
    },
    ['url', 'events'],
    true,
  ),
  Webhook: obj(
    {
      id: str(),
      url: str(),
      events: list(str()),
      createdAt: dateTime,
      secret: { type: 'string', description: 'Only in the creation answer.' },
      secretNotice: str(),
    },
    ['id', 'url', 'events', 'createdAt'],
  ),
  Attempt: obj(
    {
      id: str(),
      at: dateTime,
      trigger: { type: 'string', enum: ['scheduled', 'manual'] },
      status: { type: 'string', enum: ['succeeded', 'failed'] },
      responseStatus: { type: ['integer', 'null'] },
      durationMs: { type: 'integer' },
    },
    ['id', 'at', 'trigger', 'status'],
  ),
  Message: obj(
    {
      id: str(),
      eventType: str(),
      eventId: str(),
      createdAt: dateTime,
      status: { type: 'string', enum: ['pending', 'sending', 'succeeded', 'failed'] },
      nextAttemptAt: { type: ['string', 'null'], format: 'date-time' },
      attempts: list(ref('Attempt')),
      payload: { type: 'object' },
    },
    ['id', 'eventType', 'createdAt', 'status', 'attempts'],
  ),
  AuditEntry: obj(
    {
      seq: { type: 'integer' },
      id: str(),
      at: dateTime,
      tenant: str(),
      actor: str(),
      action: str(),
      target: str(),
      requestId: str(),
      idempotencyKey: { type: ['string', 'null'] },
      prevHash: str(),
      hash: str(),
    },
    ['seq', 'id', 'at', 'action', 'prevHash', 'hash'],
  ),
};

export { dateTime, list, obj, ref, str };
