// The OpenAPI 3.1 document, shaped like drf-spectacular's output: components named *Request / *Response,
// nullable fields as type arrays, servers naming the base path.
import { CURRENT_VERSION } from './http-util.ts';
import { obj, ref, SCHEMAS } from './openapi-schemas.ts';

const KEY = {
  name: 'Idempotency-Key',
  in: 'header',
  required: true,
  schema: { type: 'string', pattern: '^[A-Za-z0-9._:-]{8,128}$', minLength: 8, maxLength: 128 },
};
const PAGE = { name: 'page', in: 'query', required: false, schema: { type: 'integer', minimum: 1 } };
// Every authenticated call names its tenant (the kit's openapi.parameters-documented found it missing, session 20).
const TENANT = { name: 'x-service-tenant', in: 'header', required: true, schema: { type: 'string' } };
const PAGED = {
  count: { type: 'integer' },
  next: { type: ['string', 'null'], format: 'uri' },
  previous: { type: ['string', 'null'], format: 'uri' },
};

function envelope(data: Record<string, unknown>): Record<string, unknown> {
  return obj({ ok: { type: 'boolean', const: true }, data, meta: ref('MetaResponse') });
}
function op(
  id: string,
  summary: string,
  data: Record<string, unknown>,
  extra: Record<string, unknown> = {},
  auth = true,
) {
  const errors: Record<string, unknown> = {};
  for (const st of auth ? ['400', '401', '403', '404', '409', '428', '429', '500'] : ['400', '500']) {
    errors[st] = { description: 'Failure envelope', content: { 'application/json': { schema: ref('ErrorResponse') } } };
  }
  const listed = Array.isArray(extra.parameters) ? (extra.parameters as unknown[]) : [];
  return {
    operationId: id,
    summary,
    ...(auth ? {} : { security: [] }),
    ...extra,
    ...(auth ? { parameters: [TENANT, ...listed] } : {}),
    responses: {
      '200': { description: 'Success envelope', content: { 'application/json': { schema: envelope(data) } } },
      ...errors,
    },
  };
}
const body = (name: string) => ({ required: true, content: { 'application/json': { schema: ref(name) } } });
const paged = (field: string, item: string) =>
  obj({ ...PAGED, [field]: { type: 'array', items: ref(item) } }, ['count', field]);

export function openApiDocument(): Record<string, unknown> {
  return {
    openapi: '3.1.0',
    info: { title: 'Network Connections Service', version: CURRENT_VERSION },
    servers: [{ url: '/api/public/v1' }],
    security: [{ oauth2: [] }],
    paths: {
      '/': { get: op('root_retrieve', 'Self-description', ref('SelfDescriptionResponse'), {}, false) },
      '/openapi.json': { get: op('openapi_retrieve', 'OpenAPI 3.1 document', { type: 'object' }, {}, false) },
      '/openapi.yaml': {
        get: {
          operationId: 'openapi_yaml_retrieve',
          summary: 'OpenAPI 3.1 document (YAML)',
          security: [],
          responses: {
            '200': { description: 'YAML', content: { 'application/yaml': { schema: { type: 'string' } } } },
          },
        },
      },
      '/info': {
        get: op(
          'info_retrieve',
          'The calling access',
          obj({ tenant: { type: 'string' }, clientId: { type: 'string' }, environment: { type: 'string' } }),
        ),
      },
      '/providers': {
        get: op('providers_list', 'List providers', paged('providers', 'ProviderResponse'), {
          parameters: [{ name: 'category', in: 'query', required: false, schema: { type: 'string' } }, PAGE],
        }),
      },
      '/connectors': {
        get: op('connectors_list', 'List connectors', paged('connectors', 'ConnectorResponse'), {
          parameters: ['capability', 'providerId', 'category']
            .map((n) => ({ name: n, in: 'query', required: false, schema: { type: 'string' } }))
            .concat([PAGE as never]),
        }),
      },
      '/capabilities': {
        get: op('capabilities_list', 'Capability catalog', paged('capabilities', 'CapabilityResponse'), {
          parameters: [PAGE],
        }),
        post: op(
          'capabilities_check',
          'Check a capability of a connector',
          obj({ decision: ref('CapabilityDecisionResponse'), environment: ref('EnvironmentEnum') }),
          { requestBody: body('CapabilityCheckRequest') },
        ),
      },
      '/connections': {
        get: op(
          'connections_list',
          'Connections of the tenant',
          obj(
            { tenant: { type: 'string' }, ...PAGED, connections: { type: 'array', items: ref('ConnectionResponse') } },
            ['tenant', 'count', 'connections'],
          ),
          { parameters: [PAGE] },
        ),
        post: op('connections_create', 'Create a connection', ref('ConnectionResponse'), {
          parameters: [KEY],
          requestBody: body('ConnectionRequest'),
        }),
      },
      '/idempotency-keys': {
        post: op('idempotency_keys_create', 'Generate an idempotency key', ref('IdempotencyKeyResponse'), {
          requestBody: body('IdempotencyKeyRequest'),
        }),
      },
      '/stream': {
        get: {
          operationId: 'stream_retrieve',
          summary: 'Status stream (Server-Sent Events)',
          security: [],
          parameters: [
            { name: 'cursor', in: 'query', required: false, schema: { type: 'integer', minimum: 0 } },
            { name: 'Last-Event-ID', in: 'header', required: false, schema: { type: 'string' } },
          ],
          responses: {
            '200': { description: 'Event stream', content: { 'text/event-stream': { schema: { type: 'string' } } } },
            '400': {
              description: 'Failure envelope',
              content: { 'application/json': { schema: ref('ErrorResponse') } },
            },
          },
        },
      },
      '/webhooks': {
        post: op('webhooks_create', 'Create a webhook receiver', ref('WebhookResponse'), {
          parameters: [KEY],
          requestBody: body('WebhookRequest'),
        }),
      },
      '/webhooks/{id}/deliveries': {
        get: op('webhooks_deliveries_list', 'Delivery log of a receiver', paged('results', 'DeliveryResponse'), {
          parameters: [{ name: 'id', in: 'path', required: true, schema: { type: 'string' } }, PAGE],
        }),
      },
      '/webhooks/{id}/deliveries/{deliveryId}/resend': {
        post: op('webhooks_deliveries_resend', 'Trigger a delivery again', ref('DeliveryResponse'), {
          parameters: [
            { name: 'id', in: 'path', required: true, schema: { type: 'string' } },
            { name: 'deliveryId', in: 'path', required: true, schema: { type: 'string' } },
            KEY,
          ],
        }),
      },
      '/audit-log': {
        get: op(
          'audit_log_list',
          'Audit log of the tenant, newest first, with a proof',
          obj(
            {
              tenant: { type: 'string' },
              ...PAGED,
              results: { type: 'array', items: { type: 'object' } },
              proof: { type: 'object' },
            },
            ['count', 'results', 'proof'],
          ),
          {
            parameters: [
              { name: 'limit', in: 'query', required: false, schema: { type: 'integer', minimum: 1, maximum: 500 } },
              PAGE,
            ],
          },
        ),
      },
    },
    components: {
      securitySchemes: {
        oauth2: { type: 'oauth2', flows: { clientCredentials: { tokenUrl: '/o/token/', scopes: {} } } },
      },
      schemas: SCHEMAS,
    },
  };
}
