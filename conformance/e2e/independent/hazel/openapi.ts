// The OpenAPI 3.1 document, built from the route table so it documents exactly what is served.
import { KNOWN_VERSIONS } from './http-kit.ts';
import { SCHEMAS, success } from './openapi-schemas.ts';
import { ROUTES } from './routes.ts';
import { springPageSchema } from './spring-page.ts';
import type { State } from './store.ts';

const BODY: Record<string, string> = {
  checkCapabilityUsingPOST: 'CapabilityCheckRequest',
  createConnectionUsingPOST: 'ConnectionCreateRequest',
  createIdempotencyKeyUsingPOST: 'IdempotencyKeyRequest',
  createWebhookUsingPOST: 'WebhookCreateRequest',
};

const DATA: Record<string, string> = {
  describeServiceUsingGET: 'ServiceDescription',
  infoUsingGET: 'Info',
  listProvidersUsingGET: 'ProviderList',
  listConnectorsUsingGET: 'ConnectorList',
  listCapabilitiesUsingGET: 'CapabilityList',
  checkCapabilityUsingPOST: 'CapabilityCheckResult',
  listConnectionsUsingGET: 'ConnectionList',
  createConnectionUsingPOST: 'Connection',
  getConnectionUsingGET: 'Connection',
  createIdempotencyKeyUsingPOST: 'IdempotencyKeyResult',
  createWebhookUsingPOST: 'WebhookRegistration',
  deleteWebhookUsingDELETE: 'WebhookRemoval',
  listDeliveriesUsingGET: 'DeliveryList',
  redeliverUsingPOST: 'Delivery',
  listAuditLogUsingGET: 'AuditPage',
};

const QUERY: Record<string, [string, unknown, string][]> = {
  listProvidersUsingGET: [['category', { type: 'string' }, 'restricts to one category']],
  listConnectorsUsingGET: [
    ['capability', { type: 'string' }, 'connectors offering this capability'],
    ['providerId', { type: 'string' }, 'connectors of this provider'],
    ['category', { type: 'string' }, 'connectors of this category'],
  ],
  streamStatusUsingGET: [['cursor', { type: 'integer', minimum: 0 }, 'last number read']],
  listAuditLogUsingGET: [
    ['limit', { type: 'integer', minimum: 1, maximum: 200, default: 50 }, 'entries per page'],
    ['before', { type: 'integer', minimum: 1 }, 'entries with a smaller seq (paging backwards)'],
  ],
};

const ERRORS: [string, string, string][] = [
  ['400', 'BadRequest', 'invalid_request'],
  ['401', 'Unauthorized', 'unauthorized'],
  ['403', 'Forbidden', 'forbidden'],
  ['404', 'NotFound', 'not_found'],
  ['409', 'Conflict', 'idempotency_conflict or capability_denied'],
  ['428', 'PreconditionRequired', 'idempotency_required'],
  ['429', 'TooManyRequests', 'rate_limited'],
  ['500', 'InternalServerError', 'internal'],
];

// HAZEL_AUDIT_JCS: the proof names the hash and the canonicalization (RFC 8785) in the usual spelling
const jcsProof = (algorithm: string) => ({
  type: 'object',
  required: ['algorithm', 'canonicalization', 'headHash', 'count'],
  properties: {
    algorithm: { type: 'string', const: algorithm },
    canonicalization: { type: 'string', const: 'RFC8785' },
    headHash: { type: 'string' },
    count: { type: 'integer' },
  },
});

const RATE_HEADERS = {
  'X-RateLimit-Limit': { schema: { type: 'integer' }, description: 'limit of the current window' },
  'X-RateLimit-Remaining': { schema: { type: 'integer' }, description: 'calls left in the window' },
};

