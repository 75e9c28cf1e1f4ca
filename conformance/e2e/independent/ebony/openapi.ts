// The OpenAPI 3.1 description of ebony, generated from the route table per version.
import { TOKEN_PATH } from './auth.ts';
import { routesIn } from './routes.ts';
import { obj, ref, SCHEMAS, type Schema } from './schemas.ts';

const ERRORS: Record<string, string> = {
  '400': 'invalid_request',
  '401': 'unauthorized',
  '403': 'forbidden',
  '404': 'not_found',
  '409': 'capability_denied or idempotency_conflict',
  '428': 'idempotency_required',
  '429': 'rate_limited',
  '500': 'internal',
};

const envelope = (data: Schema): Schema => obj({ ok: { type: 'boolean', const: true }, data, meta: ref('Meta') });
const failure = (d: string) => ({ description: d, content: { 'application/json': { schema: ref('Failure') } } });

/** The OpenAPI 3.1 document of `version`, with both base addresses as servers. */
export function openapi(version: string, baseUrl: string, altBaseUrl: string): Schema {
  const paths: Record<string, Record<string, unknown>> = {};
  for (const r of routesIn(version)) {
    const params: unknown[] = [...r.path.matchAll(/\{(\w+)\}/g)].map((m) => ({
      name: m[1],
      in: 'path',
      required: true,
      schema: { type: 'string' },
    }));
    for (const x of r.query ?? [])
      params.push({ name: x.name, in: 'query', required: false, description: x.description, schema: x.schema });
    if (r.auth)
      params.push({
        name: 'x-service-tenant',
        in: 'header',
        required: true,
        schema: { type: 'string' },
        description: 'tenant of the call',
      });
    if (r.key)
      params.push({
        name: 'Idempotency-Key',
        in: 'header',
        required: true,
        schema: { type: 'string', pattern: '^[A-Za-z0-9._:-]{8,128}$' },
      });
    if (r.path.endsWith('/stream'))
      params.push({
        name: 'Last-Event-ID',
        in: 'header',
        required: false,
        schema: { type: 'string' },
        description: 'last number read',
      });
    params.push({
      name: 'Service-Version',
      in: 'header',
      required: false,
      schema: { type: 'string', enum: ['2026-07-01', '2026-06-12'] },
    });
    const ok: Record<string, unknown> = r.data
      ? { 'application/json': { schema: envelope(r.data) } }
      : r.path.endsWith('/stream')
        ? { 'text/event-stream': { schema: { type: 'string' } } }
        : r.path.endsWith('.yaml')
          ? { 'application/yaml': { schema: { type: 'string' } } }
          : { 'application/json': { schema: { type: 'object' } } };
    const responses: Record<string, unknown> = {
      '200': {
        description: 'success',
        headers: { 'X-Global-Transaction-ID': { schema: { type: 'string' } } },
        content: ok,
      },
    };
    for (const [code, d] of Object.entries(ERRORS)) {
      if (r.auth || code === '400' || code === '404' || code === '429' || code === '500') responses[code] = failure(d);
    }
    const op: Record<string, unknown> = {
      operationId: `${r.method.toLowerCase()}${
        r.path
          .replace('/api/public/v1', '')
          .replace(/[{}]/g, '')
          .replace(/[^A-Za-z0-9]+(.)?/g, (_m, c: string | undefined) => (c ? c.toUpperCase() : '')) || 'Root'
      }`,
      summary: r.purpose,
      tags: [r.tag],
      parameters: params,
      responses,
      security: r.auth ? [{ apicOAuth: [] }] : [],
    };
    if (r.body) op.requestBody = { required: true, content: { 'application/json': { schema: r.body } } };
    if (r.path.endsWith('/webhooks') && r.method === 'POST')
      op['x-webhook-signature'] = { header: 'X-Ebony-Signature', format: 't=<unix-seconds>,v1=<hex>' };
    paths[r.path] = { ...paths[r.path], [r.method.toLowerCase()]: op };
  }
  return {
    openapi: '3.1.0',
    info: {
      title: 'ebony Network Connections Service',
      version,
      description: 'z/OS Connect API of the Network Connections Service (sandbox).',
    },
    servers: [
      { url: baseUrl, description: 'main' },
      { url: altBaseUrl, description: 'second address, same interface and state' },
    ],
    tags: ['meta', 'catalog', 'connections', 'idempotency', 'events', 'webhooks', 'audit'].map((name) => ({ name })),
    paths,
    components: {
      schemas: SCHEMAS,
      securitySchemes: {
        apicOAuth: {
          type: 'oauth2',
          flows: {
            clientCredentials: {
              tokenUrl: `${baseUrl}${TOKEN_PATH}`,
              scopes: { 'ncs.read': 'read', 'ncs.write': 'write' },
            },
          },
        },
      },
    },
  };
}
