// The OpenAPI document as protoc-gen-openapiv2 would emit it from the protos (operationIds Service_Method,
// v1*/rpc*/protobuf* schema names, one tag per service), then upgraded to 3.1 (servers, components,
// nullable-free JSON Schema). Built in code from the same tables the transcoder serves.
import { TOKEN_PATH } from './auth.ts';
import { schemas, text } from './openapi-schemas.ts';
import { ROUTES } from './routes.ts';
import { ENVIRONMENTS } from './validate.ts';
import { EVENT_NAMES } from './webhooks.ts';

const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });
const CODES = ['400', '401', '403', '404', '409', '428', '429', '500'];
const rateHeaders = {
  'X-RateLimit-Limit': { schema: { type: 'integer' }, description: 'token bucket capacity of the access' },
  'X-RateLimit-Remaining': { schema: { type: 'integer' }, description: 'tokens left in the bucket' },
  'X-Request-Id': { schema: { type: 'string' }, description: 'equals meta.requestId' },
  'grpc-status': { schema: { type: 'string' }, description: 'gRPC status code of the RPC, mirrored' },
};

/** The data schema of each RPC's success envelope, and its request body. */
const RPC: Record<string, { data?: string; body?: string; query?: [string, object][] }> = {
  'DiscoveryService.Describe': { data: 'v1Description' },
  'DiscoveryService.GetCallerInfo': { data: 'v1CallerInfo' },
  'ProviderService.ListProviders': { data: 'v1ListProvidersResponse', query: [['category', { type: 'string' }]] },
  'ConnectorService.ListConnectors': {
    data: 'v1ListConnectorsResponse',
    query: [
      ['capability', { type: 'string' }],
      ['providerId', { type: 'string' }],
      ['category', { type: 'string' }],
    ],
  },
  'CapabilityService.ListCapabilities': { data: 'v1ListCapabilitiesResponse' },
  'CapabilityService.CheckCapability': { data: 'v1CheckCapabilityResponse', body: 'v1CheckCapabilityRequest' },
  'ConnectionService.ListConnections': { data: 'v1ListConnectionsResponse' },
  'ConnectionService.GetConnection': { data: 'v1Connection' },
  'ConnectionService.CreateConnection': { data: 'v1Connection', body: 'v1CreateConnectionRequest' },
  'IdempotencyService.CreateIdempotencyKey': { data: 'v1IdempotencyKey', body: 'v1CreateIdempotencyKeyRequest' },
  'WebhookService.CreateWebhook': { data: 'v1CreatedWebhook', body: 'v1CreateWebhookRequest' },
  'WebhookService.ListWebhooks': { data: 'v1ListWebhooksResponse' },
  'WebhookService.GetWebhook': { data: 'v1Webhook' },
  'WebhookService.DeleteWebhook': { data: 'protobufEmpty' },
  'WebhookService.ListDeliveries': {
    data: 'v1ListDeliveriesResponse',
    query: [
      ['page_size', { type: 'integer', minimum: 1, maximum: 500, default: 50 }],
      ['page_token', { type: 'string' }],
    ],
  },
  'WebhookService.RetryDelivery': { data: 'v1Delivery', body: 'v1RetryDeliveryRequest' },
  'AuditService.ListAuditEntries': {
    data: 'v1ListAuditEntriesResponse',
    query: [
      ['limit', { type: 'integer', minimum: 1, maximum: 500, default: 50 }],
      ['page_size', { type: 'integer', minimum: 1, maximum: 500, default: 50 }],
      ['page_token', { type: 'string' }],
    ],
  },
};

function envelope(data: string) {
  return {
    type: 'object',
    required: ['ok', 'data', 'meta'],
    properties: { ok: { type: 'boolean', const: true }, data: ref(data), meta: ref('v1Meta') },
  };
}

