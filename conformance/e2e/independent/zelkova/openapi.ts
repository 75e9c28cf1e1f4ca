// The OpenAPI 3.1 document, built in code from the same names the handlers use (zelkova generates its
// reference from it), and its YAML rendering. Envelopes are spelled out per operation for typed clients.
import { BASE, CURRENT_VERSION } from './http-kit.ts';
import {
  auditPage,
  connectionBody,
  len,
  list,
  obj,
  ref,
  type Schema,
  schemas,
  str,
  time,
  webhookCreated,
} from './openapi-schemas.ts';
import { WEBHOOK_EVENTS } from './webhooks.ts';

const errorStatuses = ['400', '401', '403', '404', '409', '428', '429', '500'];
const rateHeaders = {
  'X-RateLimit-Limit': { $ref: '#/components/headers/X-RateLimit-Limit' },
  'X-RateLimit-Remaining': { $ref: '#/components/headers/X-RateLimit-Remaining' },
};

function op(
  summary: string,
  data: Schema,
  o: { auth?: boolean; key?: 'required' | 'optional'; body?: Schema; query?: Schema[]; id?: boolean } = {},
) {
  const auth = o.auth ?? true;
  const parameters: unknown[] = [{ $ref: '#/components/parameters/ServiceVersion' }];
  if (auth) parameters.push({ $ref: '#/components/parameters/Tenant' });
  if (o.key)
    parameters.push({
      name: 'Idempotency-Key',
      in: 'header',
      required: o.key === 'required',
      schema: str({ pattern: '^[A-Za-z0-9._:-]{8,128}$' }),
    });
  if (o.id) parameters.push({ name: 'id', in: 'path', required: true, schema: str() });
  parameters.push(...(o.query ?? []));
  const responses: Record<string, unknown> = {
    '200': {
      description: 'success',
      headers: auth ? rateHeaders : undefined,
      content: { 'application/json': { schema: obj({ ok: { const: true }, data, meta: ref('Meta') }) } },
    },
  };
  for (const s of auth ? errorStatuses : ['400', '404', '500'])
    responses[s] = { $ref: '#/components/responses/Failure' };
  return {
    summary,
    operationId: summary.replace(/[^A-Za-z]+(.)/g, (_m, c: string) => c.toUpperCase()),
    parameters,
    ...(auth ? {} : { security: [] }),
    ...(o.body ? { requestBody: { required: true, content: { 'application/json': { schema: o.body } } } } : {}),
    responses,
  };
}

const q = (name: string, schema: Schema = str()) => ({ name, in: 'query', required: false, schema });
const counted = (name: string, item: unknown, extra: Record<string, unknown> = {}) =>
  obj({ count: { type: 'integer' }, [name]: list(item), ...extra });

