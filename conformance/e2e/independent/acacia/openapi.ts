// The OpenAPI 3.1 document (RAML-first habits: a versioned base path in `servers`, resource paths relative to
// it), the self-description, and the YAML download of the same description, all built from route-table.ts.
import { type Ctx, CURRENT_VERSION } from './http.ts';
import { TOKEN_PATH } from './oauth.ts';
import { KEY_PATTERN } from './object-store.ts';
import { ERROR_CODES, SCHEMAS } from './openapi-schemas.ts';
import { ROUTES, type RouteDef } from './route-table.ts';
import { toYaml } from './yaml.ts';

const BASE = '/api/public/v1';
const routesOf = (version: string) => ROUTES.filter((r) => !r.since || version >= r.since);
const int = { schema: { type: 'integer', minimum: 0 } };
const LIMIT_HEADERS = {
  'X-RateLimit-Limit': { description: 'calls allowed in the current window', ...int },
  'X-RateLimit-Remaining': { description: 'calls left in the current window', ...int },
  'X-RateLimit-Reset': { description: 'milliseconds until the window resets (Anypoint habit)', ...int },
};
const CORRELATION = {
  'X-Correlation-ID': { description: "the call's correlation id, equal to meta.requestId", schema: { type: 'string' } },
};
const STATUS_TEXT: Record<string, string> = {
  '400': 'invalid_request',
  '401': 'unauthorized',
  '403': 'forbidden',
  '404': 'not_found',
  '409': 'capability_denied or idempotency_conflict',
  '428': 'idempotency_required',
  '429': 'rate_limited',
  '500': 'internal',
};

function hdr(
  name: string,
  required: boolean,
  schema: Record<string, unknown>,
  description: string,
): Record<string, unknown> {
  return { name, in: 'header', required, schema, description };
}

function operation(r: RouteDef): Record<string, unknown> {
  const parameters: unknown[] = [
    hdr(
      'Service-Version',
      false,
      { type: 'string', enum: ['2026-07-01', '2026-06-12'] },
      'interface version; default the current one',
    ),
  ];
  if (r.auth) {
    parameters.push(hdr('x-service-tenant', true, { type: 'string', minLength: 1 }, 'the tenant the call applies to'));
    parameters.push(
      hdr('client_id', false, { type: 'string' }, "client-id enforcement: where sent, the token's client"),
    );
  }
  if (r.key !== 'none')
    parameters.push(
      hdr(
        'Idempotency-Key',
        r.key === 'required',
        { type: 'string', pattern: KEY_PATTERN.source },
        'key against double effects',
      ),
    );
  if (r.operationId === 'getStream')
    parameters.push(
      hdr('Last-Event-ID', false, { type: 'string', pattern: '^[0-9]+$' }, 'last number read (wins over cursor)'),
    );
  for (const q of r.query ?? [])
    parameters.push({ name: q.name, in: 'query', required: false, schema: q.schema, description: q.description });
  for (const m of r.path.matchAll(/\{(\w+)\}/g))
    parameters.push({ name: m[1], in: 'path', required: true, schema: { type: 'string' } });
  const headers = r.auth ? { ...LIMIT_HEADERS, ...CORRELATION } : CORRELATION;
  const ok =
    r.operationId === 'getStream'
      ? {
          description: 'Server-Sent Events: id = sequence number',
          headers: CORRELATION,
          content: { 'text/event-stream': { schema: { type: 'string' } } },
        }
      : r.operationId === 'getOpenApi'
        ? { description: 'this document', content: { 'application/json': { schema: { type: 'object' } } } }
        : {
            description: 'success envelope',
            headers,
            content: {
              'application/json': {
                schema: {
                  type: 'object',
                  required: ['ok', 'data', 'meta'],
                  properties: {
                    ok: { const: true },
                    data: { $ref: `#/components/schemas/${r.data}` },
                    meta: { $ref: '#/components/schemas/Meta' },
                  },
                },
              },
            },
          };
  const statuses = r.auth ? ['400', '401', '403', '404', '409', '428', '429', '500'] : ['400', '404', '500'];
  const responses: Record<string, unknown> = { '200': ok };
  for (const st of statuses) {
    const extra = st === '429' ? { 'Retry-After': { description: 'wait in seconds', ...int } } : {};
    responses[st] = {
      description: STATUS_TEXT[st],
      headers: { ...(r.auth && st !== '401' ? LIMIT_HEADERS : {}), ...CORRELATION, ...extra },
      content: { 'application/json': { schema: { $ref: '#/components/schemas/Failure' } } },
    };
  }
  const op: Record<string, unknown> = {
    operationId: r.operationId,
    summary: r.purpose,
    parameters,
    responses,
    security: r.auth ? [{ anypointOAuth: [] }] : [],
  };
  if (r.body)
    op.requestBody = {
      required: true,
      content: { 'application/json': { schema: { $ref: `#/components/schemas/${r.body}` } } },
    };
  return op;
}

