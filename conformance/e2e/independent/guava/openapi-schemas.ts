// Component schemas of guava's OpenAPI document. Request bodies are validated against these very objects
// (Mojolicious::Plugin::OpenAPI's way: the document is the validator's source, never a second copy).
import { ENVIRONMENTS, EVENTS, type Rec } from './state.ts';

const str = (min: number, max: number): Rec => ({ type: 'string', minLength: min, maxLength: max });

export const KEY_PATTERN = '^[A-Za-z0-9._:-]{8,128}$';

export const bodies: Record<string, Rec> = {
  CapabilityCheck: {
    type: 'object',
    required: ['connectorId', 'capability'],
    properties: {
      connectorId: str(2, 120),
      capability: str(2, 120),
      environment: { type: 'string', enum: ENVIRONMENTS },
    },
  },
  ConnectionCreate: {
    type: 'object',
    required: ['connectorId', 'environment', 'scopeLabel', 'capabilities'],
    properties: {
      connectorId: str(2, 120),
      environment: { type: 'string', enum: ENVIRONMENTS },
      scopeLabel: str(2, 120),
      capabilities: { type: 'array', minItems: 1, maxItems: 24, items: str(2, 120) },
    },
  },
  KeyCreate: { type: 'object', required: ['operation'], properties: { operation: str(2, 80) } },
  WebhookCreate: {
    type: 'object',
    required: ['url', 'events'],
    properties: {
      url: { type: 'string', format: 'uri', maxLength: 2048 },
      events: { type: 'array', minItems: 1, items: { type: 'string', enum: EVENTS } },
    },
  },
};

const meta: Rec = {
  type: 'object',
  required: ['requestId', 'version', 'at'],
  properties: {
    requestId: { type: 'string' },
    version: { type: 'string' },
    at: { type: 'string', format: 'date-time' },
    idempotencyKey: { type: 'string' },
    replayed: { type: 'boolean' },
  },
};

const cap: Rec = {
  type: 'object',
  properties: {
    capability: { type: 'string' },
    critical: { type: 'boolean' },
    idempotencyRequired: { type: 'boolean' },
  },
};

export const models: Record<string, Rec> = {
  Meta: meta,
  Failure: {
    type: 'object',
    required: ['ok', 'error', 'meta'],
    properties: {
      ok: { const: false },
      error: {
        type: 'object',
        required: ['code', 'message'],
        properties: {
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
          message: { type: 'string' },
          detail: { type: 'string' },
          hint: { type: 'string' },
        },
      },
      meta: { $ref: '#/components/schemas/Meta' },
    },
  },
  Connection: {
    type: 'object',
    required: ['id', 'connectorId', 'environment', 'scopeLabel', 'state', 'capabilities', 'nextStep', 'createdAt'],
    properties: {
      id: { type: 'string', pattern: '^[0-9]+$', description: 'serial integer, written as a string' },
      connectorId: { type: 'string' },
      environment: { type: 'string', enum: ENVIRONMENTS },
      scopeLabel: { type: 'string' },
      state: { type: 'string', enum: ['provisioning', 'live', 'paused'] },
      capabilities: { type: 'array', items: cap },
      nextStep: { type: 'string' },
      createdAt: { type: 'string', format: 'date-time' },
    },
  },
  Webhook: {
    type: 'object',
    properties: {
      id: { type: 'integer' },
      url: { type: 'string' },
      events: { type: 'array', items: { type: 'string', enum: EVENTS } },
      secret: { type: 'string', description: 'signing key, shown in the creation answer only' },
      created: { type: 'string', format: 'date-time' },
    },
  },
  Job: {
    type: 'object',
    description: 'one Minion job delivering an event to a receiver',
    properties: {
      id: { type: 'integer' },
      event_id: { type: 'integer' },
      event: { type: 'string' },
      state: { type: 'string', enum: ['inactive', 'active', 'finished', 'failed'] },
      retries: { type: 'integer' },
      attempts: { type: 'array', items: { type: 'object' } },
    },
  },
};
