// The OpenAPI 3.1 document as rswag would generate it from request specs: every operation with examples.
import { CURRENT_VERSION } from './http-kit.ts';
import { bodies, data, keyParam, meta, obj, queries, str, tenantParam } from './openapi-schemas.ts';
import { type Route, routes } from './routes.ts';
import { EVENT_NAMES } from './webhooks.ts';

const failure = { $ref: '#/components/schemas/Failure' };

const h = (schema: unknown, description: string) => ({ schema, description });
const common = {
  'X-Request-Id': h(str, 'the request id, also meta.requestId'),
  'X-Runtime': h(str, 'seconds spent, e.g. 0.004213'),
};
const limits = {
  'X-RateLimit-Limit': h({ type: 'integer', minimum: 0 }, 'calls allowed in the window'),
  'X-RateLimit-Remaining': h({ type: 'integer', minimum: 0 }, 'calls left in the window'),
};
const paging = {
  'X-Total': h({ type: 'integer' }, 'entries in all pages'),
  'X-Total-Pages': h({ type: 'integer' }, 'pages'),
  'X-Page': h({ type: 'integer' }, 'this page'),
  'X-Per-Page': h({ type: 'integer' }, 'entries per page'),
  'X-Next-Page': h({ type: 'integer' }, 'the next page, absent on the last'),
  Link: h(str, 'rel="next" link to the next page'),
};

function responses(route: Route, ok: Record<string, unknown>): Record<string, unknown> {
  const base = route.auth ? { ...common, ...limits } : common;
  const get =
    route.method === 'GET' && !route.path.endsWith('/stream')
      ? { ETag: h(str, 'weak ETag of data; send If-None-Match for 304') }
      : {};
  const paged = route.path.endsWith('/audit-log') || route.path.endsWith('/deliveries') ? paging : {};
  const out: Record<string, unknown> = { '200': { ...ok, headers: { ...base, ...get, ...paged } } };
  if (route.method === 'GET' && !route.path.endsWith('/stream'))
    out['304'] = { description: 'not modified (If-None-Match)', headers: { ...base, ...get } };
  for (const code of route.auth ? [400, 401, 403, 404, 409, 428, 429, 500] : [400]) {
    const headers: Record<string, unknown> = { ...base };
    if (code === 429) headers['Retry-After'] = h({ type: 'integer', minimum: 1 }, 'seconds to wait');
    out[String(code)] = {
      description: 'failure envelope',
      headers,
      content: { 'application/json': { schema: failure } },
    };
  }
  return out;
}

function operation(route: Route): Record<string, unknown> {
  const id = `${route.method} ${route.path}`;
  const [dataSchema, example] = data[id] ?? [{ type: 'object' }, undefined];
  const params = [
    ...(route.path.match(/\{[^}]+\}/g) ?? []).map((p) => ({
      name: p.slice(1, -1),
      in: 'path',
      required: true,
      schema: str,
      example: '1',
    })),
    ...(queries[id] ?? []),
  ];
  if (route.auth) params.push(tenantParam);
  if (route.key !== 'none') params.push({ ...keyParam, required: route.key === 'required' });
  const ok = route.path.endsWith('/stream')
    ? {
        description: 'Server-Sent Events',
        content: {
          'text/event-stream': {
            schema: str,
            example:
              'id: 1\nevent: connection.created\ndata: {"seq":1,"event":"connection.created","connectionId":"1","state":"pending"}\n\n',
          },
        },
      }
    : {
        description: 'successful',
        content: {
          'application/json': {
            schema: obj({ ok: { type: 'boolean', const: true }, data: dataSchema, meta }),
            ...(example === undefined
              ? {}
              : {
                  example: {
                    ok: true,
                    data: example,
                    meta: { requestId: 'b1c2…', version: CURRENT_VERSION, at: '2026-07-01T09:30:00.000Z' },
                  },
                }),
          },
        },
      };
  const op: Record<string, unknown> = {
    summary: route.purpose,
    operationId: `${route.method.toLowerCase()}${route.path.replace(/[^A-Za-z0-9]+(.)?/g, (_m, c: string | undefined) => (c ?? '').toUpperCase())}`,
    tags: [route.contract ? 'interface' : 'extras'],
    parameters: params,
    responses: responses(route, ok),
  };
  const body = bodies[id];
  if (body !== undefined)
    op.requestBody = { required: true, content: { 'application/json': { schema: body[0], example: body[1] } } };
  if (route.auth) op.security = [{ oauth2: [] }];
  if (route.path.endsWith('/webhooks') && route.method === 'POST') op['x-webhook-events'] = EVENT_NAMES;
  return op;
}

/** The document of a version: 2026-06-12 has no delivery log (added in 2026-07-01). */
export function openapiDocument(version = CURRENT_VERSION): Record<string, unknown> {
  const paths: Record<string, Record<string, unknown>> = {};
  for (const route of routes) {
    if (version < '2026-07-01' && route.path.includes('/deliveries')) continue;
    paths[route.path] ??= {};
    const item = paths[route.path];
    if (item !== undefined) item[route.method.toLowerCase()] = operation(route);
  }
  return {
    openapi: '3.1.0',
    info: {
      title: 'Network Connections Service (beech)',
      version,
      description: 'Generated by rswag from request specs.',
    },
    servers: [{ url: '/', description: 'this host' }],
    paths,
    webhooks: Object.fromEntries(
      EVENT_NAMES.map((e) => [
        e,
        {
          post: {
            summary: e,
            requestBody: { content: { 'application/json': { schema: { type: 'object' } } } },
            responses: { '200': { description: 'received' } },
          },
        },
      ]),
    ),
    components: {
      schemas: {
        Failure: obj({
          ok: { type: 'boolean', const: false },
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
              message: str,
              detail: str,
              hint: str,
            },
            ['code', 'message'],
          ),
          meta,
        }),
      },
      securitySchemes: {
        oauth2: {
          type: 'oauth2',
          flows: { clientCredentials: { tokenUrl: '/oauth/token', scopes: { public: 'the public interface' } } },
        },
      },
    },
  };
}
