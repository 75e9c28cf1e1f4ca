// The OpenAPI 3.1 document, written by hand as the team would keep it beside its Reitit routes (they do not
// generate it from Malli). Served at /openapi.json and as per-version JSON and YAML downloads.
import { arr, body, components, hookParam, key, list, obj, op, p, ref, str } from './openapi-parts.ts';
import { CURRENT, type Rec, WEBHOOK_EVENTS } from './state.ts';

const prefixed = (paths: Rec) =>
  Object.fromEntries(Object.entries(paths).map(([k, v]) => [k === '/' ? BASE : `${BASE}${k}`, v]));
const BASE = '/api/public/v1';
const VERSION_LIST = ['2026-07-01', '2026-06-12'];

/** The per-version downloads, described like any other operation so the route table and document agree. */
const downloads = () => ({
  '/openapi/{version}.json': {
    get: op(
      'OpenAPI document of one version (JSON download)',
      {},
      {
        parameters: [p('version', 'path', { type: 'string', enum: VERSION_LIST }, true)],
        ok: { description: 'The document', content: { 'application/json': { schema: { type: 'object' } } } },
      },
      false,
    ),
  },
  '/openapi/{version}.yaml': {
    get: op(
      'OpenAPI document of one version (YAML download)',
      {},
      {
        parameters: [p('version', 'path', { type: 'string', enum: VERSION_LIST }, true)],
        ok: { description: 'The document', content: { 'application/yaml': { schema: { type: 'string' } } } },
      },
      false,
    ),
  },
});

/** Added in 2026-07-01, so absent from the 2026-06-12 document. */
const deliveryLog = () => ({
  '/webhooks/{webhookId}/delivery-attempts': {
    get: op('Delivery log of a receiver', { type: 'object' }, { parameters: [hookParam] }),
  },
  '/webhooks/{webhookId}/delivery-attempts/{attemptId}/retry': {
    post: op(
      'Trigger a delivery again',
      { type: 'object' },
      { parameters: [hookParam, p('attemptId', 'path', { type: 'string', format: 'uuid' }, true), key] },
    ),
  },
});

export function document(version: string = CURRENT): Rec {
  return {
    openapi: '3.1.0',
    info: { title: 'Blackthorn network connections', version },
    // Full paths under a root server, so every path reads exactly as it is called.
    servers: [{ url: '/' }],
    paths: prefixed({
      '/': {
        get: op(
          'Self-description',
          obj(
            {
              service: { type: 'string' },
              surface: { type: 'string' },
              version: { type: 'string' },
              authentication: { type: 'object' },
              idempotency: { type: 'object' },
              routes: arr(ref('RouteInfo')),
            },
            ['service', 'surface', 'version', 'authentication', 'idempotency', 'routes'],
          ),
          {},
          false,
        ),
      },
      ...downloads(),
      '/openapi.json': {
        get: op(
          'OpenAPI 3.1 document',
          { type: 'object' },
          { ok: { description: 'The document', content: { 'application/json': { schema: { type: 'object' } } } } },
          false,
        ),
      },
      '/info': { get: op('Access, tenant and version', { type: 'object' }) },
      '/providers': {
        get: op('List providers', list('providers', 'Provider'), {
          parameters: [p('category', 'query', { type: 'string' })],
        }),
      },
      '/connectors': {
        get: op('List connectors', list('connectors', 'Connector'), {
          parameters: ['capability', 'providerId', 'category'].map((n) => p(n, 'query', { type: 'string' })),
        }),
      },
      '/capabilities': {
        get: op('Capability catalog', list('capabilities', 'Capability')),
        post: op('Check a capability', obj({ decision: ref('CapabilityDecision'), environment: ref('Environment') }), {
          requestBody: body(
            obj({ connectorId: str(2, 120), capability: str(2, 120), environment: ref('Environment') }, [
              'connectorId',
              'capability',
            ]),
          ),
        }),
      },
      '/connections': {
        get: op(
          'Connections of the tenant',
          obj({ tenant: { type: 'string' }, count: { type: 'integer' }, connections: arr(ref('Connection')) }),
        ),
        post: op('Create a connection', ref('Connection'), {
          parameters: [key],
          requestBody: body(
            obj(
              {
                connectorId: str(2, 120),
                environment: ref('Environment'),
                scopeLabel: str(2, 120),
                capabilities: { ...arr(str(2, 120)), minItems: 1, maxItems: 24 },
              },
              ['connectorId', 'environment', 'scopeLabel', 'capabilities'],
            ),
          ),
        }),
      },
      '/idempotency-keys': {
        post: op(
          'Generate an idempotency key',
          obj({
            idempotencyKey: { type: 'string' },
            operation: { type: 'string' },
            expiresAt: { type: 'string', format: 'date-time' },
          }),
          { requestBody: body(obj({ operation: str(2, 80) }, ['operation'])) },
        ),
      },
      '/stream': {
        get: op(
          'Status stream',
          {},
          {
            parameters: [
              p('cursor', 'query', { type: 'integer', minimum: 0 }),
              p('Last-Event-ID', 'header', { type: 'string' }),
            ],
            ok: { description: 'Server-Sent Events', content: { 'text/event-stream': { schema: { type: 'string' } } } },
          },
          false,
        ),
      },
      '/webhooks': {
        get: op('List webhook receivers', { type: 'object' }),
        post: op(
          'Create a webhook receiver; signing-secret is shown only here',
          { type: 'object' },
          {
            parameters: [key],
            requestBody: body(
              obj(
                {
                  url: { type: 'string', format: 'uri' },
                  events: { ...arr({ type: 'string', enum: WEBHOOK_EVENTS }), minItems: 1 },
                },
                ['url', 'events'],
              ),
            ),
          },
        ),
      },
      '/webhooks/{webhookId}': {
        delete: op('Remove a webhook receiver', { type: 'object' }, { parameters: [hookParam, key] }),
      },
      ...(version === CURRENT ? deliveryLog() : {}),
      '/audit-log': {
        get: op(
          'Audit log with hash-chain proof',
          { type: 'object' },
          {
            parameters: [
              p('limit', 'query', { type: 'integer', minimum: 1, maximum: 100 }),
              p('offset', 'query', { type: 'integer', minimum: 0 }),
            ],
          },
        ),
      },
    }),
    components,
  };
}
