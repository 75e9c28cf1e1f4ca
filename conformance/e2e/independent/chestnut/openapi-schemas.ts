// Schemas of the OpenAPI document: the contract's resources as listed, plus chestnut's own fields.
import { ENVIRONMENTS } from './validate.ts';
import { WEBHOOK_EVENTS } from './webhooks.ts';

interface OpSchema {
  parameters?: unknown[];
  ok?: unknown;
  requestBody?: unknown;
}
const str = { type: 'string' };
const text = (min: number, max: number) => ({ type: 'string', minLength: min, maxLength: max });
const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });
const obj = (properties: Record<string, unknown>, required: string[] = Object.keys(properties)) => ({
  type: 'object',
  properties,
  required,
});
const list = (name: string, item: unknown, extra: Record<string, unknown> = {}) =>
  obj({ count: { type: 'integer', minimum: 0 }, [name]: { type: 'array', items: item }, ...extra }, ['count', name]);
const q = (name: string, schema: unknown) => ({ name, in: 'query', required: false, schema });
const paging = [q('limit', { type: 'integer', minimum: 1, maximum: 500 }), q('continue', str)];
const rateHeaders = {
  'X-RateLimit-Limit': { schema: { type: 'integer', minimum: 0 } },
  'X-RateLimit-Remaining': { schema: { type: 'integer', minimum: 0 } },
  'RateLimit-Policy': { schema: str },
  'Audit-Id': { schema: str },
};

function ok(data: unknown, auth = true, media = 'application/json'): unknown {
  const schema = media === 'application/json' ? obj({ ok: { const: true }, data, meta: ref('Meta') }) : data;
  return { description: 'success', headers: auth ? rateHeaders : {}, content: { [media]: { schema } } };
}

function body(schema: unknown): unknown {
  return { required: true, content: { 'application/json': { schema } } };
}

