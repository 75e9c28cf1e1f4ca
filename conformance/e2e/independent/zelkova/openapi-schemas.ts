// Schemas of the OpenAPI document and the helpers that spell them (one place for the envelope shapes).
import { ENVIRONMENTS } from './validate.ts';
import { WEBHOOK_EVENTS } from './webhooks.ts';

export type Schema = Record<string, unknown>;
export const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });
export const str = (extra: Schema = {}) => ({ type: 'string', ...extra });
export const len = (min: number, max: number) => str({ minLength: min, maxLength: max });
export const time = str({ format: 'date-time' });
export const obj = (properties: Record<string, unknown>, required = Object.keys(properties), extra: Schema = {}) => ({
  type: 'object',
  properties,
  required,
  ...extra,
});
export const list = (items: unknown) => ({ type: 'array', items });
export const schemas: Record<string, Schema> = {
  Meta: obj({ requestId: str(), version: str(), at: time, idempotencyKey: str(), replayed: { type: 'boolean' } }, [
    'requestId',
    'version',
    'at',
  ]),
  Failure: obj({
    ok: { const: false },
    meta: ref('Meta'),
    error: obj(
      {
        code: str({
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
        message: str(),
        detail: str(),
        hint: str(),
      },
      ['code', 'message'],
    ),
  }),
  Environment: str({ enum: ENVIRONMENTS }),
  Provider: obj({ id: str(), name: str(), category: str(), summary: str() }),
  Connector: obj({ id: str(), providerId: str(), name: str(), category: str(), capabilities: list(str()) }),
  Capability: obj({ id: str(), label: str(), critical: { type: 'boolean' }, idempotencyRequired: { type: 'boolean' } }),
  CapabilityDecision: obj({
    connectorId: str(),
    capability: str(),
    allowed: { type: 'boolean' },
    critical: { type: 'boolean' },
    idempotencyRequired: { type: 'boolean' },
    reason: str(),
  }),
  Connection: obj({
    id: str({ format: 'uuid' }),
    connectorId: str(),
    environment: ref('Environment'),
    scopeLabel: str(),
    state: str({ enum: ['pending', 'active'] }),
    capabilities: list(
      obj({ capability: str(), critical: { type: 'boolean' }, idempotencyRequired: { type: 'boolean' } }),
    ),
    nextStep: str({ enum: ['wait_for_activation', 'none'] }),
    createdAt: time,
  }),
  RouteInfo: obj({ method: str(), path: str(), purpose: str(), auth: { type: 'boolean' } }),
  IdempotencyKeyResult: obj({ idempotencyKey: str(), operation: str(), expiresAt: time }),
  Webhook: obj({
    id: str({ format: 'uuid' }),
    url: str(),
    events: list(str({ enum: WEBHOOK_EVENTS })),
    createdAt: time,
    active: { type: 'boolean' },
  }),
  Delivery: obj({
    id: str(),
    webhookId: str(),
    eventId: str(),
    event: str(),
    status: str({ enum: ['pending', 'succeeded', 'failed'] }),
    createdAt: time,
    attemptCount: { type: 'integer' },
    attempts: list(
      obj(
        {
          number: { type: 'integer' },
          trigger: str({ enum: ['event', 'retry', 'manual'] }),
          at: time,
          responseStatus: { type: ['integer', 'null'] },
          error: str(),
          durationMs: { type: 'integer' },
        },
        ['number', 'trigger', 'at', 'responseStatus', 'durationMs'],
      ),
    ),
  }),
};

export const connectionBody = obj(
  {
    connectorId: len(2, 120),
    environment: ref('Environment'),
    scopeLabel: len(2, 120),
    capabilities: { ...list(len(2, 120)), minItems: 1, maxItems: 24 },
  },
  undefined,
  { additionalProperties: false },
);
export const webhookCreated = {
  allOf: [
    ref('Webhook'),
    obj({ signingKey: str({ description: 'issued once: store it at once' }), signatureHeader: str() }),
  ],
};
export const auditPage = obj({
  tenant: str(),
  count: { type: 'integer' },
  nextBefore: { type: ['integer', 'null'] },
  entries: list(
    obj({
      id: str(),
      index: { type: 'integer' },
      at: time,
      action: str(),
      actor: str(),
      resourceType: str(),
      resourceId: str(),
      requestId: str(),
      idempotencyKey: { type: ['string', 'null'] },
      leafHash: str(),
      inclusionProof: list(str()),
    }),
  ),
  proof: obj({
    algorithm: str(),
    treeSize: { type: 'integer' },
    rootHash: str(),
    checkpoint: obj({ statement: str(), signatureAlgorithm: str(), signature: str(), publicKey: str() }),
  }),
});