/** `origin`: a RAML-style absolute baseUri (the address the document was asked on), else the relative base path. */
export function openApiDocument(version: string, origin = ''): Record<string, unknown> {
  const paths: Record<string, Record<string, unknown>> = {};
  for (const r of routesOf(version)) {
    const p = r.path === BASE ? '/' : r.path.slice(BASE.length);
    paths[p] = { ...(paths[p] ?? {}), [r.method.toLowerCase()]: operation(r) };
  }
  return {
    openapi: '3.1.0',
    info: {
      title: 'Network Connections experience API (acacia)',
      version,
      description: 'Converted from the RAML 1.0 specification of the acacia experience API.',
    },
    jsonSchemaDialect: 'https://json-schema.org/draft/2020-12/schema',
    servers: [{ url: `${origin}${BASE}`, description: 'the versioned base path (the address asked, where absolute)' }],
    paths,
    webhooks: {
      'connection.created': {
        post: {
          summary: 'a connection of the tenant was created (signed: X-Acacia-Signature t=<unix-seconds>,v1=<hex>)',
          parameters: [
            hdr(
              'X-Acacia-Signature',
              true,
              { type: 'string', pattern: '^t=[0-9]+,v1=[0-9a-f]{64}$' },
              'HMAC-SHA256 over "<t>.<raw body>"',
            ),
          ],
          requestBody: { content: { 'application/json': { schema: { type: 'object' } } } },
          responses: { '200': { description: 'any 2xx acknowledges the delivery' } },
        },
      },
    },
    components: {
      schemas: SCHEMAS,
      securitySchemes: {
        anypointOAuth: { type: 'oauth2', flows: { clientCredentials: { tokenUrl: TOKEN_PATH, scopes: {} } } },
      },
    },
    'x-error-codes': ERROR_CODES,
  };
}

export function openApiYaml(version: string, origin = ''): string {
  return `# acacia experience API ${version}\n${toYaml(openApiDocument(version, origin))}\n`;
}

export function selfDescription(ctx: Ctx): Record<string, unknown> {
  const origin = new URL(ctx.baseUrl).origin;
  return {
    service: 'network-connections',
    surface: 'experience-api (acacia, API-led: experience -> system)',
    version: CURRENT_VERSION,
    authentication: {
      type: 'oauth2',
      flows: ['client_credentials'],
      tokenEndpoint: `${origin}${TOKEN_PATH}`,
      metadata: `${origin}/.well-known/oauth-authorization-server`,
      headers: {
        authorization: 'Bearer <token>',
        tenant: 'x-service-tenant',
        clientIdEnforcement: 'client_id (optional)',
      },
    },
    idempotency: {
      header: 'Idempotency-Key',
      pattern: KEY_PATTERN.source,
      requiredOn: ROUTES.filter((r) => r.key === 'required').map((r) => `${r.method} ${r.path}`),
      store: 'object store, per client and tenant',
      ttlSeconds: 86400,
    },
    routes: routesOf(ctx.version).map((r) => ({ method: r.method, path: r.path, purpose: r.purpose, auth: r.auth })),
    webhooks: {
      events: ['connection.created', 'connection.activated', 'order.created', 'order.paid'],
      signatureHeader: 'X-Acacia-Signature',
    },
    openapi: {
      json: `${BASE}/openapi.json`,
      downloads: ['2026-07-01', '2026-06-12'].flatMap((v) => [
        `${BASE}/openapi/${v}.json`,
        `${BASE}/openapi/${v}.yaml`,
      ]),
    },
  };
}