function operation(r: (typeof ROUTES)[number], versionRequired: string): Record<string, unknown> {
  // Service-Version is only ever mandatory on authenticated calls (HAZEL_VERSION_REQUIRED)
  const version = {
    name: 'Service-Version',
    in: 'header',
    required: versionRequired === 'all' || (r.auth && versionRequired === 'authenticated'),
    schema: { type: 'string', enum: KNOWN_VERSIONS },
  };
  const parameters: unknown[] = [version];
  if (r.auth) parameters.push({ $ref: '#/components/parameters/Tenant' });
  if (r.key) parameters.push({ $ref: '#/components/parameters/IdempotencyKey' });
  for (const name of r.path.match(/\{(\w+)\}/g) ?? [])
    parameters.push({ name: name.slice(1, -1), in: 'path', required: true, schema: { type: 'string' } });
  for (const [name, schema, description] of QUERY[r.operationId] ?? [])
    parameters.push({ name, in: 'query', required: false, schema, description });
  if (r.operationId === 'streamStatusUsingGET')
    parameters.push({
      name: 'Last-Event-ID',
      in: 'header',
      required: false,
      schema: { type: 'string' },
      description: 'last number read',
    });
  const ok =
    r.operationId === 'streamStatusUsingGET'
      ? {
          description:
            'Server-Sent Events: retry, then `id:`/`event: connection.status`/`data:` messages; `: keep-alive` every 10 s',
          content: { 'text/event-stream': { schema: { type: 'string' } } },
        }
      : r.operationId === 'openApiDocumentUsingGET'
        ? { description: 'this document', content: { 'application/json': { schema: { type: 'object' } } } }
        : {
            description: 'OK',
            headers: r.auth ? RATE_HEADERS : undefined,
            content: { 'application/json': { schema: success(DATA[r.operationId] ?? 'SuccessEnvelope') } },
          };
  const responses: Record<string, unknown> = { '200': ok };
  const codes = r.auth ? ERRORS : ERRORS.filter(([s]) => s === '400' || s === '500');
  for (const [status, name] of codes) {
    if (status === '428' && !r.key) continue;
    responses[status] = { $ref: `#/components/responses/${name}` };
  }
  const op: Record<string, unknown> = {
    operationId: r.operationId,
    summary: r.purpose,
    tags: [r.path.split('/')[1] || 'service'],
    parameters,
    responses,
    security: r.auth ? [{ oauth2: [] }] : [],
  };
  if (BODY[r.operationId])
    op.requestBody = {
      required: true,
      content: { 'application/json': { schema: { $ref: `#/components/schemas/${BODY[r.operationId]}` } } },
    };
  return op;
}

export function openApiDocument(state: State, version: string): Record<string, unknown> {
  const paths: Record<string, Record<string, unknown>> = {};
  for (const r of ROUTES) {
    const path = r.path === '' ? '/' : r.path;
    paths[path] ??= {};
    paths[path][r.method.toLowerCase()] = operation(r, state.options.versionRequired);
  }
  const responses: Record<string, unknown> = {};
  for (const [status, name, code] of ERRORS) {
    responses[name] = {
      description: `${code} (status ${status})`,
      headers:
        status === '429'
          ? { ...RATE_HEADERS, 'Retry-After': { schema: { type: 'integer' }, description: 'wait in seconds' } }
          : undefined,
      content: { 'application/json': { schema: { $ref: '#/components/schemas/FailureEnvelope' } } },
    };
  }
  return {
    openapi: '3.1.0',
    info: {
      title: 'Network Connections Service',
      version,
      description: 'Public interface of the Network Connections Service (hazel deployment).',
    },
    servers: [{ url: '/api/public/v1' }],
    tags: [
      { name: 'service' },
      { name: 'providers' },
      { name: 'connectors' },
      { name: 'capabilities' },
      { name: 'connections' },
      { name: 'webhooks' },
    ],
    paths,
    components: {
      schemas: {
        ...SCHEMAS,
        ...(state.options.auditJcs ? { AuditProof: jcsProof(state.options.auditJcs) } : {}),
        ...(state.options.springPages
          ? {
              AuditPage: springPageSchema('AuditEntry', {
                tenant: { type: 'string' },
                next: { type: ['string', 'null'] },
                proof: { $ref: '#/components/schemas/AuditProof' },
              }),
              DeliveryList: springPageSchema('Delivery', { webhookId: { type: 'string' } }),
            }
          : {}),
      },
      responses,
      parameters: {
        Tenant: { name: 'x-service-tenant', in: 'header', required: true, schema: { type: 'string' } },
        IdempotencyKey: {
          name: 'Idempotency-Key',
          in: 'header',
          required: true,
          schema: { type: 'string', pattern: '^[A-Za-z0-9._:-]{8,128}$', minLength: 8, maxLength: 128 },
        },
      },
      securitySchemes: {
        oauth2: {
          type: 'oauth2',
          flows: {
            clientCredentials: {
              tokenUrl: `${state.authOrigin}/as/token.oauth2`,
              scopes: { connections: 'connections', catalog: 'catalog', webhooks: 'webhooks', audit: 'audit' },
            },
          },
        },
      },
    },
  };
}
