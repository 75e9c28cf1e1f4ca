// Components of poplar's OpenAPI document: the envelopes and the contract's resources.
import { ENVIRONMENTS } from './validate.ts';

const ref = (n: string) => ({ $ref: `#/components/schemas/${n}` });
const env = { type: 'string', enum: ENVIRONMENTS };

export const COMPONENTS = {
  securitySchemes: { bearer: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT' } },
  responses: {
    Error: { description: 'failure envelope', content: { 'application/json': { schema: ref('Failure') } } },
  },
  schemas: {
    Meta: {
      type: 'object',
      required: ['requestId', 'version', 'at'],
      properties: {
        requestId: { type: 'string' },
        version: { type: 'string' },
        at: { type: 'string', format: 'date-time' },
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
            status: { type: 'string' },
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
        id: { type: 'string', pattern: '^[A-Za-z0-9]{20}$' },
        connectorId: { type: 'string' },
        environment: env,
        scopeLabel: { type: 'string' },
        state: { type: 'string', enum: ['CREATING', 'ACTIVE'] },
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
        createdAt: { type: 'string', format: 'date-time' },
        updateTime: { type: 'string', format: 'date-time' },
      },
    },
  },
};
