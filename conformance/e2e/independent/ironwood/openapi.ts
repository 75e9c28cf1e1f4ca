// ironwood's OpenAPI 3.1 document, built in code from the route table the self-description lists too,
// so what is documented is what is served.
import { VERSION } from './http-util.ts';
import { DATA_SCHEMAS, ERROR_CODES, RATE_HEADERS, RETRY_HEADERS } from './openapi-schemas.ts';
import { obj, type Route, routes } from './route-table.ts';

const failure = { $ref: '#/components/schemas/Failure' };
const ERROR_STATUSES = ['400', '401', '403', '404', '409', '428', '429', '500'];

function operation(r: Route): Record<string, unknown> {
  const parameters: Record<string, unknown>[] = [];
  for (const p of r.params ?? []) parameters.push({ name: p, in: 'path', required: true, schema: { type: 'string' } });
  for (const q of r.query ?? [])
    parameters.push({ name: q.name, in: 'query', required: q.required ?? false, schema: q.schema });
  for (const h of r.headers ?? []) parameters.push({ name: h.name, in: 'header', required: false, schema: h.schema });
  if (r.auth) parameters.push({ name: 'x-service-tenant', in: 'header', required: true, schema: { type: 'string' } });
  if (r.key) {
    parameters.push({
      name: 'Idempotency-Key',
      in: 'header',
      required: true,
      schema: { type: 'string', pattern: '^[A-Za-z0-9._:-]{8,128}$' },
    });
  }
  parameters.push({
    name: 'Service-Version',
    in: 'header',
    required: false,
    schema: { type: 'string', example: VERSION },
  });
  const responses: Record<string, unknown> = {};
  if (r.path.endsWith('/stream')) {
    responses['200'] = {
      description: 'event stream',
      content: { 'text/event-stream': { schema: { type: 'string' } } },
    };
    responses['400'] = { description: 'invalid cursor', content: { 'application/json': { schema: failure } } };
  } else {
    const data = DATA_SCHEMAS[`${r.method} ${r.path}`] ?? { type: 'object' };
    const success = {
      type: 'object',
      properties: { ok: { const: true }, data, meta: { $ref: '#/components/schemas/Meta' } },
      required: ['ok', 'data', 'meta'],
    };
    responses['200'] = {
      description: 'success',
      headers: r.auth ? RATE_HEADERS : undefined,
      content: { 'application/json': { schema: success } },
    };
    for (const s of r.auth ? ERROR_STATUSES : ['500']) {
      const headers = !r.auth ? undefined : s === '429' ? RETRY_HEADERS : RATE_HEADERS;
      responses[s] = { description: 'failure', headers, content: { 'application/json': { schema: failure } } };
    }
  }
  const op: Record<string, unknown> = {
    operationId: `${r.method.toLowerCase()}${r.path.replace(/[^A-Za-z0-9]+(.)?/g, (_m, c: string | undefined) => (c ?? '').toUpperCase())}`,
    summary: r.purpose,
    parameters,
    responses,
  };
  if (r.auth) op.security = [{ oauth2: [] }];
  else op.security = [];
  if (r.body) op.requestBody = { required: true, content: { 'application/json': { schema: r.body } } };
  return op;
}

export function openApi(
  baseUrl: string,
  altBaseUrl: string,
  tokenUrl: string,
  eventNames: string[],
): Record<string, unknown> {
  const paths: Record<string, Record<string, unknown>> = {};
  for (const r of routes(eventNames)) {
    paths[r.path] ??= {};
    (paths[r.path] as Record<string, unknown>)[r.method.toLowerCase()] = operation(r);
  }
  const meta = obj(
    {
      requestId: { type: 'string', format: 'uuid' },
      version: { type: 'string' },
      at: { type: 'string', format: 'date-time' },
      idempotencyKey: { type: 'string' },
      replayed: { type: 'boolean' },
    },
    ['requestId', 'version', 'at'],
  );
  return {
    openapi: '3.1.0',
    info: { title: 'Network Connections Service (ironwood)', version: VERSION },
    servers: [{ url: baseUrl }, { url: altBaseUrl }],
    paths,
    components: {
      securitySchemes: { oauth2: { type: 'oauth2', flows: { clientCredentials: { tokenUrl, scopes: {} } } } },
      schemas: {
        Meta: meta,
        Success: obj({ ok: { const: true }, data: { type: 'object' }, meta: { $ref: '#/components/schemas/Meta' } }, [
          'ok',
          'data',
          'meta',
        ]),
        Failure: obj(
          {
            ok: { const: false },
            error: obj(
              {
                code: { type: 'string', enum: ERROR_CODES },
                message: { type: 'string' },
                detail: { type: 'string' },
                hint: { type: 'string' },
              },
              ['code', 'message'],
            ),
            meta: { $ref: '#/components/schemas/Meta' },
          },
          ['ok', 'error', 'meta'],
        ),
      },
    },
  };
}
