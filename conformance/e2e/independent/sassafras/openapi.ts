// The OpenAPI 3.1 document, built from the route table (like Swashbuckle from the controllers) with
// hand-written component schemas.
import { TOKEN_PATH } from './auth.ts';
import { CURRENT_VERSION, SUPPORTED_VERSIONS } from './http-kit.ts';
import { DATA, obj, ref, SCHEMAS } from './openapi-schemas.ts';
import { ROUTES } from './routes.ts';

const STATUS_TEXT: Record<string, string> = {
  '400': 'invalid_request',
  '401': 'unauthorized',
  '403': 'forbidden',
  '404': 'not_found',
  '409': 'idempotency_conflict or capability_denied',
  '428': 'idempotency_required',
  '429': 'rate_limited',
  '500': 'internal',
};

const header = (description: string, type = 'integer') => ({ description, schema: { type } });
const HEADERS = {
  'X-RateLimit-Limit': header('calls allowed in the sliding window'),
  'X-RateLimit-Remaining': header('calls left in the window'),
  'X-RateLimit-Reset': header('seconds until the oldest counted call leaves the window'),
  'X-Request-Id': header('meta.requestId of the answer', 'string'),
  'Retry-After': header('seconds to wait before retrying'),
};
const href = (name: keyof typeof HEADERS) => ({ $ref: `#/components/headers/${name}` });
const COUNTED = {
  'X-RateLimit-Limit': href('X-RateLimit-Limit'),
  'X-RateLimit-Remaining': href('X-RateLimit-Remaining'),
  'X-RateLimit-Reset': href('X-RateLimit-Reset'),
  'X-Request-Id': href('X-Request-Id'),
};

export function openApiDocument(origin: string, version: string = CURRENT_VERSION): Record<string, unknown> {
  const paths: Record<string, Record<string, unknown>> = {};
  for (const r of ROUTES) {
    if (r.since !== undefined && version < r.since) continue;
    const parameters: unknown[] = [];
    for (const m of r.path.matchAll(/\{(\w+)\}/g))
      parameters.push({
        name: m[1],
        in: 'path',
        required: true,
        schema:
          m[1] === 'version' ? { type: 'string', enum: [...SUPPORTED_VERSIONS] } : { type: 'string', format: 'uuid' },
      });
    for (const q of r.query ?? [])
      parameters.push({
        name: q.name,
        in: 'query',
        required: false,
        schema: {
          type: q.type,
          ...(q.minimum !== undefined ? { minimum: q.minimum } : {}),
          ...(q.maximum !== undefined ? { maximum: q.maximum } : {}),
        },
      });
    if (r.path.endsWith('/stream'))
      parameters.push({ name: 'Last-Event-ID', in: 'header', required: false, schema: { type: 'string' } });
    if (r.auth) parameters.push({ name: 'x-service-tenant', in: 'header', required: true, schema: { type: 'string' } });
    if (r.method === 'POST' || r.method === 'DELETE')
      parameters.push({
        name: 'Idempotency-Key',
        in: 'header',
        required: r.key,
        schema: { type: 'string', pattern: '^[A-Za-z0-9._:-]{8,128}$' },
      });
    parameters.push({
      name: 'Service-Version',
      in: 'header',
      required: false,
      schema: { type: 'string', enum: [...SUPPORTED_VERSIONS] },
    });
    const success = r.path.endsWith('/stream')
      ? { description: 'Server-Sent Events', content: { 'text/event-stream': { schema: { type: 'string' } } } }
      : r.path.includes('/openapi')
        ? {
            description: 'This document',
            content: {
              [r.path.endsWith('.yaml') ? 'application/yaml' : 'application/json']: { schema: { type: 'object' } },
            },
          }
        : {
            description: 'Success',
            ...(r.auth ? { headers: COUNTED } : {}),
            content: {
              'application/json': {
                schema: obj({
                  ok: { const: true },
                  data: DATA[r.operationId] ?? { type: 'object' },
                  meta: ref('Meta'),
                }),
              },
            },
          };
    const responses: Record<string, unknown> = { '200': success };
    for (const [status, text] of Object.entries(STATUS_TEXT)) {
      if (!r.auth && ['401', '403', '409', '428'].includes(status)) continue;
      const headers =
        status === '429'
          ? { ...COUNTED, 'Retry-After': href('Retry-After') }
          : r.auth && status !== '401'
            ? COUNTED
            : undefined;
      responses[status] = {
        description: text,
        ...(headers ? { headers } : {}),
        content: { 'application/json': { schema: ref('Failure') } },
      };
    }
    const op: Record<string, unknown> = {
      operationId: r.operationId,
      summary: r.purpose,
      parameters,
      responses,
      security: r.auth ? [{ oauth2: ['ncs.api'] }] : [],
    };
    if (r.body) op.requestBody = { required: true, content: { 'application/json': { schema: ref(r.body) } } };
    paths[r.path] = { ...(paths[r.path] ?? {}), [r.method.toLowerCase()]: op };
  }
  return {
    openapi: '3.1.0',
    info: { title: 'Network Connections Service (sassafras)', version },
    servers: [{ url: origin }],
    paths,
    components: {
      schemas: SCHEMAS,
      headers: HEADERS,
      securitySchemes: {
        oauth2: {
          type: 'oauth2',
          flows: { clientCredentials: { tokenUrl: `${origin}${TOKEN_PATH}`, scopes: { 'ncs.api': 'the interface' } } },
        },
      },
    },
  };
}
