// Per operation of sweetgum's OpenAPI document: the schema of its `data` and of its request body.
import { list, obj, ref, s } from './openapi-schemas.ts';
import type { Rec } from './state.ts';
import { EVENT_NAMES } from './webhooks.ts';

/** The `data` schema of each operation, by "METHOD path". */
export const DATA: Record<string, Rec> = {
  'GET ': obj({
    service: s('string'),
    surface: s('string'),
    version: s('string'),
    authentication: s('object'),
    idempotency: s('object'),
    routes: list(ref('RouteInfo')),
  }),
  'GET /info': obj({
    service: s('string'),
    environment: s('string'),
    version: s('string'),
    tenant: s('string'),
    clientId: s('string'),
    region: s(['string', 'null']),
  }),
  'GET /providers': obj({ count: s('integer'), providers: list(ref('Provider')) }),
  'GET /connectors': obj({ count: s('integer'), connectors: list(ref('Connector')) }),
  'GET /capabilities': obj({ count: s('integer'), capabilities: list(ref('Capability')) }),
  'POST /capabilities': obj({ decision: ref('CapabilityDecision'), environment: ref('Environment') }),
  'GET /connections': obj({ tenant: s('string'), count: s('integer'), connections: list(ref('Connection')) }),
  'POST /connections': ref('Connection'),
  'POST /idempotency-keys': ref('IdempotencyKeyResult'),
  'POST /webhooks': ref('Webhook'),
  'GET /webhooks/{webhookId}': ref('Webhook'),
  'DELETE /webhooks/{webhookId}': obj({ id: s('string'), deleted: s('boolean') }),
  'GET /webhooks/{webhookId}/delivery-attempts': obj({
    webhookId: s('string'),
    count: s('integer'),
    deliveryAttempts: list(ref('DeliveryAttempt')),
  }),
  'POST /webhooks/{webhookId}/delivery-attempts/{attemptId}/resend': ref('DeliveryAttempt'),
  'GET /audit-log': obj({
    count: s('integer'),
    entries: list(ref('AuditEntry')),
    nextPageToken: s(['string', 'null']),
    proof: s('object'),
  }),
};

const between = (min: number, max: number) => s('string', { minLength: min, maxLength: max });

/** Request bodies, by "METHOD path". */
export const BODIES: Record<string, Rec> = {
  'POST /capabilities': obj(
    { connectorId: between(2, 120), capability: between(2, 120), environment: ref('Environment') },
    ['connectorId', 'capability'],
  ),
  'POST /connections': obj({
    connectorId: between(2, 120),
    environment: ref('Environment'),
    scopeLabel: between(2, 120),
    capabilities: { type: 'array', minItems: 1, maxItems: 24, items: between(2, 120) },
  }),
  'POST /idempotency-keys': obj({ operation: between(2, 80) }),
  'POST /webhooks': obj(
    {
      url: s('string', { format: 'uri' }),
      events: {
        type: 'array',
        minItems: 1,
        items: s('string', { enum: EVENT_NAMES }),
      },
      description: s('string'),
    },
    ['url', 'events'],
  ),
};