export function openapiDocument() {
  const p = (path: string) => `${BASE}${path}`;
  return {
    openapi: '3.1.0',
    info: {
      title: 'Network Connections Service (zelkova)',
      version: CURRENT_VERSION,
      description: 'Public interface; server-to-server only.',
    },
    servers: [{ url: '/' }],
    security: [{ oauth2: [] }],
    paths: {
      [p('')]: {
        get: op(
          'self description',
          obj(
            {
              service: str(),
              surface: str(),
              version: str(),
              authentication: { type: 'object' },
              idempotency: { type: 'object' },
              routes: list(ref('RouteInfo')),
            },
            ['service', 'surface', 'version', 'authentication', 'idempotency', 'routes'],
          ),
          { auth: false },
        ),
      },
      [p('/openapi.json')]: {
        get: {
          summary: 'OpenAPI 3.1 document',
          operationId: 'openapiJson',
          security: [],
          responses: {
            '200': { description: 'the document', content: { 'application/json': { schema: { type: 'object' } } } },
          },
        },
      },
      [p('/openapi.yaml')]: {
        get: {
          summary: 'OpenAPI 3.1 document as YAML',
          operationId: 'openapiYaml',
          security: [],
          responses: {
            '200': { description: 'the document', content: { 'application/yaml': { schema: { type: 'string' } } } },
          },
        },
      },
      [p('/info')]: { get: op('access info', { type: 'object' }) },
      [p('/providers')]: {
        get: op('list providers', counted('providers', ref('Provider')), { query: [q('category')] }),
      },
      [p('/connectors')]: {
        get: op('list connectors', counted('connectors', ref('Connector')), {
          query: [q('capability'), q('providerId'), q('category')],
        }),
      },
      [p('/capabilities')]: {
        get: op('capability catalog', counted('capabilities', ref('Capability'))),
        post: op('check capability', obj({ decision: ref('CapabilityDecision'), environment: ref('Environment') }), {
          key: 'optional',
          body: obj({ connectorId: len(2, 120), capability: len(2, 120), environment: ref('Environment') }, [
            'connectorId',
            'capability',
          ]),
        }),
      },
      [p('/connections')]: {
        get: op('list connections', counted('connections', ref('Connection'), { tenant: str() })),
        post: op('create connection', ref('Connection'), { key: 'required', body: connectionBody }),
      },
      [p('/idempotency-keys')]: {
        post: op('create idempotency key', ref('IdempotencyKeyResult'), {
          key: 'optional',
          body: obj({ operation: len(2, 80) }),
        }),
      },
      [p('/stream')]: {
        get: {
          summary: 'status stream',
          operationId: 'statusStream',
          security: [],
          parameters: [
            q('cursor', { type: 'integer', minimum: 0 }),
            { name: 'Last-Event-ID', in: 'header', required: false, schema: str() },
          ],
          responses: {
            '200': {
              description: 'Server-Sent Events; id = consecutive number',
              content: { 'text/event-stream': { schema: str() } },
            },
            '400': { $ref: '#/components/responses/Failure' },
          },
        },
      },
      [p('/webhooks')]: {
        get: op('list webhooks', counted('webhooks', ref('Webhook'))),
        post: op('create webhook', webhookCreated, {
          key: 'required',
          body: obj({
            url: str({ format: 'uri' }),
            events: { ...list(str({ enum: WEBHOOK_EVENTS })), minItems: 1, maxItems: 20 },
          }),
        }),
      },
      [p('/webhooks/{id}')]: {
        get: op('get webhook', ref('Webhook'), { id: true }),
        delete: op('delete webhook', obj({ id: str(), deleted: { type: 'boolean' } }), { id: true, key: 'required' }),
      },
      [p('/webhook-deliveries')]: {
        get: op('list deliveries', counted('deliveries', ref('Delivery')), {
          query: [q('webhook_id', str({ pattern: '^eq\\.' })), q('event'), q('status')],
        }),
      },
      [p('/webhook-deliveries/{id}/retry')]: {
        post: op('retry delivery', obj({ delivery: ref('Delivery'), queued: { type: 'boolean' } }), {
          id: true,
          key: 'required',
        }),
      },
      [p('/audit-log')]: {
        get: op('audit log', auditPage, {
          query: [
            q('limit', { type: 'integer', minimum: 1, maximum: 200 }),
            q('before', { type: 'integer', minimum: 0 }),
          ],
        }),
      },
    },
    components: {
      schemas,
      responses: {
        Failure: { description: 'failure envelope', content: { 'application/json': { schema: ref('Failure') } } },
      },
      parameters: {
        Tenant: { name: 'x-service-tenant', in: 'header', required: true, schema: str() },
        ServiceVersion: {
          name: 'Service-Version',
          in: 'header',
          required: false,
          schema: str({ examples: [CURRENT_VERSION] }),
        },
      },
      headers: {
        'X-RateLimit-Limit': { schema: { type: 'integer' }, description: 'limit of the current window' },
        'X-RateLimit-Remaining': { schema: { type: 'integer' }, description: 'calls left in the window' },
      },
      securitySchemes: {
        oauth2: { type: 'oauth2', flows: { clientCredentials: { tokenUrl: '/auth/v1/token', scopes: {} } } },
      },
    },
    webhooks: {
      'connection.created': {
        post: {
          requestBody: {
            content: {
              'application/json': {
                schema: obj({ id: str(), type: str(), createdAt: time, tenant: str(), data: ref('Connection') }),
              },
            },
          },
          responses: { '204': { description: 'received' } },
        },
      },
    },
  };
}
