// Schemas of the OpenAPI document: resources, request bodies and each operation's data.
const str = (min: number, max: number) => ({ type: 'string', minLength: min, maxLength: max });
const env = { type: 'string', enum: ['development', 'sandbox', 'pilot', 'production'] };
const dateTime = { type: 'string', format: 'date-time' };
export const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });
const list = (name: string, item: unknown) => ({
  type: 'object',
  required: ['count', name],
  properties: { count: { type: 'integer' }, [name]: { type: 'array', items: item } },
});

export const schemas: Record<string, unknown> = {
  Meta: {
    type: 'object',
    required: ['requestId', 'version', 'at'],
    properties: {
      requestId: { type: 'string' },
      version: { type: 'string' },
      at: dateTime,
      idempotencyKey: { type: 'string' },
      replayed: { type: 'boolean' },
    },
  },
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
      meta: ref('Meta'),
    },
  },
  Provider: {
    type: 'object',
    required: ['id', 'name', 'category', 'summary'],
    properties: {
      id: { type: 'string' },
      name: { type: 'string' },
      category: { type: 'string' },
      summary: { type: 'string' },
    },
  },
  Connector: {
    type: 'object',
    required: ['id', 'providerId', 'name', 'category', 'capabilities'],
    properties: {
      id: { type: 'string' },
      providerId: { type: 'string' },
      name: { type: 'string' },
      category: { type: 'string' },
      capabilities: { type: 'array', items: { type: 'string' } },
    },
  },
  Capability: {
    type: 'object',
    required: ['id', 'label', 'critical', 'idempotencyRequired'],
    properties: {
      id: { type: 'string' },
      label: { type: 'string' },
      critical: { type: 'boolean' },
      idempotencyRequired: { type: 'boolean' },
    },
  },
  CapabilityDecision: {
    type: 'object',
    required: ['connectorId', 'capability', 'allowed', 'critical', 'idempotencyRequired', 'reason'],
    properties: {
      connectorId: { type: 'string' },
      capability: { type: 'string' },
      allowed: { type: 'boolean' },
      critical: { type: 'boolean' },
      idempotencyRequired: { type: 'boolean' },
      reason: { type: 'string' },
    },
  },
  Connection: {
    type: 'object',
    required: ['id', 'connectorId', 'environment', 'scopeLabel', 'state', 'capabilities', 'nextStep', 'createdAt'],
    properties: {
      id: { type: 'string', format: 'uuid' },
      connectorId: { type: 'string' },
      environment: env,
      scopeLabel: { type: 'string' },
      state: { type: 'string', enum: ['pending', 'ready'] },
      capabilities: {
        type: 'array',
        items: {
          type: 'object',
          required: ['capability', 'critical', 'idempotencyRequired'],
          properties: {
            capability: { type: 'string' },
            critical: { type: 'boolean' },
            idempotencyRequired: { type: 'boolean' },
          },
        },
      },
      nextStep: { type: 'string' },
      createdAt: dateTime,
    },
  },
};

export const bodies: Record<string, unknown> = {
  'POST /capabilities': {
    type: 'object',
    additionalProperties: false,
    required: ['connectorId', 'capability'],
    properties: { connectorId: str(2, 120), capability: str(2, 120), environment: { ...env, default: 'sandbox' } },
  },
  'POST /connections': {
    type: 'object',
    additionalProperties: false,
    required: ['connectorId', 'environment', 'scopeLabel', 'capabilities'],
    properties: {
      connectorId: str(2, 120),
      environment: env,
      scopeLabel: str(2, 120),
      capabilities: { type: 'array', minItems: 1, maxItems: 24, items: str(2, 120) },
    },
  },
  'POST /idempotency-keys': {
    type: 'object',
    additionalProperties: false,
    required: ['operation'],
    properties: { operation: str(2, 80) },
  },
  'POST /webhooks': {
    type: 'object',
    additionalProperties: false,
    required: ['url', 'events'],
    properties: {
      url: { type: 'string', format: 'uri', maxLength: 2048 },
      events: {
        type: 'array',
        minItems: 1,
        maxItems: 20,
        items: { type: 'string', enum: ['connection.created', 'connection.ready', 'order.created', 'order.paid'] },
      },
    },
  },
};

export const data: Record<string, unknown> = {
  'GET /providers': list('providers', ref('Provider')),
  'GET /connectors': list('connectors', ref('Connector')),
  'GET /capabilities': list('capabilities', ref('Capability')),
  'POST /capabilities': {
    type: 'object',
    required: ['decision', 'environment'],
    properties: { decision: ref('CapabilityDecision'), environment: env },
  },
  'GET /connections': {
    type: 'object',
    required: ['tenant', 'count', 'connections'],
    properties: {
      tenant: { type: 'string' },
      count: { type: 'integer' },
      connections: { type: 'array', items: ref('Connection') },
    },
  },
  'POST /connections': ref('Connection'),
  'GET /connections/{id}': ref('Connection'),
  'POST /idempotency-keys': {
    type: 'object',
    required: ['idempotencyKey', 'operation', 'expiresAt'],
    properties: { idempotencyKey: { type: 'string' }, operation: { type: 'string' }, expiresAt: dateTime },
  },
};
