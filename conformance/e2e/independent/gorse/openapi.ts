// The self-description and the OpenAPI 3.1 document, built in code from the table in openapi-schemas.ts.
import { VERSION } from './http-kit.ts';
import { KEY, OBJ, OPS } from './openapi-schemas.ts';

export function selfDescription(_n: number) {
  return {
    service: 'gorse network connections',
    surface: 'public',
    version: VERSION,
    authentication: {
      scheme: 'oauth2-client-credentials',
      tokenPath: '/oauth/v2/token',
      clientAuthMethods: ['client_secret_post'],
      tokenType: 'opaque-bearer',
      tokenTtlSeconds: 3600,
      tenantHeader: 'x-service-tenant',
    },
    idempotency: {
      header: 'Idempotency-Key',
      pattern: '^[A-Za-z0-9._:-]{8,128}$',
      ttlHours: 24,
      ttlStartsAt: 'first-use',
      scope: 'client+tenant+key',
      replayMarker: 'meta.replayed',
    },
    routes: OPS.map((o) => ({ method: o.method, path: o.path, purpose: o.purpose, auth: o.auth })),
  };
}

const envelope = (data: unknown) => ({
  type: 'object',
  required: ['ok', 'data', 'meta'],
  properties: { ok: { const: true }, data: data ?? OBJ, meta: { $ref: '#/components/schemas/Meta' } },
});

export function openApi() {
  const paths: Record<string, Record<string, unknown>> = {};
  for (const o of OPS) {
    const params = [...(o.params ?? [])];
    if (o.auth) params.push({ name: 'x-service-tenant', in: 'header', required: true, schema: { type: 'string' } });
    if (o.key) params.push({ ...KEY, required: o.key === 'required' });
    const responses: Record<string, unknown> = {
      200: {
        description: 'success',
        content: {
          [o.path.endsWith('/stream') ? 'text/event-stream' : 'application/json']: {
            schema: o.path.endsWith('/stream')
              ? { type: 'string' }
              : o.path.endsWith('openapi.json')
                ? OBJ
                : envelope(o.data),
          },
        },
      },
    };
    for (const s of o.auth ? ['400', '401', '403', '404', '409', '428', '429', '500'] : ['400', '404', '500']) {
      responses[s] = {
        description: 'failure',
        content: { 'application/json': { schema: { $ref: '#/components/schemas/Failure' } } },
      };
    }
    const item = paths[o.path] ?? {};
    paths[o.path] = item;
    item[o.method.toLowerCase()] = {
      summary: o.purpose,
      operationId: `${o.method.toLowerCase()}${o.path.replace(/[^A-Za-z]+(.)?/g, (_m, c: string | undefined) => (c ? c.toUpperCase() : ''))}`,
      security: o.auth ? [{ oauth: [] }] : [],
      parameters: params,
      ...(o.body ? { requestBody: { required: true, content: { 'application/json': { schema: o.body } } } } : {}),
      responses,
    };
  }
  return {
    openapi: '3.1.0',
    info: { title: 'gorse network connections', version: VERSION },
    servers: [{ url: '/' }],
    paths,
    components: {
      securitySchemes: {
        oauth: { type: 'oauth2', flows: { clientCredentials: { tokenUrl: '/oauth/v2/token', scopes: {} } } },
      },
      schemas: {
        Meta: {
          type: 'object',
          required: ['requestId', 'version', 'at'],
          properties: {
            requestId: { type: 'string' },
            version: { type: 'string' },
            at: { type: 'string', format: 'date-time' },
            idempotencyKey: { type: 'string' },
            replayed: { type: 'boolean' },
          },
        },
        Failure: {
          type: 'object',
          required: ['ok', 'error', 'meta'],
          properties: {
            ok: { const: false },
            error: {
              type: 'object',
              required: ['code', 'message'],
              properties: {
                code: { type: 'string' },
                message: { type: 'string' },
                detail: { type: 'string' },
                hint: { type: 'string' },
              },
            },
            meta: { $ref: '#/components/schemas/Meta' },
          },
        },
      },
    },
  };
}
