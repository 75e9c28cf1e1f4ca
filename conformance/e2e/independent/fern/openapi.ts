// The OpenAPI 3.1 document, built in code the way FastAPI would emit it behind a root path: the server
// names /api/public/v1 and the paths are relative to it. Every limit is the interface's.
import { components, envelope, list, obj, ref, s } from './openapi-schemas.ts';
import { EVENT_NAMES } from './webhooks.ts';

const errorCodes = {
  400: 'invalid_request',
  401: 'unauthorized',
  403: 'forbidden',
  404: 'not_found',
  409: 'capability_denied or idempotency_conflict',
  428: 'idempotency_required',
  429: 'rate_limited',
  500: 'internal',
};

function op(
  summary: string,
  data: unknown,
  opts: { auth?: boolean; key?: 'required' | 'optional'; body?: unknown; query?: unknown[]; path?: string[] } = {},
) {
  const auth = opts.auth ?? true;
  const parameters: unknown[] = [...(opts.query ?? [])];
  for (const p of opts.path ?? [])
    parameters.push({ name: p, in: 'path', required: true, schema: { type: 'string', format: 'uuid' } });
  if (auth)
    parameters.push({ $ref: '#/components/parameters/Tenant' }, { $ref: '#/components/parameters/ServiceVersion' });
  if (opts.key)
    parameters.push({
      name: 'Idempotency-Key',
      in: 'header',
      required: opts.key === 'required',
      schema: { type: 'string', pattern: '^[A-Za-z0-9._:-]{8,128}$', minLength: 8, maxLength: 128 },
    });
  const responses: Record<string, unknown> = {
    200: { description: 'Success', content: { 'application/json': { schema: envelope(data) } } },
  };
  if (auth)
    for (const [status, code] of Object.entries(errorCodes))
      responses[status] = { description: code, content: { 'application/json': { schema: ref('Failure') } } };
  const o: Record<string, unknown> = { summary, parameters, responses };
  if (auth) o.security = [{ oauth2: [] }];
  else o.security = [];
  if (opts.body) o.requestBody = { required: true, content: { 'application/json': { schema: opts.body } } };
  return o;
}

