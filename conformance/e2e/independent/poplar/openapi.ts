// The OpenAPI 3.1 document, built in code from poplar's own route table (relative server, short paths).
import { COMPONENTS } from './openapi-schemas.ts';
import { ENVIRONMENTS } from './validate.ts';
import { EVENT_NAMES } from './webhooks.ts';

const str = (min?: number, max?: number) => ({
  type: 'string',
  ...(min ? { minLength: min } : {}),
  ...(max ? { maxLength: max } : {}),
});
const ref = (n: string) => ({ $ref: `#/components/schemas/${n}` });
const env = { type: 'string', enum: ENVIRONMENTS };
const key = {
  name: 'Idempotency-Key',
  in: 'header',
  required: true,
  schema: { type: 'string', pattern: '^[A-Za-z0-9._:-]{8,128}$' },
};
const optKey = { ...key, required: false };
const tenant = { name: 'x-service-tenant', in: 'header', required: true, schema: { type: 'string' } };
const version = {
  name: 'Service-Version',
  in: 'header',
  required: false,
  schema: { type: 'string', enum: ['2026-07-01', '2026-06-12'] },
};

function envelope(data: unknown) {
  return {
    type: 'object',
    required: ['ok', 'data', 'meta'],
    properties: { ok: { const: true }, data, meta: ref('Meta') },
  };
}

function op(
  summary: string,
  opts: { auth: boolean; params?: unknown[]; body?: unknown; data?: unknown; keyed?: boolean },
) {
  const errors = opts.auth ? ['400', '401', '403', '404', '409', '428', '429', '500'] : ['400', '500'];
  const responses: Record<string, unknown> = {
    '200': {
      description: 'OK',
      content: { 'application/json': { schema: envelope(opts.data ?? { type: 'object' }) } },
    },
  };
  for (const e of errors) responses[e] = { $ref: '#/components/responses/Error' };
  const parameters = [version, ...(opts.auth ? [tenant] : []), ...(opts.keyed ? [key] : []), ...(opts.params ?? [])];
  return {
    summary,
    operationId: summary
      .replace(/[^A-Za-z]+(.)/g, (_, c: string) => c.toUpperCase())
      .replace(/^./, (c) => c.toLowerCase()),
    ...(opts.auth ? {} : { security: [] }),
    parameters,
    ...(opts.body ? { requestBody: { required: true, content: { 'application/json': { schema: opts.body } } } } : {}),
    responses,
  };
}

const q = (name: string) => ({ name, in: 'query', required: false, schema: { type: 'string' } });
const p = (name: string) => ({ name, in: 'path', required: true, schema: { type: 'string' } });
const list = (field: string, item: string) => ({
  type: 'object',
  required: ['count', field],
  properties: { count: { type: 'integer' }, [field]: { type: 'array', items: ref(item) } },
});

export function openapi(): Record<string, unknown> {
  return {
    openapi: '3.1.0',
    info: { title: 'Network Connections Service (poplar)', version: '2026-07-01' },
    servers: [{ url: '/api/public/v1' }],
    security: [{ bearer: [] }],
    paths: {
      '/': { get: op('self-description', { auth: false }) },
      '/openapi.json': { get: op('OpenAPI 3.1 document', { auth: false }) },
      '/openapi/{version}.json': {
        get: op('OpenAPI document download as JSON', { auth: false, params: [p('version')] }),
      },
      '/openapi/{version}.yaml': {
        get: {
          ...op('OpenAPI document download as YAML', { auth: false, params: [p('version')] }),
          responses: {
            '200': { description: 'the document', content: { 'application/yaml': { schema: { type: 'string' } } } },
            '404': { $ref: '#/components/responses/Error' },
          },
        },
      },
      '/info': { get: op('who am I', { auth: true }) },
      '/providers': {
        get: op('list providers', { auth: true, params: [q('category')], data: list('providers', 'Provider') }),
      },
      '/connectors': {
        get: op('list connectors', {
          auth: true,
          params: [q('capability'), q('providerId'), q('category')],
          data: list('connectors', 'Connector'),
        }),
      },
      '/capabilities': {
        get: op('capability catalog', { auth: true, data: list('capabilities', 'Capability') }),
        post: op('check a capability of a connector', {
          auth: true,
          body: {
            type: 'object',
            additionalProperties: false,
            required: ['connectorId', 'capability'],
            properties: {
              connectorId: str(2, 120),
              capability: str(2, 120),
              environment: { ...env, default: 'sandbox' },
            },
          },
          data: {
            type: 'object',
            required: ['decision', 'environment'],
            properties: { decision: ref('CapabilityDecision'), environment: env },
          },
        }),
      },
      '/connections': {
        get: op('connections of the tenant', {
          auth: true,
          data: {
            type: 'object',
            required: ['tenant', 'count', 'connections'],
            properties: {
              tenant: { type: 'string' },
              count: { type: 'integer' },
              connections: { type: 'array', items: ref('Connection') },
            },
          },
        }),
        post: op('create a connection', {
          auth: true,
          keyed: true,
          body: {
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
          data: ref('Connection'),
        }),
      },
      '/idempotency-keys': {
        post: op('generate an idempotency key', {
          auth: true,
          params: [optKey],
          body: {
            type: 'object',
            additionalProperties: false,
            required: ['operation'],
            properties: { operation: str(2, 80) },
          },
          data: {
            type: 'object',
            required: ['idempotencyKey', 'operation', 'expiresAt'],
            properties: {
              idempotencyKey: { type: 'string' },
              operation: { type: 'string' },
              expiresAt: { type: 'string', format: 'date-time' },
            },
          },
        }),
      },
      '/stream': {
        get: {
          summary: 'status stream (Server-Sent Events)',
          operationId: 'statusStream',
          security: [],
          parameters: [
            { name: 'cursor', in: 'query', required: false, schema: { type: 'integer', minimum: 0 } },
            { name: 'Last-Event-ID', in: 'header', required: false, schema: { type: 'string' } },
          ],
          responses: {
            '200': { description: 'event stream', content: { 'text/event-stream': { schema: { type: 'string' } } } },
            '400': { $ref: '#/components/responses/Error' },
          },
        },
      },
      '/webhooks': {
        post: op('create a webhook receiver', {
          auth: true,
          keyed: true,
          body: {
            type: 'object',
            additionalProperties: false,
            required: ['url', 'events'],
            properties: {
              url: { type: 'string', format: 'uri' },
              events: { type: 'array', minItems: 1, maxItems: 16, items: { type: 'string', enum: EVENT_NAMES } },
            },
          },
        }),
      },
      '/webhooks/{webhookId}': {
        delete: op('remove a webhook receiver', { auth: true, keyed: true, params: [p('webhookId')] }),
      },
      '/webhooks/{webhookId}/tasks': {
        get: op('delivery log of a webhook receiver (Cloud Tasks tasks)', { auth: true, params: [p('webhookId')] }),
      },
      '/webhooks/{webhookId}/tasks/{taskName}:run': {
        post: op('trigger a delivery again', { auth: true, keyed: true, params: [p('webhookId'), p('taskName')] }),
      },
      '/audit-log': {
        get: op('audit log', {
          auth: true,
          params: [
            {
              name: 'limit',
              in: 'query',
              required: false,
              schema: { type: 'integer', minimum: 1, maximum: 500, default: 20 },
            },
            q('pageToken'),
          ],
        }),
      },
      '/audit-log/checkpoint-keys': { get: op('public keys of the audit checkpoint signature', { auth: false }) },
    },
    components: COMPONENTS,
  };
}