export function operationSchemas(auditMaxLimit = 500): {
  components: Record<string, unknown>;
  ops: Record<string, OpSchema>;
} {
  const components = {
    Meta: obj(
      {
        requestId: str,
        version: str,
        at: { type: 'string', format: 'date-time' },
        idempotencyKey: str,
        replayed: { type: 'boolean' },
      },
      ['requestId', 'version', 'at'],
    ),
    Failure: obj({
      ok: { const: false },
      error: obj({ code: str, message: str, detail: str, hint: str }, ['code', 'message']),
      meta: ref('Meta'),
    }),
    Environment: { type: 'string', enum: ENVIRONMENTS },
    Provider: obj({ id: str, name: str, category: str, summary: str }),
    Connector: obj({ id: str, providerId: str, name: str, category: str, capabilities: { type: 'array', items: str } }),
    Capability: obj({ id: str, label: str, critical: { type: 'boolean' }, idempotencyRequired: { type: 'boolean' } }),
    CapabilityDecision: obj({
      connectorId: str,
      capability: str,
      allowed: { type: 'boolean' },
      critical: { type: 'boolean' },
      idempotencyRequired: { type: 'boolean' },
      reason: str,
    }),
    Connection: obj(
      {
        id: { type: 'string', format: 'uuid' },
        tenant: str,
        connectorId: str,
        environment: ref('Environment'),
        scopeLabel: str,
        state: { type: 'string', enum: ['Pending', 'Active'] },
        capabilities: {
          type: 'array',
          items: obj({ capability: str, critical: { type: 'boolean' }, idempotencyRequired: { type: 'boolean' } }),
        },
        nextStep: str,
        createdAt: { type: 'string', format: 'date-time' },
        resourceVersion: str,
        generation: { type: 'integer' },
      },
      ['id', 'connectorId', 'environment', 'scopeLabel', 'state', 'capabilities', 'nextStep', 'createdAt'],
    ),
    RouteInfo: obj({ method: str, path: str, purpose: str, auth: { type: 'boolean' } }),
    ListMetadata: obj({ continue: str, remainingItemCount: { type: 'integer', minimum: 0 } }),
    Receiver: obj({
      id: str,
      url: str,
      events: { type: 'array', items: str },
      state: str,
      createdAt: { type: 'string', format: 'date-time' },
      resourceVersion: str,
    }),
    Delivery: {
      type: 'object',
      properties: {
        id: str,
        webhookId: str,
        eventId: str,
        event: str,
        state: { type: 'string', enum: ['Pending', 'Succeeded', 'Failed'] },
        attempts: { type: 'integer' },
      },
    },
    AuditEntry: {
      type: 'object',
      properties: {
        id: str,
        sequence: { type: 'integer' },
        action: str,
        actor: str,
        at: { type: 'string', format: 'date-time' },
        parentDigest: str,
        digest: str,
      },
    },
  };
  const ops: Record<string, OpSchema> = {
    getSelfDescription: {
      ok: ok(
        obj({
          service: str,
          surface: str,
          version: str,
          authentication: { type: 'object' },
          idempotency: { type: 'object' },
          routes: { type: 'array', items: ref('RouteInfo') },
        }),
        false,
      ),
    },
    getOpenApi: {
      ok: { description: 'the OpenAPI 3.1 document', content: { 'application/json': { schema: { type: 'object' } } } },
    },
    listProviders: { parameters: [q('category', str)], ok: ok(list('providers', ref('Provider'))) },
    listConnectors: {
      parameters: [q('capability', str), q('providerId', str), q('category', str)],
      ok: ok(list('connectors', ref('Connector'))),
    },
    listCapabilities: { ok: ok(list('capabilities', ref('Capability'))) },
    checkCapability: {
      requestBody: body({
        type: 'object',
        properties: { connectorId: text(2, 120), capability: text(2, 120), environment: ref('Environment') },
        required: ['connectorId', 'capability'],
        additionalProperties: false,
      }),
      ok: ok(obj({ decision: ref('CapabilityDecision'), environment: ref('Environment') })),
    },
    listConnections: {
      parameters: paging,
      ok: ok(
        obj(
          {
            tenant: str,
            count: { type: 'integer', minimum: 0 },
            connections: { type: 'array', items: ref('Connection') },
            metadata: ref('ListMetadata'),
          },
          ['tenant', 'count', 'connections'],
        ),
      ),
    },
    createConnection: {
      requestBody: body({
        type: 'object',
        properties: {
          connectorId: text(2, 120),
          environment: ref('Environment'),
          scopeLabel: text(2, 120),
          capabilities: { type: 'array', minItems: 1, maxItems: 24, items: text(2, 120) },
        },
        required: ['connectorId', 'environment', 'scopeLabel', 'capabilities'],
        additionalProperties: false,
      }),
      ok: ok(ref('Connection')),
    },
    createIdempotencyKey: {
      requestBody: body({
        type: 'object',
        properties: { operation: text(2, 80) },
        required: ['operation'],
        additionalProperties: false,
      }),
      ok: ok(obj({ idempotencyKey: str, operation: str, expiresAt: { type: 'string', format: 'date-time' } })),
    },
    watchStatus: {
      parameters: [
        q('cursor', { type: 'integer', minimum: 0 }),
        { name: 'Last-Event-ID', in: 'header', required: false, schema: str },
      ],
      ok: {
        description: 'Server-Sent Events: event ADDED or MODIFIED, id = sequence number',
        content: { 'text/event-stream': { schema: str } },
      },
    },
    createWebhook: {
      requestBody: body({
        type: 'object',
        properties: {
          url: { type: 'string', format: 'uri', maxLength: 2048 },
          events: { type: 'array', minItems: 1, maxItems: 16, items: { type: 'string', enum: WEBHOOK_EVENTS } },
        },
        required: ['url', 'events'],
        additionalProperties: false,
      }),
      ok: ok(
        obj({
          webhook: ref('Receiver'),
          credentials: obj({ hmacKey: { type: ['string', 'null'] }, algorithm: str, header: str }, [
            'algorithm',
            'header',
          ]),
        }),
      ),
    },
    listWebhooks: { ok: ok(list('webhooks', ref('Receiver'))) },
    deleteWebhook: { ok: ok(obj({ webhook: ref('Receiver') })) },
    listDeliveryAttempts: {
      parameters: paging,
      ok: ok(list('items', ref('Delivery'), { kind: str, webhookId: str, metadata: ref('ListMetadata') })),
    },
    redeliverDeliveryAttempt: { ok: ok(obj({ delivery: ref('Delivery') })) },
    getAuditLog: {
      parameters: [q('limit', { type: 'integer', minimum: 1, maximum: auditMaxLimit }), q('continue', str)],
      ok: ok(
        obj(
          {
            kind: str,
            tenant: str,
            count: { type: 'integer' },
            items: { type: 'array', items: ref('AuditEntry') },
            proof: { type: 'object' },
            metadata: ref('ListMetadata'),
          },
          ['count', 'items', 'proof'],
        ),
      ),
    },
    getInfo: {
      ok: ok(obj({ tenant: str, clientId: str, environment: ref('Environment') }, ['tenant', 'environment'])),
    },
  };
  return { components, ops };
}
