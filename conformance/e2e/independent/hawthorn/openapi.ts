// hawthorn's OpenAPI 3.1 document, built in code from the operation table (so the JSON and YAML files of a
// version are the same description), and a small YAML writer (every scalar JSON-quoted).
import { TOKEN_PATH } from './auth.ts';
import { OPERATIONS, type Op } from './openapi-operations.ts';
import { ERROR_CODES, envelope, ref, SCHEMAS, str } from './openapi-schemas.ts';
import { CURRENT_VERSION } from './util.ts';

const rateHeaders = {
  'X-RateLimit-Limit': { $ref: '#/components/headers/X-RateLimit-Limit' },
  'X-RateLimit-Remaining': { $ref: '#/components/headers/X-RateLimit-Remaining' },
};
const failure = (description: string, extra: Record<string, unknown> = {}) => ({
  description,
  headers: extra,
  content: { 'application/json': { schema: ref('Failure') } },
});

function operation(op: Op): Record<string, unknown> {
  const parameters: unknown[] = [{ $ref: '#/components/parameters/ServiceVersion' }];
  if (op.auth) parameters.push({ $ref: '#/components/parameters/Tenant' });
  if (op.key) parameters.push({ $ref: '#/components/parameters/IdempotencyKey' });
  for (const p of op.pathParams ?? []) parameters.push({ name: p, in: 'path', required: true, schema: str });
  for (const [name, schema] of Object.entries(op.query ?? {}))
    parameters.push({ name, in: 'query', required: false, schema });
  for (const [name, schema] of Object.entries(op.headers ?? {}))
    parameters.push({ name, in: 'header', required: false, schema });
  const ok = op.sse
    ? { description: 'status messages', content: { 'text/event-stream': { schema: str } } }
    : op.data
      ? {
          description: 'success',
          headers: op.auth ? rateHeaders : {},
          content: { 'application/json': { schema: envelope(op.data) } },
        }
      : { description: 'the document', content: { 'application/json': { schema: { type: 'object' } } } };
  const responses: Record<string, unknown> = {
    '200': ok,
    '400': failure('invalid_request'),
    '500': failure('internal'),
  };
  if (op.auth) {
    Object.assign(responses, {
      '401': failure('unauthorized'),
      '403': failure('forbidden', rateHeaders),
      '404': failure('not_found', rateHeaders),
      '429': failure('rate_limited', { ...rateHeaders, 'Retry-After': { $ref: '#/components/headers/Retry-After' } }),
    });
    if (op.key)
      Object.assign(responses, {
        '409': failure('capability_denied or idempotency_conflict', rateHeaders),
        '428': failure('idempotency_required', rateHeaders),
      });
  }
  const out: Record<string, unknown> = {
    operationId: op.id,
    summary: op.summary,
    parameters,
    responses,
    security: op.auth ? [{ partnerOAuth: ['network.read', 'network.write'] }] : [],
  };
  if (op.body) out.requestBody = { required: true, content: { 'application/json': { schema: ref(op.body) } } };
  return out;
}

export function openApiDocument(origin: string, version = CURRENT_VERSION): Record<string, unknown> {
  const paths: Record<string, Record<string, unknown>> = {};
  for (const op of OPERATIONS) {
    if (op.since && op.since > version) continue;
    const item = paths[op.path] ?? {};
    item[op.method] = operation(op);
    paths[op.path] = item;
  }
  const intHeader = (description: string) => ({ description, schema: { type: 'integer', minimum: 0 } });
  return {
    openapi: '3.1.0',
    info: {
      title: 'Network Connections Service (hawthorn)',
      version,
      description: 'Public interface of the network connections service.',
    },
    jsonSchemaDialect: 'https://spec.openapis.org/oas/3.1/dialect/base',
    servers: [{ url: origin }],
    paths,
    components: {
      schemas: SCHEMAS,
      parameters: {
        ServiceVersion: {
          name: 'Service-Version',
          in: 'header',
          required: false,
          schema: { type: 'string', examples: ['2026-07-01'] },
          description: 'optional; a published version is answered as that version, any other value as the current one',
        },
        Tenant: { name: 'x-service-tenant', in: 'header', required: true, schema: { type: 'string', minLength: 1 } },
        IdempotencyKey: {
          name: 'Idempotency-Key',
          in: 'header',
          required: true,
          schema: { type: 'string', pattern: '^[A-Za-z0-9._:-]{8,128}$' },
        },
      },
      headers: {
        'X-RateLimit-Limit': intHeader('calls of the current window (bucket capacity)'),
        'X-RateLimit-Remaining': intHeader('calls left in the bucket'),
        'Retry-After': intHeader('recommended wait in seconds'),
      },
      securitySchemes: {
        partnerOAuth: {
          type: 'oauth2',
          flows: {
            clientCredentials: {
              tokenUrl: `${origin}${TOKEN_PATH}`,
              scopes: { 'network.read': 'read', 'network.write': 'write' },
            },
          },
        },
      },
    },
    'x-error-codes': ERROR_CODES,
    'x-webhook-signature': { header: 'Hawthorn-Signature', format: 't=<unix-seconds>,v1=<hex>' },
  };
}
