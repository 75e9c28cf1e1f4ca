// The OpenAPI 3.1 document, built from the REST DSL's route table (as camel-openapi-java does), served at
// /openapi.json for the requested version and as downloadable files /api-doc/{version}/openapi.(json|yaml).

import { BASE, type RestRoute } from './camel-context.ts';
import { ENVIRONMENTS } from './catalog.ts';
import { CamelRouteException, send, VERSIONS } from './exchange.ts';
import { REALM_PATH } from './keycloak.ts';
import { COMPONENTS, DATA, QUERY } from './openapi-schemas.ts';
import { WEBHOOK_EVENTS } from './webhooks.ts';

type Builder = ReturnType<typeof import('./camel-context.ts').rest>;

const str = (min?: number, max?: number) => ({
  type: 'string',
  ...(min ? { minLength: min } : {}),
  ...(max ? { maxLength: max } : {}),
});
const LIMIT_HEADERS = {
  'X-RateLimit-Limit': { description: 'limit for the current period', schema: { type: 'integer', minimum: 0 } },
  'X-RateLimit-Remaining': { description: 'calls left in the period', schema: { type: 'integer', minimum: 0 } },
};
const envelope = { $ref: '#/components/schemas/Failure' };

const BODIES: Record<string, object> = {
  'POST /capabilities': {
    type: 'object',
    required: ['connectorId', 'capability'],
    properties: {
      connectorId: str(2, 120),
      capability: str(2, 120),
      environment: { type: 'string', enum: ENVIRONMENTS, default: 'sandbox' },
    },
  },
  'POST /connections': {
    type: 'object',
    required: ['connectorId', 'environment', 'scopeLabel', 'capabilities'],
    properties: {
      connectorId: str(2, 120),
      environment: { type: 'string', enum: ENVIRONMENTS },
      scopeLabel: str(2, 120),
      capabilities: { type: 'array', minItems: 1, maxItems: 24, items: str(2, 120) },
    },
  },
  'POST /idempotency-keys': { type: 'object', required: ['operation'], properties: { operation: str(2, 80) } },
  'POST /webhooks': {
    type: 'object',
    required: ['url', 'events'],
    properties: {
      url: { type: 'string', format: 'uri' },
      events: { type: 'array', minItems: 1, items: { type: 'string', enum: WEBHOOK_EVENTS } },
    },
  },
};

