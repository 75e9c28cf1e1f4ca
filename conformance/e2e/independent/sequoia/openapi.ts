// The OpenAPI 3.1 document, built in code from the same lists the server uses (events, environments, key
// pattern), the way http4k's contract module renders its routes. JSON is also valid YAML 1.2, so the YAML
// download is the same text.
import { CURRENT_VERSION } from './http-kit.ts';
import { TOKEN_PATH } from './oauth.ts';
import { anyObj, arr, env, errors, header, json, keyH, obj, op, query, ref, str, versionH } from './openapi-parts.ts';
import { WEBHOOK_EVENTS } from './webhook-outbox.ts';

/** Leaves out what a version did not have, then prefixes. */
const forVersion = (version: string, paths: Record<string, unknown>) =>
  prefixed(
    version === '2026-06-12'
      ? Object.fromEntries(Object.entries(paths).filter(([k]) => !k.includes('/outbox')))
      : paths,
  );

/** Full paths under a root server, so the document reads the same on both base addresses. */
const prefixed = (paths: Record<string, unknown>) =>
  Object.fromEntries(Object.entries(paths).map(([k, v]) => [`/api/public/v1${k === '/' ? '' : k}`, v]));

/** The description of one published version; 2026-06-12 had no delivery log yet. */
export function buildOpenApi(version: string = CURRENT_VERSION): Record<string, unknown> {
  const cap = obj({ id: str(), label: str(), critical: { type: 'boolean' }, idempotencyRequired: { type: 'boolean' } });
  const conn = obj({
    id: str(),
    connectorId: str(),
    environment: env,
    scopeLabel: str(),
    state: { type: 'string', enum: ['requested', 'active'] },
    capabilities: arr(
      obj({ capability: str(), critical: { type: 'boolean' }, idempotencyRequired: { type: 'boolean' } }),
    ),
    nextStep: str(),
    createdAt: { type: 'string', format: 'date-time' },
  });
  const hookId = { name: 'webhookId', in: 'path', required: true, schema: str() };
  return {
    openapi: '3.1.0',
    info: { title: 'Network Connections Service (sequoia)', version },
    servers: [{ url: '/' }],
    paths: forVersion(version, {
      '/': {
        get: op(
          'self-description',
          obj({
            service: str(),
            surface: str(),
            version: str(),
            authentication: anyObj,
            idempotency: anyObj,
            routes: arr(obj({ method: str(), path: str(), purpose: str(), auth: { type: 'boolean' } })),
          }),
          {},
          false,
        ),
      },
      '/openapi.json': {
        get: {
          summary: 'OpenAPI 3.1 document',
          security: [],
          responses: {
            '200': { description: 'the document', content: { 'application/json': { schema: { type: 'object' } } } },
          },
        },
      },
      '/providers': {
        get: op(
          'list providers',
          obj({
            count: { type: 'integer' },
            providers: arr(obj({ id: str(), name: str(), category: str(), summary: str() })),
          }),
          { parameters: [query('category', str())] },
        ),
      },
      '/connectors': {
        get: op(
          'list connectors',
          obj({
            count: { type: 'integer' },
            connectors: arr(
              obj({ id: str(), providerId: str(), name: str(), category: str(), capabilities: arr(str()) }),
            ),
          }),
          { parameters: [query('capability', str()), query('providerId', str()), query('category', str())] },
        ),
      },
      '/capabilities': {
        get: op('capability catalog', obj({ count: { type: 'integer' }, capabilities: arr(cap) })),
        post: op(
          'check a capability of a connector',
          obj({
            decision: obj({
              connectorId: str(),
              capability: str(),
              allowed: { type: 'boolean' },
              critical: { type: 'boolean' },
              idempotencyRequired: { type: 'boolean' },
              reason: str(),
            }),
            environment: env,
          }),
          {
            requestBody: json(
              obj({ connectorId: str(2, 120), capability: str(2, 120), environment: { ...env, default: 'sandbox' } }, [
                'connectorId',
                'capability',
              ]),
            ),
          },
        ),
      },
      '/connections': {
        get: op(
          'connections of the tenant',
          obj({ tenant: str(), count: { type: 'integer' }, connections: arr(conn) }),
        ),
        post: op('create a connection', conn, {
          parameters: [keyH(true)],
          requestBody: json(
            obj({
              connectorId: str(2, 120),
              environment: env,
              scopeLabel: str(2, 120),
              capabilities: { ...arr(str(2, 120)), minItems: 1, maxItems: 24 },
            }),
          ),
        }),
      },
      '/idempotency-keys': {
        post: op(
          'generate an idempotency key',
          obj({ idempotencyKey: str(), operation: str(), expiresAt: { type: 'string', format: 'date-time' } }),
          { parameters: [keyH(false)], requestBody: json(obj({ operation: str(2, 80) })) },
        ),
      },
      '/stream': {
        get: {
          summary: 'status stream (Server-Sent Events)',
          security: [],
          parameters: [
            query('cursor', { type: 'integer', minimum: 0 }),
            header('Last-Event-ID', false, str()),
            versionH,
          ],
          responses: {
            '200': {
              description: `named events: ${['connection.requested', 'connection.active'].join(', ')}`,
              content: { 'text/event-stream': { schema: str() } },
            },
            '400': errors['400'],
          },
        },
      },
      '/webhooks': {
        post: op('create a webhook receiver', anyObj, {
          parameters: [keyH(true)],
          requestBody: json(
            obj({
              url: { type: 'string', format: 'uri' },
              events: { ...arr({ type: 'string', enum: WEBHOOK_EVENTS }), minItems: 1 },
            }),
          ),
        }),
      },
      '/webhooks/{webhookId}': {
        delete: op('remove a webhook receiver', anyObj, { parameters: [hookId, keyH(true)] }),
      },
      '/webhooks/{webhookId}/outbox': {
        get: op('delivery log of a receiver (its outbox rows)', anyObj, { parameters: [hookId] }),
      },
      '/webhooks/{webhookId}/outbox/{deliveryId}/requeue': {
        post: op('trigger a logged delivery again', anyObj, {
          parameters: [hookId, { name: 'deliveryId', in: 'path', required: true, schema: str() }, keyH(true)],
        }),
      },
      '/audit-log': {
        get: op('audit log with Merkle proof', anyObj, {
          parameters: [query('limit', { type: 'integer', minimum: 1, maximum: 500 }), query('cursor', str())],
        }),
      },
      '/info': { get: op('who is calling', anyObj) },
    }),
    components: {
      schemas: {
        Meta: obj(
          {
            requestId: str(),
            version: str(),
            at: { type: 'string', format: 'date-time' },
            idempotencyKey: str(),
            replayed: { type: 'boolean' },
          },
          ['requestId', 'version', 'at'],
        ),
        Failure: obj({
          ok: { const: false },
          error: obj(
            {
              code: {
                type: 'string',
                enum: [
                  'unauthorized',
                  'forbidden',
                  'not_found',
                  'invalid_request',
                  'capability_denied',
                  'idempotency_conflict',
                  'idempotency_required',
                  'rate_limited',
                  'internal',
                ],
              },
              message: str(),
              detail: str(),
              hint: str(),
            },
            ['code', 'message'],
          ),
          meta: ref('Meta'),
        }),
      },
      securitySchemes: {
        oauth2: {
          type: 'oauth2',
          flows: {
            clientCredentials: {
              tokenUrl: TOKEN_PATH,
              scopes: { 'connections:write': 'create', 'catalog:read': 'read' },
            },
          },
        },
      },
    },
  };
}