function operation(r: (typeof ROUTES)[number]) {
  const spec = RPC[r.rpc] ?? {};
  const [service, method] = r.rpc.split('.');
  const parameters: object[] = [
    {
      name: 'Service-Version',
      in: 'header',
      required: false,
      schema: { type: 'string', enum: ['2026-07-01', '2026-06-12'] },
    },
  ];
  for (const m of r.path.matchAll(/\{([^}]+)\}/g)) {
    parameters.push({ name: m[1], in: 'path', required: true, schema: { type: 'string' } });
  }
  if (r.auth) parameters.push({ name: 'x-service-tenant', in: 'header', required: true, schema: { type: 'string' } });
  if (r.key) {
    parameters.push({
      name: 'Idempotency-Key',
      in: 'header',
      required: true,
      schema: { type: 'string', pattern: '^[A-Za-z0-9._:-]{8,128}$' },
    });
  }
  for (const [name, schema] of spec.query ?? []) parameters.push({ name, in: 'query', required: false, schema });
  const responses: Record<string, object> = {};
  if (r.rpc === 'StatusService.StreamStatus') {
    parameters.push({ name: 'cursor', in: 'query', required: false, schema: { type: 'integer', minimum: 0 } });
    parameters.push({
      name: 'Last-Event-ID',
      in: 'header',
      required: false,
      schema: { type: 'string', pattern: '^[0-9]+$' },
    });
    responses['200'] = {
      description: 'A stream of status messages.',
      content: { 'text/event-stream': { schema: { type: 'string' } } },
    };
    responses['400'] = {
      description: 'cursor or Last-Event-ID malformed',
      content: { 'application/json': { schema: ref('v1FailureEnvelope') } },
    };
  } else if (r.rpc === 'DiscoveryService.GetOpenApi' || r.rpc === 'DiscoveryService.GetOpenApiYaml') {
    const type = r.rpc.endsWith('Yaml') ? 'application/yaml' : 'application/json';
    responses['200'] = {
      description: 'This document.',
      content: { [type]: { schema: { type: r.rpc.endsWith('Yaml') ? 'string' : 'object' } } },
    };
  } else {
    responses['200'] = {
      description: 'A successful response.',
      headers: r.auth ? rateHeaders : undefined,
      content: { 'application/json': { schema: envelope(spec.data ?? 'protobufEmpty') } },
    };
    for (const code of r.auth ? CODES : ['400', '500']) {
      responses[code] = {
        description: 'An error response (google.rpc.Status mapped to the failure envelope).',
        headers: code === '429' ? { ...rateHeaders, 'Retry-After': { schema: { type: 'integer' } } } : undefined,
        content: { 'application/json': { schema: ref('v1FailureEnvelope') } },
      };
    }
  }
  const op: Record<string, unknown> = {
    operationId: `${service}_${method}`,
    summary: r.purpose,
    tags: [service],
    parameters,
    responses,
    security: r.auth ? [{ OAuth2: [] }] : [],
  };
  if (spec.body) {
    op.requestBody = {
      required: r.rpc !== 'WebhookService.RetryDelivery',
      content: { 'application/json': { schema: ref(spec.body) } },
    };
  }
  return op;
}

export function openApiDocument(origin: string, int64Numbers = false) {
  const paths: Record<string, Record<string, object>> = {};
  for (const r of ROUTES) {
    const p = r.path.replace('/api/public/v1', '') || '/';
    paths[p] = { ...(paths[p] ?? {}), [r.method.toLowerCase()]: operation(r) };
  }
  return {
    openapi: '3.1.0',
    info: {
      title: 'holly/ncs/v1/service.proto',
      version: '2026-07-01',
      description: 'Network Connections Service, transcoded from the gRPC API (protoc-gen-openapiv2, upgraded to 3.1).',
    },
    servers: [{ url: '/api/public/v1' }],
    tags: [...new Set(ROUTES.map((r) => r.rpc.split('.')[0]))].map((name) => ({ name })),
    paths,
    components: {
      schemas: schemas(ENVIRONMENTS, EVENT_NAMES, int64Numbers),
      securitySchemes: {
        OAuth2: {
          type: 'oauth2',
          flows: {
            clientCredentials: {
              tokenUrl: `${origin}${TOKEN_PATH}`,
              scopes: { 'ncs.connections': 'connections', 'ncs.webhooks': 'webhooks', 'ncs.audit': 'audit log' },
            },
          },
        },
      },
    },
  };
}

/** A YAML rendering of the same document (every scalar as a JSON-quoted string or literal, valid YAML 1.2). */
export function toYaml(value: unknown, indent = ''): string {
  if (Array.isArray(value)) {
    if (value.length === 0) return '[]';
    return value.map((v) => `\n${indent}- ${toYaml(v, `${indent}  `).replace(/^\n\s*/, '')}`).join('');
  }
  if (value && typeof value === 'object') {
    const entries = Object.entries(value).filter(([, v]) => v !== undefined);
    if (entries.length === 0) return '{}';
    return entries.map(([k, v]) => `\n${indent}${text(k)}: ${toYaml(v, `${indent}  `)}`).join('');
  }
  return JSON.stringify(value);
}
