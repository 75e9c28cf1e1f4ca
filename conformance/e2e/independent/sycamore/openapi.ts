// The OpenAPI 3.1 document, built in code from the same tables the server uses, served as JSON at
// /openapi.json and as downloadable files per version: /openapi/{version}.json and /openapi/{version}.yaml.
import { CURRENT_VERSION } from './http.ts';
import {
  bool,
  int,
  intHeader,
  LIMIT_HEADERS,
  list,
  obj,
  op,
  p,
  q,
  REQUEST_ID,
  ref,
  SCHEMAS,
  str,
  text,
  time,
  VERSION,
} from './openapi-schemas.ts';
import { WEBHOOK_EVENTS } from './webhooks.ts';

/** A downloadable document file per version (public; an unknown version is 404). */
function file(summary: string, type: string) {
  return {
    summary,
    security: [],
    parameters: [
      { name: 'version', in: 'path', required: true, schema: { type: 'string', enum: ['2026-07-01', '2026-06-12'] } },
    ],
    responses: {
      '200': {
        description: 'the document',
        content: { [type]: { schema: type === 'application/json' ? { type: 'object' } : str } },
      },
      '404': { $ref: '#/components/responses/Error' },
    },
  };
}

const webhookCreated = {
  allOf: [ref('Webhook'), obj({ signing_secret: str, signature_header: str })],
};
const pageLinks = obj({
  first: str,
  last: str,
  prev: { type: ['string', 'null'] },
  next: { type: ['string', 'null'] },
});

export function openapi(version = CURRENT_VERSION, auditMax = 100): Record<string, unknown> {
  const paths: Record<string, unknown> = {
    '/api/public/v1': {
      get: op(
        'self-description',
        obj({
          service: str,
          surface: str,
          version: str,
          authentication: { type: 'object' },
          idempotency: { type: 'object' },
          routes: { type: 'array', items: ref('RouteInfo') },
        }),
        { auth: false },
      ),
    },
    '/api/public/v1/openapi.json': {
      get: {
        summary: 'OpenAPI 3.1 document',
        security: [],
        responses: {
          '200': { description: 'the document', content: { 'application/json': { schema: { type: 'object' } } } },
        },
      },
    },
    '/api/public/v1/openapi/{version}.json': { get: file('OpenAPI file of a version (JSON)', 'application/json') },
    '/api/public/v1/openapi/{version}.yaml': { get: file('OpenAPI file of a version (YAML)', 'application/yaml') },
    '/api/public/v1/info': {
      get: op(
        'the access of the call',
        obj({ tenant: str, client_id: str, environment: ref('Environment'), token_expires_at: time }),
      ),
    },
    '/api/public/v1/providers': {
      get: op('list providers', list('providers', 'Provider'), { params: [q('category')] }),
    },
    '/api/public/v1/connectors': {
      get: op('list connectors', list('connectors', 'Connector'), {
        params: [q('capability'), q('providerId'), q('category')],
      }),
    },
    '/api/public/v1/capabilities': {
      get: op('capability catalog', list('capabilities', 'Capability')),
      post: op(
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
    '/api/public/v1/connections': {
      get: op(
        'connections of the tenant',
        obj({ tenant: str, count: int, connections: { type: 'array', items: ref('Connection') } }),
      ),
      post: op('create a connection', ref('Connection'), {
        key: 'required',
        body: obj(
          {
            connectorId: text(2, 120),
            environment: ref('Environment'),
            scopeLabel: text(2, 120),
            capabilities: { type: 'array', minItems: 1, maxItems: 24, items: text(2, 120) },
          },
          undefined,
          false,
        ),
      }),
    },
    '/api/public/v1/idempotency-keys': {
      post: op('generate an idempotency key', ref('IdempotencyKeyResult'), {
        key: 'optional',
        body: obj({ operation: text(2, 80) }),
      }),
    },
    '/api/public/v1/stream': {
      get: {
        summary: 'status stream (Server-Sent Events)',
        security: [],
        parameters: [
          VERSION,
          q('cursor', { type: 'integer', minimum: 0 }),
          { name: 'Last-Event-ID', in: 'header', required: false, schema: str },
        ],
        responses: {
          '200': { description: 'event stream', content: { 'text/event-stream': { schema: str } } },
          '400': { $ref: '#/components/responses/Error' },
        },
      },
    },
    '/api/public/v1/webhooks': {
      post: op('create a webhook receiver', webhookCreated, {
        key: 'required',
        body: obj(
          {
            url: { type: 'string', format: 'uri' },
            events: { type: 'array', minItems: 1, maxItems: 20, items: { type: 'string', enum: WEBHOOK_EVENTS } },
            description: str,
          },
          ['url', 'events'],
          false,
        ),
      }),
    },
    '/api/public/v1/webhooks/{webhookId}': {
      delete: op('remove a webhook receiver', obj({ id: str, deleted: bool }), {
        key: 'required',
        params: [p('webhookId')],
      }),
    },
    '/api/public/v1/webhooks/{webhookId}/deliveries': {
      get: op(
        'delivery log of a receiver (newest first)',
        obj({ webhook_id: str, count: int, deliveries: { type: 'array', items: ref('Delivery') } }),
        { params: [p('webhookId')] },
      ),
    },
    '/api/public/v1/webhooks/{webhookId}/deliveries/{deliveryId}/resend': {
      post: op('trigger a logged delivery again', ref('Delivery'), {
        key: 'required',
        params: [p('webhookId'), p('deliveryId')],
      }),
    },
    '/api/public/v1/audit-log': {
      get: op(
        'audit log with a SHA-512 hash chain (numbered pages)',
        obj({
          tenant: str,
          entries: { type: 'array', items: ref('AuditEntry') },
          current_page: int,
          last_page: int,
          per_page: int,
          total: int,
          links: pageLinks,
          chain_head: obj({ seq: int, hash: str, algorithm: str, canonicalization: str, genesis_hash: str }),
        }),
        {
          params: [
            q('page', { type: 'integer', minimum: 1 }),
            q('per_page', { type: 'integer', minimum: 1, maximum: auditMax }),
            q('limit', { type: 'integer', minimum: 1, maximum: auditMax }),
          ],
        },
      ),
    },
  };
  return {
    openapi: '3.1.0',
    info: { title: 'Network Connections Service (sycamore)', version },
    servers: [{ url: '/' }],
    paths,
    components: {
      schemas: SCHEMAS,
      responses: {
        Error: {
          description: 'failure envelope',
          headers: REQUEST_ID,
          content: { 'application/json': { schema: ref('Failure') } },
        },
        RateLimited: {
          description: 'rate_limited: the window of this access is used up',
          headers: {
            ...REQUEST_ID,
            ...LIMIT_HEADERS,
            'Retry-After': intHeader('seconds to wait before the next call'),
          },
          content: { 'application/json': { schema: ref('Failure') } },
        },
      },
      securitySchemes: {
        oauth2: { type: 'oauth2', flows: { clientCredentials: { tokenUrl: '/oauth/token', scopes: {} } } },
      },
    },
    'x-webhook-events': WEBHOOK_EVENTS,
    'x-webhook-signature-header': 'X-Sycamore-Signature',
  };
}