export function openapiDocument(routes: RestRoute[], version: string, origin: string) {
  const paths: Record<string, Record<string, object>> = {};
  for (const r of routes) {
    const rel = r.path.slice(BASE.length) || '';
    const params = [...r.path.matchAll(/\{(\w+)\}/g)].map((m) => ({
      name: m[1],
      in: 'path',
      required: true,
      schema: { type: 'string' },
    }));
    if (r.key !== 'none')
      params.push({
        name: 'Idempotency-Key',
        in: 'header',
        required: r.key === 'required',
        schema: { type: 'string', pattern: '^[A-Za-z0-9._:-]{8,128}$' },
        example: 'kauri:3f0c9a52-7a41-4d8e-9a7e-1b2c3d4e5f60',
      } as never);
    if (r.auth)
      params.push({
        name: 'x-service-tenant',
        in: 'header',
        required: true,
        schema: { type: 'string' },
        example: 'aroha-kitchens-akl',
      } as never);
    for (const q of QUERY[`${r.method} ${rel}`] ?? []) params.push({ in: 'query', required: false, ...q } as never);
    if (r.direct === 'direct:stream') {
      params.push({ name: 'Last-Event-ID', in: 'header', required: false, schema: { type: 'string' } } as never);
    }
    const body = BODIES[`${r.method} ${rel}`];
    const op: Record<string, unknown> = {
      operationId: r.direct.slice('direct:'.length),
      summary: r.purpose,
      'x-camel-route': r.direct,
      parameters: params,
      responses: {
        '200': {
          description: 'success envelope',
          ...(r.auth ? { headers: LIMIT_HEADERS } : {}),
          content:
            r.direct === 'direct:stream'
              ? { 'text/event-stream': { schema: { type: 'string' } } }
              : {
                  'application/json': {
                    schema: {
                      type: 'object',
                      required: ['ok', 'data', 'meta'],
                      properties: {
                        ok: { const: true },
                        data: DATA[`${r.method} ${rel}`] ?? { type: 'object' },
                        meta: { $ref: '#/components/schemas/Meta' },
                      },
                    },
                  },
                },
        },
        ...(r.auth
          ? {
              '429': {
                description: 'rate_limited: the Resilience4j limiter of (client, tenant, environment) is full',
                headers: {
                  ...LIMIT_HEADERS,
                  'Retry-After': {
                    description: 'recommended wait in seconds',
                    schema: { type: 'integer', minimum: 1 },
                  },
                },
                content: { 'application/json': { schema: envelope } },
              },
            }
          : {}),
        default: { description: 'failure envelope', content: { 'application/json': { schema: envelope } } },
      },
      security: r.auth ? [{ keycloak: [] }] : [],
    };
    if (body) op.requestBody = { required: true, content: { 'application/json': { schema: body } } };
    if (rel === '/webhooks' && r.method === 'POST') op['x-events'] = WEBHOOK_EVENTS;
    paths[r.path] ??= {};
    (paths[r.path] as Record<string, object>)[r.method.toLowerCase()] = op;
  }
  return {
    openapi: '3.1.0',
    info: { title: 'Network Connections Service (kauri)', version },
    servers: [{ url: origin }],
    paths,
    components: {
      securitySchemes: {
        keycloak: {
          type: 'oauth2',
          flows: { clientCredentials: { tokenUrl: `${origin}${REALM_PATH}/token`, scopes: {} } },
        },
      },
      schemas: COMPONENTS,
    },
  };
}

/** JSON to YAML: block mappings and sequences, every scalar written as a JSON (YAML-compatible) literal. */
export function toYaml(v: unknown, indent = ''): string {
  if (Array.isArray(v)) {
    if (v.length === 0) return '[]';
    return v.map((x) => `\n${indent}- ${toYaml(x, `${indent}  `).replace(/^\n\s*/, '')}`).join('');
  }
  if (v && typeof v === 'object') {
    const entries = Object.entries(v);
    if (entries.length === 0) return '{}';
    return entries.map(([k, x]) => `\n${indent}${JSON.stringify(k)}: ${toYaml(x, `${indent}  `)}`).join('');
  }
  return JSON.stringify(v ?? null);
}

export function openapiRoutes(r: Builder, all: () => RestRoute[]): void {
  r.get('/openapi.json', 'OpenAPI 3.1 document', { auth: false }).to('direct:openapi', (ex) => {
    send(ex, 200, openapiDocument(all(), ex.version, `http://${ex.req.headers.host ?? '127.0.0.1'}`));
    return undefined;
  });
  r.get('/api-doc/{version}/{file}', 'OpenAPI 3.1 document as a downloadable file (openapi.json, openapi.yaml)', {
    auth: false,
  }).to('direct:apiDoc', (ex) => {
    const version = ex.params.version ?? '';
    const file = ex.params.file;
    if (!(VERSIONS as readonly string[]).includes(version) || (file !== 'openapi.json' && file !== 'openapi.yaml')) {
      throw new CamelRouteException('not_found', 'No such document', `${version}/${file}`);
    }
    const doc = openapiDocument(all(), version, `http://${ex.req.headers.host ?? '127.0.0.1'}`);
    const yaml = file.endsWith('.yaml');
    const text = yaml ? `${toYaml(doc).slice(1)}\n` : JSON.stringify(doc, null, 2);
    ex.res.writeHead(200, {
      'content-type': yaml ? 'application/yaml; charset=utf-8' : 'application/json; charset=utf-8',
      'content-disposition': `attachment; filename="ncs-${version}-openapi.${yaml ? 'yaml' : 'json'}"`,
      breadcrumbId: ex.breadcrumbId,
    });
    ex.res.end(text);
    return undefined;
  });
}
