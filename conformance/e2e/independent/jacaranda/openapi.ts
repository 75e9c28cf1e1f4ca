// The route table (served by the self-description) and the OpenAPI 3.1 document built from it. The document's
// server is the base path, so its paths are relative (`/providers`), as a gateway's generated spec writes them.

import { TOKEN_PATH } from './guard.ts';
import { CURRENT_VERSION } from './http.ts';
import { body, components, failures, key, obj, op, P, ref, str, text, version } from './openapi-schemas.ts';

export const BASE = '/api/public/v1';

export const ROUTES = [
  { method: 'GET', path: BASE, purpose: 'self-description', auth: false },
  { method: 'GET', path: `${BASE}/openapi.json`, purpose: 'OpenAPI 3.1 document', auth: false },
  {
    method: 'GET',
    path: `${BASE}/openapi/{version}.json`,
    purpose: 'OpenAPI document of a version (JSON file)',
    auth: false,
  },
  {
    method: 'GET',
    path: `${BASE}/openapi/{version}.yaml`,
    purpose: 'OpenAPI document of a version (YAML file)',
    auth: false,
  },
  { method: 'GET', path: `${BASE}/providers`, purpose: 'list providers', auth: true },
  { method: 'GET', path: `${BASE}/connectors`, purpose: 'list connectors', auth: true },
  { method: 'GET', path: `${BASE}/capabilities`, purpose: 'capability catalog', auth: true },
  { method: 'POST', path: `${BASE}/capabilities`, purpose: 'check a capability of a connector', auth: true },
  { method: 'GET', path: `${BASE}/connections`, purpose: 'connections of the tenant', auth: true },
  { method: 'POST', path: `${BASE}/connections`, purpose: 'create a connection', auth: true },
  { method: 'POST', path: `${BASE}/idempotency-keys`, purpose: 'generate an idempotency key', auth: true },
  { method: 'GET', path: `${BASE}/stream`, purpose: 'status stream (Server-Sent Events)', auth: false },
  { method: 'POST', path: `${BASE}/webhooks`, purpose: 'create a webhook receiver', auth: true },
  { method: 'DELETE', path: `${BASE}/webhooks/{webhookId}`, purpose: 'remove a webhook receiver', auth: true },
  { method: 'GET', path: `${BASE}/webhook-deliveries`, purpose: 'delivery log of a webhook receiver', auth: true },
  {
    method: 'POST',
    path: `${BASE}/webhook-deliveries/{deliveryId}:retry`,
    purpose: 'trigger a delivery again',
    auth: true,
  },
  { method: 'GET', path: `${BASE}/audit-log`, purpose: 'audit log with a Merkle proof', auth: true },
  { method: 'GET', path: `${BASE}/info`, purpose: 'the calling access and tenant', auth: true },
];

/** A downloadable file of the document per published version. */
function download(type: string) {
  return {
    summary: `OpenAPI document of a version as a ${type} file`,
    security: [],
    parameters: [P('version', 'path', { type: 'string', enum: ['2026-07-01', '2026-06-12'] }, true)],
    responses: {
      '200': { description: 'the document', content: { [type]: { schema: { type: 'object' } } } },
      ...failures(false, ['404']),
    },
  };
}

