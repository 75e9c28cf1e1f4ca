// Component schemas of the OpenAPI document: the interface's resources and both envelopes.
import { arr, env, obj, ref, type Schema, s } from './route-table.ts';

const meta = obj(
  {
    requestId: s('string'),
    version: s('string'),
    at: s('string', { format: 'date-time' }),
    idempotencyKey: s('string'),
    replayed: s('boolean'),
  },
  ['requestId', 'version', 'at'],
);
export const SCHEMAS: Record<string, Schema> = {
  Meta: meta,
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
        status: s('string'),
      },
      ['code', 'message'],
    ),
    meta: ref('Meta'),
  }),
  Environment: s('string', { enum: ['development', 'sandbox', 'pilot', 'production'] }),
  RouteInfo: obj({ method: s('string'), path: s('string'), purpose: s('string'), auth: s('boolean') }),
  Provider: obj({ id: s('string'), name: s('string'), category: s('string'), summary: s('string') }),
  Connector: obj({
    id: s('string'),
    providerId: s('string'),
    name: s('string'),
    category: s('string'),
    capabilities: arr(s('string')),
  }),
  Capability: obj({ id: s('string'), label: s('string'), critical: s('boolean'), idempotencyRequired: s('boolean') }),
  CapabilityDecision: obj({
    connectorId: s('string'),
    capability: s('string'),
    allowed: s('boolean'),
    critical: s('boolean'),
    idempotencyRequired: s('boolean'),
    reason: s('string'),
  }),
  Connection: obj({
    id: s('string'),
    connectorId: s('string'),
    environment: env,
    scopeLabel: s('string'),
    state: s('string', { enum: ['PROVISIONING', 'READY', 'PAUSED'] }),
    capabilities: arr(obj({ capability: s('string'), critical: s('boolean'), idempotencyRequired: s('boolean') })),
    nextStep: s('string'),
    createdAt: s('string', { format: 'date-time' }),
  }),
  Webhook: obj(
    {
      id: s('string'),
      name: s('string'),
      url: s('string'),
      events: arr(s('string')),
      state: s('string'),
      createTime: s('string', { format: 'date-time' }),
    },
    ['name', 'url', 'events', 'state', 'createTime'],
  ),
  WebhookDelivery: obj(
    {
      id: s('string'),
      webhook: s('string'),
      eventId: s('string'),
      eventType: s('string'),
      state: s('string'),
      attempts: arr(s('object')),
    },
    ['name', 'webhook', 'eventId', 'state', 'attempts'],
  ),
};
