// The OpenAPI 3.1 document, laid out as drf-spectacular generates it: full paths, operationIds from
// the view names, tags per app, shared parameters and error responses as components.
import { API, CURRENT_VERSION } from './core.ts';
import { TOKEN_PATH } from './oauth.ts';
import { envelope, schemas } from './openapi-components.ts';
import { SHAPES } from './openapi-shapes.ts';
import { ROUTES } from './routes.ts';

const p = (name: string) => ({ $ref: `#/components/parameters/${name}` });
const r = (name: string) => ({ $ref: `#/components/responses/${name}` });
const rateHeaders = {
  'X-RateLimit-Limit': { $ref: '#/components/headers/XRateLimitLimit' },
  'X-RateLimit-Remaining': { $ref: '#/components/headers/XRateLimitRemaining' },
};
const errorBody = { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } };
const errorResponse = (description: string, headers: Record<string, unknown> = rateHeaders) => ({
  description,
  headers,
  content: errorBody,
});

const query = (name: string, description: string, schema: unknown = { type: 'string' }) => ({
  in: 'query',
  name,
  required: false,
  description,
  schema,
});
const pathParam = (name: string) => ({ in: 'path', name, required: true, schema: { type: 'string', format: 'uuid' } });

function operation(route: (typeof ROUTES)[number]) {
  const shape = SHAPES[`${route.method} ${route.path}`];
  if (route.path === '/openapi.json' || route.path === '/openapi.yaml' || route.path === '/schema/{file}') {
    const yaml = route.path === '/openapi.yaml';
    return {
      operationId: {
        '/openapi.json': 'schema_retrieve',
        '/openapi.yaml': 'schema_yaml_retrieve',
        '/schema/{file}': 'schema_file_retrieve',
      }[route.path],
      tags: ['meta'],
      summary: route.purpose,
      security: [],
      ...(route.path === '/schema/{file}'
        ? {
            parameters: [
              {
                in: 'path',
                name: 'file',
                required: true,
                schema: {
                  type: 'string',
                  enum: ['2026-06-12.json', '2026-06-12.yaml', '2026-07-01.json', '2026-07-01.yaml'],
                },
              },
            ],
          }
        : {}),
      responses: {
        '200': {
          description: 'OpenAPI 3.1 document',
          content: yaml
            ? { 'application/vnd.oai.openapi': { schema: { type: 'object' } } }
            : {
                'application/vnd.oai.openapi+json': { schema: { type: 'object' } },
                'application/vnd.oai.openapi': { schema: { type: 'object' } },
              },
        },
        ...(route.path === '/schema/{file}' ? { '404': r('NotFound') } : {}),
      },
    };
  }
  if (route.path === '/stream') {
    return {
      operationId: 'stream_retrieve',
      tags: ['stream'],
      summary: route.purpose,
      security: [],
      parameters: [
        query('cursor', 'last number read', { type: 'integer', minimum: 0 }),
        {
          in: 'header',
          name: 'Last-Event-ID',
          required: false,
          description: 'last number read (wins over cursor)',
          schema: { type: 'string' },
        },
        p('ServiceVersion'),
      ],
      responses: {
        '200': {
          description: 'Server-Sent Events: id, event and a JSON data line per message',
          content: { 'text/event-stream': { schema: { type: 'string' } } },
        },
        '400': r('BadRequest'),
      },
    };
  }
  const params: unknown[] = route.auth ? [p('TenantHeader')] : [];
  if (route.key === 'required') params.push(p('IdempotencyKey'));
  if (route.key === 'optional') params.push(p('IdempotencyKeyOptional'));
  params.push(p('ServiceVersion'), ...(shape?.params ?? []).map((n) => p(n)));
  const responses: Record<string, unknown> = {
    '200': {
      description: '',
      headers: route.auth ? rateHeaders : {},
      content: { 'application/json': { schema: envelope(shape?.data ?? 'Info') } },
    },
    '400': r('BadRequest'),
  };
  if (route.auth)
    Object.assign(responses, {
      '401': r('Unauthorized'),
      '403': r('Forbidden'),
      '404': r('NotFound'),
      '429': r('TooManyRequests'),
      '500': r('InternalError'),
    });
  if (route.method !== 'GET') responses['409'] = r('Conflict');
  if (route.key === 'required') responses['428'] = r('PreconditionRequired');
  return {
    operationId: shape?.op,
    tags: [shape?.tag ?? 'meta'],
    summary: route.purpose,
    parameters: params,
    ...(shape?.body
      ? {
          requestBody: {
            required: true,
            content: { 'application/json': { schema: { $ref: `#/components/schemas/${shape.body}` } } },
          },
        }
      : {}),
    security: route.auth ? [{ oauth2: ['read', 'write'] }] : [],
    ...(route.extension ? { 'x-extension': true } : {}),
    responses,
  };
}

