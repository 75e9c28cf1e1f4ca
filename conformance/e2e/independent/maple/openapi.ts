// The OpenAPI 3.1 description maple serves (built in code, the way protoc-gen-openapiv2 output is
// post-processed), and the same document as YAML.
const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });
const str = { type: 'string' };
const envelope = (data: unknown) => ({
  type: 'object',
  required: ['ok', 'data', 'meta'],
  properties: { ok: { const: true }, data, meta: ref('Meta') },
});
const obj = (properties: Record<string, unknown>, required = Object.keys(properties)) => ({
  type: 'object',
  required,
  properties,
});
const list = (name: string, item: string) =>
  obj({ count: { type: 'integer' }, [name]: { type: 'array', items: ref(item) } });
const key = {
  name: 'Idempotency-Key',
  in: 'header',
  required: true,
  schema: { type: 'string', pattern: '^[A-Za-z0-9._:-]{8,128}$' },
};
const tenant = { name: 'x-service-tenant', in: 'header', required: true, schema: str };
const q = (name: string, schema: unknown = str) => ({ name, in: 'query', required: false, schema });
const text = (min: number, max: number) => ({ type: 'string', minLength: min, maxLength: max });

function op(
  id: string,
  summary: string,
  data: unknown,
  opts: { auth?: boolean; params?: unknown[]; body?: unknown } = {},
) {
  const auth = opts.auth ?? true;
  const o: Record<string, unknown> = {
    operationId: `NetworkConnections_${id}`,
    summary,
    parameters: [...(auth ? [tenant] : []), ...(opts.params ?? [])],
    responses: {
      '200': { description: 'success', content: { 'application/json': { schema: envelope(data) } } },
      default: { description: 'failure', content: { 'application/json': { schema: ref('Failure') } } },
    },
  };
  if (!auth) o.security = [];
  if (opts.body) o.requestBody = { required: true, content: { 'application/json': { schema: opts.body } } };
  return o;
}

