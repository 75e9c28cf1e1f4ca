// The OpenAPI document as open_api_spex renders it (3.0: `nullable`, schemas under components by title), then
// converted to 3.1: `openapi: 3.1.0`, `nullable: true` becomes a "null" member of `type`.
import { CURRENT_VERSION } from './conn.ts';
import {
  body,
  ENV,
  envelope,
  errors,
  keyHeader,
  limitHeaders,
  list,
  obj,
  op,
  pageQ,
  q,
  ref,
  type Schema,
  schemas,
  str,
} from './openapi-schemas.ts';
import { EVENT_NAMES } from './webhooks.ts';

function spex30(tokenUrl: string): Schema {
  const P = '/api/public/v1';
  return {
    openapi: '3.0.0',
    info: { title: 'Network Connections Service (cherry)', version: CURRENT_VERSION },
    servers: [{ url: '/' }],
    paths: {
      [P]: {
        get: op(
          'selfDescription',
          'self-description',
          false,
          envelope(
            obj({
              service: str(),
              surface: str(),
              version: str(),
              authentication: { type: 'object' },
              idempotency: { type: 'object' },
              routes: { type: 'array', items: ref('RouteInfo') },
            }),
          ),
        ),
      },
      [`${P}/openapi.json`]: {
        get: {
          operationId: 'openapi',
          summary: 'OpenAPI 3.1 document',
          responses: { '200': { description: 'OK', content: { 'application/json': { schema: { type: 'object' } } } } },
        },
      },
      [`${P}/openapi/{file}`]: {
        get: {
          operationId: 'openapiFile',
          summary: 'OpenAPI document per version as a download (2026-07-01.json, 2026-07-01.yaml)',
          parameters: [
            {
              name: 'file',
              in: 'path',
              required: true,
              schema: str({ pattern: '^\\d{4}-\\d{2}-\\d{2}\\.(json|yaml)$' }),
            },
          ],
          responses: {
            '200': {
              description: 'the document',
              content: { 'application/json': { schema: { type: 'object' } }, 'application/yaml': { schema: str() } },
            },
            '404': errors['404'],
          },
        },
      },
      [`${P}/info`]: { get: op('info', 'the access and tenant of this call', true, envelope({ type: 'object' })) },
      [`${P}/providers`]: {
        get: op('listProviders', 'list providers', true, list('providers', 'Provider'), {
          parameters: [q('category')],
        }),
      },
      [`${P}/connectors`]: {
        get: op('listConnectors', 'list connectors', true, list('connectors', 'Connector'), {
          parameters: [q('capability'), q('providerId'), q('category')],
        }),
      },
      [`${P}/capabilities`]: {
        get: op('listCapabilities', 'capability catalog', true, list('capabilities', 'Capability')),
        post: op(
          'checkCapability',
          'check a capability of a connector',
          true,
          envelope(obj({ decision: ref('CapabilityDecision'), environment: ENV })),
          {
            requestBody: body(
              obj(
                {
                  connectorId: str({ minLength: 2, maxLength: 120 }),
                  capability: str({ minLength: 2, maxLength: 120 }),
                  environment: { ...ENV, default: 'sandbox' },
                },
                ['connectorId', 'capability'],
              ),
            ),
          },
        ),
      },
      [`${P}/connections`]: {
        get: op(
          'listConnections',
          'connections of the tenant',
          true,
          list('connections', 'Connection', { tenant: str() }),
        ),
        post: op('createConnection', 'create a connection', true, envelope(ref('Connection')), {
          parameters: [keyHeader(true)],
          requestBody: body({
            ...obj({
              connectorId: str({ minLength: 2, maxLength: 120 }),
              environment: ENV,
              scopeLabel: str({ minLength: 2, maxLength: 120 }),
              capabilities: { type: 'array', minItems: 1, maxItems: 24, items: str({ minLength: 2, maxLength: 120 }) },
            }),
            additionalProperties: false,
          }),
        }),
      },
      [`${P}/idempotency-keys`]: {
        post: op('createIdempotencyKey', 'generate an idempotency key', true, envelope(ref('IdempotencyKeyResult')), {
          parameters: [keyHeader(false)],
          requestBody: body(obj({ operation: str({ minLength: 2, maxLength: 80 }) })),
        }),
      },
      [`${P}/stream`]: {
        get: {
          operationId: 'stream',
          summary: 'status stream (Server-Sent Events)',
          parameters: [
            q('cursor', { type: 'integer', minimum: 0 }),
            { name: 'Last-Event-ID', in: 'header', required: false, schema: str() },
          ],
          responses: {
            '200': { description: 'event stream', content: { 'text/event-stream': { schema: str() } } },
            '400': errors['400'],
          },
        },
      },
      [`${P}/webhooks`]: {
        post: op('createWebhook', 'create a webhook receiver', true, envelope(ref('WebhookEndpoint')), {
          parameters: [keyHeader(true)],
          requestBody: body(
            obj(
              {
                url: str({ format: 'uri' }),
                events: { type: 'array', minItems: 1, items: str({ enum: EVENT_NAMES }) },
                description: str({ nullable: true }),
              },
              ['url', 'events'],
            ),
          ),
        }),
      },
      [`${P}/webhooks/{webhookId}`]: {
        delete: op('deleteWebhook', 'remove a webhook receiver', true, envelope({ type: 'object' }), {
          parameters: [{ name: 'webhookId', in: 'path', required: true, schema: str() }, keyHeader(true)],
        }),
      },
      [`${P}/webhooks/{webhookId}/deliveries`]: {
        get: op(
          'listWebhookDeliveries',
          'delivery log of a webhook receiver',
          true,
          list('deliveries', 'WebhookDelivery', { webhookId: str(), links: ref('PageLinks') }),
          { parameters: [{ name: 'webhookId', in: 'path', required: true, schema: str() }, ...pageQ] },
        ),
      },
      [`${P}/webhooks/{webhookId}/deliveries/{deliveryId}/retry`]: {
        post: op('retryWebhookDelivery', 'trigger a delivery again', true, envelope(ref('WebhookDelivery')), {
          parameters: [
            { name: 'webhookId', in: 'path', required: true, schema: str() },
            { name: 'deliveryId', in: 'path', required: true, schema: str() },
            keyHeader(true),
          ],
        }),
      },
      [`${P}/audit-log`]: {
        get: op(
          'auditLog',
          'audit log with a hash chain',
          true,
          list('entries', 'AuditEntry', { proof: { type: 'object' }, links: ref('PageLinks') }),
          { parameters: pageQ },
        ),
      },
    },
    components: {
      schemas,
      responses: {
        Error: { description: 'failure envelope', content: { 'application/json': { schema: ref('Error') } } },
        RateLimited: {
          description: 'rate_limited: the fixed window of this access and environment is used up',
          headers: { ...limitHeaders, 'Retry-After': { $ref: '#/components/headers/Retry-After' } },
          content: { 'application/json': { schema: ref('Error') } },
        },
      },
      headers: {
        'X-RateLimit-Limit': {
          description: 'calls allowed in the current window',
          schema: { type: 'integer', minimum: 0 },
        },
        'X-RateLimit-Remaining': {
          description: 'calls left in the current window',
          schema: { type: 'integer', minimum: 0 },
        },
        'Retry-After': { description: 'seconds until the window resets', schema: { type: 'integer', minimum: 1 } },
      },
      securitySchemes: {
        oauth2: {
          type: 'oauth2',
          flows: {
            clientCredentials: {
              tokenUrl,
              scopes: { connections: 'connections', webhooks: 'webhooks', audit: 'audit' },
            },
          },
        },
      },
    },
  };
}

/** OpenApiSpex 3.0 → 3.1: `nullable: true` becomes a "null" type member. */
function to31(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(to31);
  if (node === null || typeof node !== 'object') return node;
  const out: Record<string, unknown> = {};
  const src = node as Record<string, unknown>;
  for (const [k, v] of Object.entries(src)) if (k !== 'nullable') out[k] = to31(v);
  if (src.nullable === true && typeof src.type === 'string') out.type = [src.type, 'null'];
  return out;
}

export function openapiDocument(tokenUrl: string): Record<string, unknown> {
  const doc = to31(spex30(tokenUrl)) as Record<string, unknown>;
  doc.openapi = '3.1.0';
  return doc;
}
