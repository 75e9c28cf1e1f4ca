// The OpenAPI 3.1 document, built from the route table and the component schemas (what springdoc would generate).
import { TOKEN_PATH } from './auth.ts';
import { CURRENT_VERSION } from './http-kit.ts';
import { obj, ref, SCHEMAS, str, time } from './openapi-schemas.ts';
import { ROUTES } from './routes.ts';
import { WEBHOOK_EVENTS } from './webhooks.ts';

const PARAM: Record<string, unknown> = {
  category: { schema: str() },
  capability: { schema: str() },
  providerId: { schema: str() },
  cursor: { schema: { type: 'integer', minimum: 0 } },
  page: { schema: { type: 'integer', minimum: 0 } },
  size: { schema: { type: 'integer', minimum: 1, maximum: 500 } },
  limit: { schema: { type: 'integer', minimum: 1, maximum: 500 } },
  sort: { schema: { type: 'string', enum: ['seq,desc', 'seq,asc'] } },
};

function operation(r: (typeof ROUTES)[number]): Record<string, unknown> {
  const parameters: unknown[] = [
    {
      name: 'Service-Version',
      in: 'header',
      required: false,
      schema: { type: 'string', enum: ['2026-06-12', CURRENT_VERSION] },
    },
  ];
  for (const name of r.path.match(/\{(\w+)\}/g) ?? [])
    parameters.push({ name: name.slice(1, -1), in: 'path', required: true, schema: str() });
  for (const q of r.query ?? []) parameters.push({ name: q, in: 'query', required: false, ...(PARAM[q] as object) });
  if (r.auth) parameters.push({ name: 'x-service-tenant', in: 'header', required: true, schema: str() });
  if (r.key)
    parameters.push({
      name: 'Idempotency-Key',
      in: 'header',
      required: r.key === 'required',
      schema: { type: 'string', pattern: '^[A-Za-z0-9._:-]{8,128}$' },
    });
  if (r.operationId === 'stream')
    parameters.push({ name: 'Last-Event-ID', in: 'header', required: false, schema: str() });
  const envelope = {
    type: 'object',
    required: ['ok', 'data', 'meta'],
    properties: { ok: { const: true }, data: ref(r.data), meta: ref('Meta') },
  };
  const content =
    r.data === 'sse'
      ? { 'text/event-stream': { schema: str() } }
      : r.data === 'raw'
        ? {
            [r.operationId === 'jwks' ? 'application/jwk-set+json' : 'application/json']: {
              schema: { type: 'object' },
            },
          }
        : { 'application/json': { schema: envelope } };
  const int = { schema: { type: 'integer', minimum: 0 } };
  const limitHeaders = r.auth
    ? { 'X-RateLimit-Limit': int, 'X-RateLimit-Remaining': int, 'X-RateLimit-Reset': int }
    : {};
  const responses: Record<string, unknown> = { '200': { description: 'success', headers: limitHeaders, content } };
  const codes = r.auth ? ['400', '401', '403', '404', '409', '428', '429', '500'] : ['400', '500'];
  for (const c of codes) {
    const headers =
      c === '429'
        ? { ...limitHeaders, 'Retry-After': { schema: { type: 'integer', minimum: 1 } } }
        : c === '401'
          ? {}
          : limitHeaders;
    responses[c] = { description: 'failure', headers, content: { 'application/json': { schema: ref('Error') } } };
  }
  const op: Record<string, unknown> = { operationId: r.operationId, summary: r.purpose, parameters, responses };
  if (r.body) op.requestBody = { required: true, content: { 'application/json': { schema: ref(r.body) } } };
  op.security = r.auth ? [{ oauth2: [] }] : [];
  return op;
}

export function openApiDocument(origin: string): Record<string, unknown> {
  const paths: Record<string, Record<string, unknown>> = {};
  for (const r of ROUTES) {
    paths[r.path] ??= {};
    (paths[r.path] as Record<string, unknown>)[r.method.toLowerCase()] = operation(r);
  }
  return {
    openapi: '3.1.0',
    info: { title: 'Network Connections Service (wisteria)', version: CURRENT_VERSION },
    servers: [{ url: origin }],
    paths,
    components: {
      schemas: SCHEMAS,
      securitySchemes: {
        oauth2: { type: 'oauth2', flows: { clientCredentials: { tokenUrl: `${origin}${TOKEN_PATH}`, scopes: {} } } },
      },
    },
    webhooks: {
      connectionEvent: {
        post: {
          summary: `Signed with header X-Wisteria-Signature; events ${WEBHOOK_EVENTS.join(', ')}`,
          requestBody: {
            content: {
              'application/json': {
                schema: obj({
                  id: str(),
                  type: { type: 'string', enum: WEBHOOK_EVENTS },
                  createdAt: time,
                  tenant: str(),
                  data: { type: 'object' },
                }),
              },
            },
          },
          responses: { '2XX': { description: 'accepted' } },
        },
      },
    },
  };
}