export function openapi(tokenUrl: string, events: string[], docVersion = CURRENT_VERSION) {
  const env = { type: 'string', enum: ['development', 'sandbox', 'pilot', 'production'] };
  const list = (name: string, item: string) =>
    obj({ count: { type: 'integer' }, [name]: { type: 'array', items: ref(item) } });
  const write = (required: boolean) => [version(true), key(required)];
  const pages = [
    P('page_size', 'query', { type: 'integer', minimum: 1, maximum: 100 }),
    P('limit', 'query', { type: 'integer', minimum: 1, maximum: 100 }),
    P('page_token', 'query', str),
  ];
  const self = obj({
    service: str,
    surface: str,
    version: str,
    authentication: { type: 'object' },
    idempotency: { type: 'object' },
    routes: { type: 'array', items: obj({ method: str, path: str, purpose: str, auth: { type: 'boolean' } }) },
  });
  return {
    openapi: '3.1.0',
    info: { title: 'Network Connections Service', version: docVersion },
    servers: [{ url: BASE }],
    paths: {
      '/': { get: op('self-description', self, {}, false) },
      '/openapi.json': {
        get: {
          summary: 'OpenAPI 3.1 document',
          security: [],
          responses: {
            '200': { description: 'the document', content: { 'application/json': { schema: { type: 'object' } } } },
          },
        },
      },
      '/openapi/{version}.json': { get: download('application/json') },
      '/openapi/{version}.yaml': { get: download('application/yaml') },
      '/providers': {
        get: op('list providers', list('providers', 'Provider'), { parameters: [P('category', 'query', str)] }),
      },
      '/connectors': {
        get: op('list connectors', list('connectors', 'Connector'), {
          parameters: [P('capability', 'query', str), P('providerId', 'query', str), P('category', 'query', str)],
        }),
      },
      '/capabilities': {
        get: op('capability catalog', list('capabilities', 'Capability')),
        post: op('check a capability of a connector', obj({ decision: ref('CapabilityDecision'), environment: env }), {
          parameters: write(false),
          requestBody: body(
            obj(
              { connectorId: text(2, 120), capability: text(2, 120), environment: env },
              ['connectorId', 'capability'],
              false,
            ),
          ),
        }),
      },
      '/connections': {
        get: op(
          'connections of the tenant',
          obj({ tenant: str, count: { type: 'integer' }, connections: { type: 'array', items: ref('Connection') } }),
        ),
        post: op('create a connection', ref('Connection'), {
          parameters: write(true),
          requestBody: body(
            obj(
              {
                connectorId: text(2, 120),
                environment: env,
                scopeLabel: text(2, 120),
                capabilities: { type: 'array', minItems: 1, maxItems: 24, items: text(2, 120) },
              },
              undefined,
              false,
            ),
          ),
        }),
      },
      '/idempotency-keys': {
        post: op(
          'generate an idempotency key',
          obj({ idempotencyKey: str, operation: str, expiresAt: { type: 'string', format: 'date-time' } }),
          {
            parameters: write(false),
            requestBody: body(obj({ operation: text(2, 80) }, undefined, false)),
          },
        ),
      },
      '/stream': {
        get: {
          summary: 'status stream (Server-Sent Events)',
          security: [],
          parameters: [P('cursor', 'query', { type: 'integer', minimum: 0 }), P('Last-Event-ID', 'header', str)],
          responses: {
            '200': { description: 'event stream', content: { 'text/event-stream': { schema: str } } },
            '400': failures(false, ['400'])['400'],
          },
        },
      },
      '/webhooks': {
        post: op(
          'create a webhook receiver',
          obj({ id: str, url: str, events: { type: 'array', items: str }, createTime: str, signingKey: str }),
          {
            parameters: write(true),
            requestBody: body(
              obj(
                {
                  url: { type: 'string', format: 'uri' },
                  events: { type: 'array', minItems: 1, maxItems: 20, items: { type: 'string', enum: events } },
                },
                undefined,
                false,
              ),
            ),
          },
        ),
      },
      '/webhooks/{webhookId}': {
        delete: op('remove a webhook receiver', obj({ id: str, deleted: { type: 'boolean' } }), {
          parameters: [P('webhookId', 'path', str, true), ...write(true)],
        }),
      },
      '/webhook-deliveries': {
        get: op(
          'delivery log of a webhook receiver (oldest first)',
          obj(
            {
              receiver: str,
              count: { type: 'integer' },
              deliveries: { type: 'array', items: { type: 'object' } },
              next_page_token: str,
              total_size: { type: 'integer' },
            },
            ['receiver', 'count', 'deliveries', 'total_size'],
          ),
          {
            parameters: [P('receiver', 'query', str, true), ...pages],
          },
        ),
      },
      '/webhook-deliveries/{deliveryId}:retry': {
        post: op('trigger a delivery again', obj({ delivery: { type: 'object' } }), {
          parameters: [P('deliveryId', 'path', str, true), ...write(true)],
        }),
      },
      '/audit-log': {
        get: op(
          'audit log (oldest first) with a signed Merkle tree head',
          obj(
            {
              entries: { type: 'array', items: { type: 'object' } },
              next_page_token: str,
              total_size: { type: 'integer' },
              signed_tree_head: { type: 'object' },
            },
            ['entries', 'total_size', 'signed_tree_head'],
          ),
          {
            parameters: pages,
          },
        ),
      },
      '/info': { get: op('the calling access and tenant', { type: 'object' }) },
    },
    components: components(tokenUrl),
    'x-token-path': TOKEN_PATH,
  };
}