export function openapiDocument(
  origin: string,
  version: string = CURRENT_VERSION,
  max = { audit: 500, delivery: 100 },
) {
  const paths: Record<string, Record<string, unknown>> = {};
  // The delivery log came with 2026-07-01: the earlier version's document does not describe it.
  for (const route of ROUTES.filter((x) => version === CURRENT_VERSION || !x.path.includes('/deliveries'))) {
    const path = `${API}${route.path}`;
    paths[path] = { ...(paths[path] ?? {}), [route.method.toLowerCase()]: operation(route) };
  }
  return {
    openapi: '3.1.0',
    info: {
      title: 'Network Connections Service',
      version,
      description: 'Public interface (walnut deployment). Generated schema.',
    },
    paths,
    components: {
      schemas,
      parameters: {
        TenantHeader: {
          in: 'header',
          name: 'x-service-tenant',
          required: true,
          schema: { type: 'string' },
          description: 'tenant of the call',
        },
        IdempotencyKey: {
          in: 'header',
          name: 'Idempotency-Key',
          required: true,
          schema: { type: 'string', pattern: '^[A-Za-z0-9._:-]{8,128}$' },
        },
        IdempotencyKeyOptional: {
          in: 'header',
          name: 'Idempotency-Key',
          required: false,
          schema: { type: 'string', pattern: '^[A-Za-z0-9._:-]{8,128}$' },
          description: 'honoured when sent',
        },
        ServiceVersion: {
          in: 'header',
          name: 'Service-Version',
          required: false,
          schema: { type: 'string', enum: ['2026-06-12', CURRENT_VERSION] },
        },
        Limit: query('limit', 'Number of results to return per page.', {
          type: 'integer',
          minimum: 1,
          maximum: max.audit,
        }),
        DeliveryLimit: query('limit', 'Number of results to return per page.', {
          type: 'integer',
          minimum: 1,
          maximum: max.delivery,
        }),
        Offset: query('offset', 'The initial index from which to return the results.', { type: 'integer', minimum: 0 }),
        category: query('category', 'restricts to one category'),
        capability: query('capability', 'connectors offering this capability'),
        providerId: query('providerId', 'connectors of this provider'),
        DeliveryStatus: query('status', 'deliveries in this status', {
          type: 'string',
          enum: ['pending', 'retrying', 'delivered', 'failed'],
        }),
        WebhookId: pathParam('webhookId'),
        DeliveryId: pathParam('deliveryId'),
      },
      headers: {
        XRateLimitLimit: { schema: { type: 'integer' }, description: 'limit of the current window' },
        XRateLimitRemaining: { schema: { type: 'integer' }, description: 'calls left in the window' },
        RetryAfter: { schema: { type: 'integer' }, description: 'wait in seconds' },
      },
      responses: {
        BadRequest: errorResponse('invalid_request'),
        Unauthorized: errorResponse('unauthorized'),
        Forbidden: errorResponse('forbidden'),
        NotFound: errorResponse('not_found'),
        Conflict: errorResponse('capability_denied or idempotency_conflict'),
        PreconditionRequired: errorResponse('idempotency_required'),
        TooManyRequests: errorResponse('rate_limited', {
          ...rateHeaders,
          'Retry-After': { $ref: '#/components/headers/RetryAfter' },
        }),
        InternalError: errorResponse('internal', {}),
      },
      securitySchemes: {
        oauth2: {
          type: 'oauth2',
          flows: {
            clientCredentials: {
              tokenUrl: `${origin}${TOKEN_PATH}`,
              scopes: { read: 'read access', write: 'write access' },
            },
          },
        },
      },
    },
    'x-webhooks-signature': { header: 'X-Walnut-Signature', form: 't=<unix-seconds>,v1=<hex>' },
  };
}
