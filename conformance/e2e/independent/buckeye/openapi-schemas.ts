// JSON Schemas (2020-12, as OpenAPI 3.1 uses them) of what buckeye serves, by component name.
const s = (type: string, extra: Record<string, unknown> = {}) => ({ type, ...extra });
const str = s('string');
const dt = s('string', { format: 'date-time' });
const int = s('integer', { minimum: 0 });
const bool = s('boolean');
const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });
const obj = (
  properties: Record<string, unknown>,
  required = Object.keys(properties),
  extra: Record<string, unknown> = {},
) => ({ type: 'object', properties, required, ...extra });
const arr = (items: unknown, extra: Record<string, unknown> = {}) => ({ type: 'array', items, ...extra });
const nullable = (schema: Record<string, unknown>) => ({ ...schema, type: [schema.type, 'null'] });

export const ENV = s('string', { enum: ['development', 'sandbox', 'pilot', 'production'] });

export const SCHEMAS: Record<string, unknown> = {
  Meta: obj({ requestId: str, version: str, at: dt, idempotencyKey: str, replayed: bool }, [
    'requestId',
    'version',
    'at',
  ]),
  Failure: obj({
    ok: { type: 'boolean', const: false },
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
        message: str,
        detail: str,
        hint: str,
      },
      ['code', 'message'],
    ),
    meta: ref('Meta'),
  }),
  Environment: ENV,
  Provider: obj({ id: str, name: str, category: str, summary: str, country: str }, [
    'id',
    'name',
    'category',
    'summary',
  ]),
  Connector: obj({ id: str, providerId: str, name: str, category: str, capabilities: arr(str), status: str }, [
    'id',
    'providerId',
    'name',
    'category',
    'capabilities',
  ]),
  Capability: obj({ id: str, label: str, critical: bool, idempotencyRequired: bool, description: str }, [
    'id',
    'label',
    'critical',
    'idempotencyRequired',
  ]),
  CapabilityDecision: obj({
    connectorId: str,
    capability: str,
    allowed: bool,
    critical: bool,
    idempotencyRequired: bool,
    reason: str,
  }),
  Connection: obj({
    id: s('string', { pattern: '^con_[0-9A-Za-z]{27}$' }),
    connectorId: str,
    environment: ref('Environment'),
    scopeLabel: str,
    state: s('string', { enum: ['pending', 'enabled'] }),
    capabilities: arr(obj({ capability: str, critical: bool, idempotencyRequired: bool })),
    nextStep: s('string', { enum: ['await_enablement', 'none'] }),
    createdAt: dt,
  }),
  RouteInfo: obj({ method: str, path: str, purpose: str, auth: bool }),
  Webhook: obj({ id: str, url: s('string', { format: 'uri' }), events: arr(str), active: bool, createdAt: dt }),
  Delivery: obj({
    id: str,
    webhookId: str,
    eventId: str,
    event: str,
    status: s('string', { enum: ['pending', 'succeeded', 'failed'] }),
    attemptCount: int,
    attempts: arr(
      obj(
        {
          at: dt,
          statusCode: nullable(s('integer')),
          error: str,
          trigger: s('string', { enum: ['event', 'retry', 'manual'] }),
        },
        ['at', 'statusCode', 'trigger'],
      ),
    ),
    createdAt: dt,
    redeliveryOf: nullable(s('string')),
  }),
  AuditEntry: obj({
    id: str,
    seq: s('integer', { minimum: 1 }),
    at: dt,
    tenant: str,
    actor: str,
    action: str,
    resource: obj({ type: str, id: str }),
    requestId: str,
    prevHash: s('string', { pattern: '^[0-9a-f]{64}$' }),
    hash: s('string', { pattern: '^[0-9a-f]{64}$' }),
  }),
};

/** The data schema of each route's success answer, by "METHOD path" (paths relative to /api/public/v1). */
export function dataSchemas(): Record<string, unknown> {
  const list = (name: string, item: string, more: Record<string, unknown> = {}) =>
    obj({ count: int, [name]: arr(ref(item)), ...more });
  const cursor = nullable(s('string'));
  return {
    'GET ': obj({
      service: str,
      surface: str,
      version: str,
      authentication: s('object'),
      idempotency: s('object'),
      routes: arr(ref('RouteInfo')),
    }),
    'GET /info': obj({
      tenant: str,
      clientId: str,
      environment: ENV,
      purpose: nullable(s('string')),
      owner: nullable(s('string')),
      expiresAt: dt,
    }),
    'GET /providers': list('providers', 'Provider'),
    'GET /connectors': list('connectors', 'Connector'),
    'GET /capabilities': list('capabilities', 'Capability'),
    'POST /capabilities': obj({ decision: ref('CapabilityDecision'), environment: ENV }),
    'GET /connections': obj({ tenant: str, count: int, connections: arr(ref('Connection')), nextCursor: cursor }),
    'POST /connections': ref('Connection'),
    'GET /connections/{connectionId}': ref('Connection'),
    'POST /idempotency-keys': obj({ idempotencyKey: str, operation: str, expiresAt: dt }),
    'GET /webhooks': list('webhooks', 'Webhook'),
    'POST /webhooks': {
      allOf: [
        ref('Webhook'),
        obj({
          signingKey: s('string', { description: 'HMAC-SHA256 key; shown in this answer only' }),
          signature: obj({ header: str, format: str, toleranceSeconds: int }),
        }),
      ],
    },
    'GET /webhooks/{webhookId}': ref('Webhook'),
    'DELETE /webhooks/{webhookId}': obj({ id: str, deleted: { type: 'boolean', const: true } }),
    'GET /webhook-deliveries': list('deliveries', 'Delivery', { nextCursor: cursor }),
    'GET /webhook-deliveries/{deliveryId}': ref('Delivery'),
    'POST /webhook-deliveries/{deliveryId}/redeliver': ref('Delivery'),
    'GET /audit-log': obj({
      tenant: str,
      count: int,
      entries: arr(ref('AuditEntry')),
      nextCursor: cursor,
      proof: obj({
        format: s('string', { const: 'buckeye-audit/v1' }),
        algorithm: str,
        encoding: str,
        input: str,
        genesis: str,
        chainLength: int,
        head: nullable(obj({ seq: int, hash: str })),
      }),
    }),
  };
}

const name = (min: number, max: number) => s('string', { minLength: min, maxLength: max });

/** Request bodies, by "METHOD path". */
export function requestSchemas(events: string[]): Record<string, unknown> {
  return {
    'POST /capabilities': obj(
      { connectorId: name(2, 120), capability: name(2, 120), environment: { ...ENV, default: 'sandbox' } },
      ['connectorId', 'capability'],
    ),
    'POST /connections': obj({
      connectorId: name(2, 120),
      environment: ENV,
      scopeLabel: name(2, 120),
      capabilities: arr(name(2, 120), { minItems: 1, maxItems: 24, uniqueItems: true }),
    }),
    'POST /idempotency-keys': obj({ operation: name(2, 80) }),
    'POST /webhooks': obj({
      url: s('string', { format: 'uri', maxLength: 2048 }),
      events: arr(s('string', { enum: events }), { minItems: 1, uniqueItems: true }),
    }),
  };
}
