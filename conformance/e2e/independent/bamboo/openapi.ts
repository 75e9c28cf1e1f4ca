// The OpenAPI 3.1 document, built from the route table (utoipa-style: the routes are the source), served
// at /openapi.json and per version as files: /openapi/<version>.json and .yaml (the YAML file is the JSON
// text, which YAML 1.2 reads as is).
import { ROUTES } from './routes.ts';
import { ERROR_CODES, SCHEMAS } from './schemas.ts';
import { type Call, CURRENT_VERSION, notFound, sendJson, VERSIONS } from './wire.ts';

const P = '/api/public/v1';
const header = (schema: unknown, description: string) => ({ schema, description });
const RATE_HEADERS = {
  'X-RateLimit-Limit': header({ type: 'integer', minimum: 0 }, 'Calls allowed in the current window.'),
  'X-RateLimit-Remaining': header({ type: 'integer', minimum: 0 }, 'Calls left in the current window.'),
};
const ID_HEADER = { 'X-Request-Id': header({ type: 'string' }, 'The request id, also meta.requestId.') };

const STATUS_CODES: Record<string, string[]> = {
  '400': ['invalid_request'],
  '401': ['unauthorized'],
  '403': ['forbidden'],
  '404': ['not_found'],
  '409': ['capability_denied', 'idempotency_conflict'],
  '428': ['idempotency_required'],
  '429': ['rate_limited'],
  '500': ['internal'],
};

function failure(status: string, auth: boolean): unknown {
  const codes = STATUS_CODES[status] ?? [];
  const headers: Record<string, unknown> = { ...ID_HEADER, ...(auth ? RATE_HEADERS : {}) };
  if (status === '429')
    headers['Retry-After'] = header({ type: 'integer', minimum: 0 }, 'Recommended wait in seconds.');
  return {
    description: `Failure (${codes.join(', ')})`,
    headers,
    content: {
      'application/json': {
        schema: {
          allOf: [
            { $ref: '#/components/schemas/Failure' },
            {
              type: 'object',
              properties: { error: { type: 'object', properties: { code: { type: 'string', enum: codes } } } },
            },
          ],
        },
      },
    },
  };
}

function build(): Record<string, unknown> {
  const paths: Record<string, Record<string, unknown>> = {};
  for (const r of ROUTES) {
    const parameters: unknown[] = [{ $ref: '#/components/parameters/ServiceVersion' }];
    for (const m of r.path.matchAll(/\{(\w+)\}/g))
      parameters.push({ name: m[1], in: 'path', required: true, schema: { type: 'string' } });
    for (const q of r.query ?? [])
      parameters.push({ name: q.name, in: 'query', required: q.required ?? false, schema: q.schema });
    if (r.auth) parameters.push({ $ref: '#/components/parameters/Tenant' });
    if (r.key) parameters.push({ $ref: '#/components/parameters/IdempotencyKey' });
    if (r.operationId === 'openStream')
      parameters.push({
        name: 'Last-Event-ID',
        in: 'header',
        required: false,
        schema: { type: 'string', pattern: '^\\d+$' },
        description: 'Last number read.',
      });
    const responses: Record<string, unknown> = {};
    if (r.operationId === 'openStream') {
      responses['200'] = {
        description:
          'Server-Sent Events: id = consecutive number, event = kind (connection.created, connection.live), data = JSON.',
        headers: ID_HEADER,
        content: { 'text/event-stream': { schema: { type: 'string' } } },
      };
    } else if (r.operationId === 'getOpenApi' || r.operationId === 'downloadOpenApi') {
      const content: Record<string, unknown> = { 'application/json': { schema: { type: 'object' } } };
      if (r.operationId === 'downloadOpenApi') content['application/yaml'] = { schema: { type: 'string' } };
      responses['200'] = { description: 'The OpenAPI 3.1 description.', headers: ID_HEADER, content };
    } else {
      const schema = {
        type: 'object',
        required: ['ok', 'data', 'meta'],
        properties: {
          ok: { type: 'boolean', const: true },
          data: r.data ?? { type: 'object' },
          meta: { $ref: '#/components/schemas/Meta' },
        },
      };
      responses['200'] = {
        description: 'Success',
        headers: { ...ID_HEADER, ...(r.auth ? RATE_HEADERS : {}) },
        content: { 'application/json': { schema } },
      };
    }
    const statuses = r.auth
      ? ['400', '401', '403', '404', ...(r.method === 'GET' ? [] : ['409']), ...(r.key ? ['428'] : []), '429', '500']
      : ['400', ...(r.path.includes('{') ? ['404'] : []), '500'];
    for (const s of statuses) responses[s] = failure(s, r.auth);
    const op: Record<string, unknown> = {
      operationId: r.operationId,
      summary: r.purpose,
      parameters,
      responses,
      security: r.auth ? [{ bearerAuth: [] }] : [],
    };
    if (r.body)
      op.requestBody = {
        required: true,
        content: { 'application/json': { schema: { $ref: `#/components/schemas/${r.body}` } } },
      };
    paths[r.path] = { ...(paths[r.path] ?? {}), [r.method.toLowerCase()]: op };
  }
  return {
    openapi: '3.1.0',
    info: {
      title: 'Network Connections Service (bamboo)',
      version: CURRENT_VERSION,
      description: `Errors: ${ERROR_CODES.join(', ')}`,
    },
    jsonSchemaDialect: 'https://json-schema.org/draft/2020-12/schema',
    servers: [{ url: '/' }],
    paths,
    components: {
      schemas: SCHEMAS,
      securitySchemes: {
        bearerAuth: {
          type: 'http',
          scheme: 'bearer',
          description: 'Access token from the OAuth client credentials flow (Ory Hydra /oauth2/token).',
        },
      },
      parameters: {
        Tenant: { name: 'x-service-tenant', in: 'header', required: true, schema: { type: 'string', minLength: 1 } },
        IdempotencyKey: {
          name: 'Idempotency-Key',
          in: 'header',
          required: true,
          schema: { type: 'string', pattern: '^[A-Za-z0-9._:-]{8,128}$', minLength: 8, maxLength: 128 },
        },
        ServiceVersion: {
          name: 'Service-Version',
          in: 'header',
          required: false,
          schema: { type: 'string', enum: [...VERSIONS] },
        },
      },
    },
  };
}

let cached: string | undefined;
const text = () => {
  cached ??= JSON.stringify(build());
  return cached;
};

export function openapiDocument(call: Call): void {
  sendJson(call, 200, JSON.parse(text()));
}

export function openapiFile(call: Call, file: string): void {
  const m = /^(\d{4}-\d{2}-\d{2})\.(json|yaml)$/.exec(file);
  if (!m || !(VERSIONS as readonly string[]).includes(m[1] ?? ''))
    throw notFound(`No description file ${file}; try ${CURRENT_VERSION}.json or ${CURRENT_VERSION}.yaml.`);
  const body = text();
  const yaml = m[2] === 'yaml';
  call.res.writeHead(200, {
    'content-type': yaml ? 'application/yaml' : 'application/json',
    'content-disposition': `attachment; filename="ncs-${m[1]}.${m[2]}"`,
    'x-request-id': call.requestId,
  });
  call.res.end(body);
}
void P;