export function openapi(baseUrl: string, tokenUrl: string) {
  const P = '/api/public/v1';
  return {
    openapi: '3.1.0',
    info: { title: 'Network Connections Service (maple)', version: '2026-07-01' },
    servers: [{ url: baseUrl }],
    security: [{ oauth2: [] }],
    paths: {
      [P]: { get: op('GetServiceDescription', 'self-description', { type: 'object' }, { auth: false }) },
      [`${P}/openapi.json`]: { get: op('GetOpenApiJson', 'OpenAPI 3.1 document', { type: 'object' }, { auth: false }) },
      [`${P}/openapi.yaml`]: {
        get: op('GetOpenApiYaml', 'OpenAPI 3.1 document as YAML', { type: 'object' }, { auth: false }),
      },
      [`${P}/info`]: { get: op('GetInfo', 'the calling access', { type: 'object' }) },
      [`${P}/providers`]: {
        get: op('ListProviders', 'list providers', list('providers', 'Provider'), { params: [q('category')] }),
      },
      [`${P}/connectors`]: {
        get: op('ListConnectors', 'list connectors', list('connectors', 'Connector'), {
          params: [q('capability'), q('providerId'), q('category')],
        }),
      },
      [`${P}/capabilities`]: {
        get: op('ListCapabilities', 'capability catalog', list('capabilities', 'Capability')),
        post: op(
          'CheckCapability',
          'check a capability of a connector',
          obj({ decision: ref('CapabilityDecision'), environment: ref('Environment') }),
          {
            body: obj({ connectorId: text(2, 120), capability: text(2, 120), environment: ref('Environment') }, [
              'connectorId',
              'capability',
            ]),
          },
        ),
      },
      [`${P}/connections`]: {
        get: op(
          'ListConnections',
          'connections of the tenant',
          obj({ tenant: str, count: { type: 'integer' }, connections: { type: 'array', items: ref('Connection') } }),
        ),
        post: op('CreateConnection', 'create a connection', ref('Connection'), {
          params: [key],
          body: obj({
            connectorId: text(2, 120),
            environment: ref('Environment'),
            scopeLabel: text(2, 120),
            capabilities: { type: 'array', minItems: 1, maxItems: 24, items: text(2, 120) },
          }),
        }),
      },
      [`${P}/idempotency-keys`]: {
        post: op(
          'CreateIdempotencyKey',
          'generate an idempotency key',
          obj({ idempotencyKey: str, operation: str, expiresAt: { type: 'string', format: 'date-time' } }),
          {
            body: obj({ operation: text(2, 80) }),
          },
        ),
      },
      [`${P}/stream`]: {
        get: {
          operationId: 'NetworkConnections_StreamStatus',
          summary: 'status stream (Server-Sent Events)',
          security: [],
          parameters: [
            q('cursor', { type: 'integer', minimum: 0 }),
            { name: 'Last-Event-ID', in: 'header', required: false, schema: str },
          ],
          responses: {
            '200': { description: 'event stream', content: { 'text/event-stream': { schema: str } } },
            default: { description: 'failure', content: { 'application/json': { schema: ref('Failure') } } },
          },
        },
      },
      [`${P}/webhooks`]: {
        post: op('CreateWebhook', 'create a webhook receiver', ref('Webhook'), {
          params: [key],
          body: obj({ url: { type: 'string', format: 'uri' }, events: { type: 'array', minItems: 1, items: str } }),
        }),
      },
      [`${P}/webhooks/{webhookId}/deliveries`]: {
        get: op(
          'ListWebhookDeliveries',
          'delivery log of a webhook',
          obj({ deliveries: { type: 'array', items: ref('Delivery') }, nextPageToken: str }, ['deliveries']),
          {
            params: [
              { name: 'webhookId', in: 'path', required: true, schema: str },
              q('pageSize', { type: 'integer', minimum: 1, maximum: 100 }),
              q('pageToken'),
            ],
          },
        ),
      },
      [`${P}/webhooks/{webhookId}/deliveries/{deliveryId}:redeliver`]: {
        post: op('RedeliverWebhookDelivery', 'trigger a logged delivery again', ref('Delivery'), {
          params: [
            { name: 'webhookId', in: 'path', required: true, schema: str },
            { name: 'deliveryId', in: 'path', required: true, schema: str },
            key,
          ],
        }),
      },
      [`${P}/audit-log`]: {
        get: op(
          'ListAuditLog',
          'audit log with a hash-chain proof',
          obj(
            { entries: { type: 'array', items: { type: 'object' } }, proof: { type: 'object' }, nextPageToken: str },
            ['entries', 'proof'],
          ),
          {
            params: [
              q('limit', { type: 'integer', minimum: 1, maximum: 100 }),
              q('pageSize', { type: 'integer', minimum: 1, maximum: 100 }),
              q('pageToken'),
            ],
          },
        ),
      },
    },
    components: {
      securitySchemes: {
        oauth2: {
          type: 'oauth2',
          flows: { clientCredentials: { tokenUrl, scopes: { connections: 'use the interface' } } },
        },
      },
      schemas: {
        Environment: { type: 'string', enum: ['development', 'sandbox', 'pilot', 'production'] },
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
        Provider: obj({ id: str, name: str, category: str, summary: str }),
        Connector: obj({
          id: str,
          providerId: str,
          name: str,
          category: str,
          capabilities: { type: 'array', items: str },
        }),
        Capability: obj({
          id: str,
          label: str,
          critical: { type: 'boolean' },
          idempotencyRequired: { type: 'boolean' },
        }),
        CapabilityDecision: obj({
          connectorId: str,
          capability: str,
          allowed: { type: 'boolean' },
          critical: { type: 'boolean' },
          idempotencyRequired: { type: 'boolean' },
          reason: str,
        }),
        Connection: obj({
          id: str,
          connectorId: str,
          environment: ref('Environment'),
          scopeLabel: str,
          state: str,
          capabilities: {
            type: 'array',
            items: obj({ capability: str, critical: { type: 'boolean' }, idempotencyRequired: { type: 'boolean' } }),
          },
          nextStep: str,
          createdAt: { type: 'string', format: 'date-time' },
        }),
        Webhook: obj({
          id: str,
          url: str,
          events: { type: 'array', items: str },
          signingKey: str,
          createdAt: { type: 'string', format: 'date-time' },
        }),
        Delivery: obj({
          id: str,
          webhookId: str,
          eventId: str,
          event: str,
          status: str,
          attempts: { type: 'integer' },
          createdAt: { type: 'string', format: 'date-time' },
        }),
      },
    },
  };
}
