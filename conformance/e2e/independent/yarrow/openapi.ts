// The OpenAPI 3.1 document, built in code from the same route table the router serves (API Platform
// generates it from the resources; here the table is the resource metadata). Paths are relative to the
// server URL /api/public/v1.
import { EVENT_NAMES, VERSION } from './catalog.ts';
import { BODIES, DATA, dt, free, obj, QUERY, ref, SCHEMAS, type Schema, str } from './openapi-schemas.ts';
import { ROUTES } from './routes-table.ts';

const errors = (codes: string[]) =>
  Object.fromEntries(
    codes.map((c) => [
      c,
      { description: 'failure envelope', content: { 'application/json': { schema: ref('Error') } } },
    ]),
  );

export function buildOpenApi(): Record<string, unknown> {
  const paths: Record<string, Record<string, unknown>> = {};
  for (const r of ROUTES) {
    const key = `${r.method} ${r.path}`;
    const path = r.path === '/' ? '/' : r.path;
    const params: Schema[] = [...(QUERY[key] ?? [])];
    for (const m of r.path.matchAll(/\{(\w+)\}/g))
      params.push({ name: m[1], in: 'path', required: true, schema: str() });
    if (r.auth) params.push({ name: 'x-service-tenant', in: 'header', required: true, schema: str() });
    if (r.key)
      params.push({
        name: 'Idempotency-Key',
        in: 'header',
        required: true,
        schema: { type: 'string', pattern: '^[A-Za-z0-9._:-]{8,128}$' },
      });
    params.push({
      name: 'Service-Version',
      in: 'header',
      required: false,
      schema: { type: 'string', enum: ['2026-06-12', VERSION] },
    });
    const ok =
      r.path === '/openapi.json'
        ? { description: 'OpenAPI 3.1 document', content: { 'application/json': { schema: free } } }
        : r.path === '/stream'
          ? { description: 'Server-Sent Events', content: { 'text/event-stream': { schema: str() } } }
          : {
              description: 'success envelope',
              content: {
                'application/json': {
                  schema: obj({ ok: { const: true }, data: DATA[key] ?? free, meta: ref('Meta') }),
                },
              },
            };
    const op: Record<string, unknown> = {
      operationId: r.operationId,
      summary: r.purpose,
      parameters: params,
      responses: {
        200: ok,
        ...errors(r.auth ? ['400', '401', '403', '404', '409', '428', '429', '500'] : ['400', '429', '500']),
      },
      ...(r.auth ? {} : { security: [] }),
    };
    if (BODIES[key]) op.requestBody = { required: true, content: { 'application/json': { schema: BODIES[key] } } };
    paths[path] = { ...(paths[path] ?? {}), [r.method.toLowerCase()]: op };
  }
  return {
    openapi: '3.1.0',
    info: {
      title: 'Network Connections Service (yarrow)',
      version: VERSION,
      description: 'Public interface, generated from the resource metadata.',
    },
    servers: [{ url: '/api/public/v1' }],
    security: [{ oauth2: [] }],
    paths,
    webhooks: {
      connectionEvent: {
        post: {
          summary: 'A delivery to a registered receiver',
          parameters: [
            { name: 'Webhook-Signature', in: 'header', schema: str() },
            { name: 'Webhook-Id', in: 'header', schema: str() },
          ],
          requestBody: {
            content: {
              'application/json': {
                schema: obj({ id: str(), type: { type: 'string', enum: EVENT_NAMES }, occurredAt: dt, data: free }),
              },
            },
          },
          responses: { 204: { description: 'accepted' } },
        },
      },
    },
    components: {
      schemas: SCHEMAS,
      securitySchemes: {
        oauth2: {
          type: 'oauth2',
          flows: {
            clientCredentials: {
              tokenUrl: '/oauth2/token',
              scopes: { connections: 'connections', webhooks: 'webhooks', audit: 'audit log' },
            },
          },
        },
      },
    },
    'x-documents': { json: `/api/public/v1/openapi/${VERSION}.json`, yaml: `/api/public/v1/openapi/${VERSION}.yaml` },
  };
}