export function openapiDocument(tokenUrl: string) {
  const connection = ref('Connection');
  const webhook = obj(['id', 'url', 'events'], {
    id: { type: 'string', format: 'uuid' },
    url: { type: 'string' },
    events: { type: 'array', items: { type: 'string' } },
    status: { type: 'string' },
    createdAt: { type: 'string', format: 'date-time' },
    secret: { type: 'string', description: 'signing key, in the creating answer only' },
  });
  return {
    openapi: '3.1.0',
    info: { title: 'Network Connections Service (fern)', version: '2026-07-01' },
    servers: [{ url: '/api/public/v1' }],
    paths: {
      '/': {
        get: op(
          'self-description',
          obj(['service', 'surface', 'version', 'authentication', 'idempotency', 'routes'], {
            service: { type: 'string' },
            surface: { type: 'string' },
            version: { type: 'string' },
            authentication: { type: 'object' },
            idempotency: { type: 'object' },
            routes: { type: 'array', items: ref('RouteInfo') },
          }),
          { auth: false },
        ),
      },
      '/openapi.json': {
        get: {
          summary: 'OpenAPI 3.1 document',
          security: [],
          responses: {
            200: { description: 'This document', content: { 'application/json': { schema: { type: 'object' } } } },
          },
        },
      },
      '/stream': {
        get: {
          summary: 'status stream (Server-Sent Events)',
          security: [],
          parameters: [
            { name: 'cursor', in: 'query', required: false, schema: { type: 'integer', minimum: 0 } },
            { name: 'Last-Event-ID', in: 'header', required: false, schema: { type: 'string' } },
          ],
          responses: {
            200: {
              description: 'text/event-stream; kinds connection.requested, connection.ready',
              content: { 'text/event-stream': { schema: { type: 'string' } } },
            },
            400: { description: 'invalid cursor', content: { 'application/json': { schema: ref('Failure') } } },
          },
        },
      },
      '/info': { get: op('the calling access', { type: 'object' }) },
      '/providers': {
        get: op('list providers', list('providers', ref('Provider')), {
          query: [{ name: 'category', in: 'query', required: false, schema: { type: 'string' } }],
        }),
      },
      '/connectors': {
        get: op('list connectors', list('connectors', ref('Connector')), {
          query: ['capability', 'providerId', 'category'].map((name) => ({
            name,
            in: 'query',
            required: false,
            schema: { type: 'string' },
          })),
        }),
      },
      '/capabilities': {
        get: op('capability catalog', list('capabilities', ref('Capability'))),
        post: op(
          'check a capability of a connector',
          obj(['decision', 'environment'], { decision: ref('CapabilityDecision'), environment: ref('Environment') }),
          {
            body: obj(['connectorId', 'capability'], {
              connectorId: s(2, 120),
              capability: s(2, 120),
              environment: { ...ref('Environment'), default: 'sandbox' },
            }),
          },
        ),
      },
      '/connections': {
        get: op(
          'connections of the tenant',
          obj(['tenant', 'count', 'connections'], {
            tenant: { type: 'string' },
            count: { type: 'integer' },
            connections: { type: 'array', items: connection },
          }),
        ),
        post: op('create a connection', connection, {
          key: 'required',
          body: obj(
            ['connectorId', 'environment', 'scopeLabel', 'capabilities'],
            {
              connectorId: s(2, 120),
              environment: ref('Environment'),
              scopeLabel: s(2, 120),
              capabilities: { type: 'array', minItems: 1, maxItems: 24, items: s(2, 120) },
            },
            false,
          ),
        }),
      },
      '/connections/{connectionId}': { get: op('one connection', connection, { path: ['connectionId'] }) },
      '/idempotency-keys': {
        post: op(
          'generate an idempotency key',
          obj(['idempotencyKey', 'operation', 'expiresAt'], {
            idempotencyKey: { type: 'string' },
            operation: { type: 'string' },
            expiresAt: { type: 'string', format: 'date-time' },
          }),
          { key: 'optional', body: obj(['operation'], { operation: s(2, 80) }) },
        ),
      },
      '/webhooks': {
        get: op('webhook receivers of the tenant', list('webhooks', webhook)),
        post: op('create a webhook receiver', webhook, {
          key: 'required',
          body: obj(['url', 'events'], {
            url: { type: 'string', format: 'uri', minLength: 8, maxLength: 2048 },
            events: { type: 'array', minItems: 1, maxItems: 20, items: { enum: EVENT_NAMES } },
          }),
        }),
      },
      '/webhooks/{webhookId}': {
        get: op('one webhook receiver', webhook, { path: ['webhookId'] }),
        delete: op('remove a webhook receiver', { type: 'object' }, { path: ['webhookId'], key: 'required' }),
      },
      '/webhooks/{webhookId}/delivery-log': {
        get: op(
          'delivery log of a receiver, newest first',
          obj(['webhookId', 'count', 'deliveries'], {
            webhookId: { type: 'string' },
            count: { type: 'integer' },
            deliveries: { type: 'array', items: { type: 'object' } },
          }),
          { path: ['webhookId'] },
        ),
      },
      '/webhook-deliveries/{deliveryId}/resend': {
        post: op('trigger a logged delivery again', { type: 'object' }, { path: ['deliveryId'], key: 'required' }),
      },
      '/audit-log': {
        get: op(
          'audit log of the tenant, oldest first, sha256 pipe chain',
          { type: 'object', description: 'entries, next, integrity' },
          {
            query: [
              {
                name: 'limit',
                in: 'query',
                required: false,
                schema: { type: 'integer', minimum: 1, maximum: 100, default: 50 },
              },
              { name: 'after', in: 'query', required: false, schema: { type: 'integer', minimum: 0 } },
            ],
          },
        ),
      },
    },
    components: components(tokenUrl),
  };
}
