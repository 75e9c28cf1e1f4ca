// The OpenAPI 3.1 document (built from the route table, as an Azure APIM import would be), its YAML
// form, and the self-description. Paths are relative to the server /api/public/v1.

import { AUDIENCE } from './auth.ts';
import type { Deps } from './deps.ts';
import type { Ctx } from './http-kit.ts';
import { OPERATION_SCHEMAS, SCHEMAS } from './openapi-schemas.ts';
import { ROUTES } from './routes.ts';
import { VERSIONS } from './util.ts';

const BASE = '/api/public/v1';
const ERROR_STATUSES = ['400', '401', '403', '404', '409', '428', '429', '500'];
const rateHeaders = {
  'X-RateLimit-Limit': { schema: { type: 'integer' }, description: 'Calls allowed in the current window.' },
  'X-RateLimit-Remaining': { schema: { type: 'integer' }, description: 'Calls left in the current window.' },
};

function header(name: string, required: boolean, schema: unknown, description: string): unknown {
  return { name, in: 'header', required, schema, description };
}

function operation(route: (typeof ROUTES)[number]): Record<string, unknown> {
  const s = OPERATION_SCHEMAS[route.operationId] ?? {};
  const auth = route.access !== 'public';
  const params: unknown[] = [
    header(
      'Service-Version',
      false,
      { type: 'string', enum: [...VERSIONS] },
      'Interface version; the current one when left out.',
    ),
    {
      name: 'api-version',
      in: 'query',
      required: false,
      schema: { type: 'string', enum: [...VERSIONS] },
      description: 'Same as Service-Version.',
    },
  ];
  for (const m of route.path.matchAll(/\{(\w+)\}/g))
    params.push({ name: m[1], in: 'path', required: true, schema: { type: 'string' } });
  for (const [name, schema] of Object.entries(s.query ?? {}))
    params.push({ name, in: 'query', required: false, schema });
  if (auth)
    params.push(header('x-service-tenant', true, { type: 'string', minLength: 1 }, 'The tenant the call applies to.'));
  if (route.key !== 'none') {
    params.push(
      header(
        'Idempotency-Key',
        route.key === 'required',
        { type: 'string', pattern: '^[A-Za-z0-9._:-]{8,128}$' },
        'Key against double effects.',
      ),
    );
  }
  if (route.operationId === 'Stream_Get')
    params.push(
      header('Last-Event-ID', false, { type: 'string', pattern: '^[0-9]+$' }, 'Last number read; wins over cursor.'),
    );
  const ok = (() => {
    if (route.operationId === 'Stream_Get') return { 'text/event-stream': { schema: { type: 'string' } } };
    if (route.operationId === 'OpenApi_Get' || route.operationId === 'OpenApi_GetJsonFile')
      return { 'application/json': { schema: { type: 'object' } } };
    if (route.operationId === 'OpenApi_GetYamlFile') return { 'application/yaml': { schema: { type: 'string' } } };
    const data = s.data ? { $ref: `#/components/schemas/${s.data}` } : { type: 'object' };
    return {
      'application/json': {
        schema: {
          type: 'object',
          properties: { ok: { type: 'boolean', const: true }, data, meta: { $ref: '#/components/schemas/Meta' } },
          required: ['ok', 'data', 'meta'],
        },
      },
    };
  })();
  const responses: Record<string, unknown> = {
    '200': { description: 'Success.', content: ok, ...(auth ? { headers: rateHeaders } : {}) },
  };
  for (const status of auth ? ERROR_STATUSES : ['400', '404', '500']) {
    responses[status] = {
      description: 'Failure envelope.',
      content: { 'application/json': { schema: { $ref: '#/components/schemas/Failure' } } },
    };
  }
  return {
    operationId: route.operationId,
    summary: route.purpose,
    tags: [route.operationId.split('_')[0]],
    security: auth ? [{ entraId: [`${AUDIENCE}/.default`] }] : [],
    parameters: params,
    ...(s.body
      ? {
          requestBody: {
            required: true,
            content: { 'application/json': { schema: { $ref: `#/components/schemas/${s.body}` } } },
          },
        }
      : {}),
    responses,
  };
}

export function openApiDocument(version: string, tokenUrl: string): Record<string, unknown> {
  const paths: Record<string, Record<string, unknown>> = {};
  for (const route of ROUTES) {
    if (route.since && version < route.since) continue;
    const rel = route.path.slice(BASE.length) || '/';
    paths[rel] = { ...paths[rel], [route.method.toLowerCase()]: operation(route) };
  }
  return {
    openapi: '3.1.0',
    info: {
      title: 'Network Connections Service (spruce)',
      version,
      description:
        'Public interface. JSON and YAML files per version: /openapi/{version}.json and /openapi/{version}.yaml.',
    },
    servers: [{ url: BASE }],
    paths,
    components: {
      schemas: SCHEMAS,
      securitySchemes: {
        entraId: {
          type: 'oauth2',
          description: 'Microsoft Entra ID, client credentials.',
          flows: {
            clientCredentials: {
              tokenUrl,
              scopes: { [`${AUDIENCE}/.default`]: 'all app roles granted to the client' },
            },
          },
        },
      },
    },
    'x-spruce-files': VERSIONS.map((v) => ({
      version: v,
      json: `${BASE}/openapi/${v}.json`,
      yaml: `${BASE}/openapi/${v}.yaml`,
    })),
  };
}

/** YAML 1.2 block style; every string is written double-quoted (JSON escapes are valid YAML). */
export function toYaml(value: unknown, indent = ''): string {
  if (Array.isArray(value)) {
    if (value.length === 0) return '[]';
    return value.map((v) => `\n${indent}- ${toYaml(v, `${indent}  `).replace(/^\n\s*/, '')}`).join('');
  }
  if (value !== null && typeof value === 'object') {
    const entries = Object.entries(value);
    if (entries.length === 0) return '{}';
    return entries
      .map(([k, v]) => `\n${indent}${JSON.stringify(k)}: ${toYaml(v, `${indent}  `)}`.replace(/: \n/, ':\n'))
      .join('');
  }
  return JSON.stringify(value) ?? 'null';
}

export function describe(ctx: Ctx, deps: Deps): Record<string, unknown> {
  const authBase = deps.authority.issuer.replace(/\/v2\.0$/, '');
  return {
    service: 'Network Connections Service',
    surface: 'public',
    version: ctx.version,
    authentication: {
      type: 'oauth2',
      flow: 'client_credentials',
      provider: 'Microsoft Entra ID',
      tokenEndpoint: deps.authority.tokenUrl,
      metadata: `${authBase}/v2.0/.well-known/openid-configuration`,
      scope: `${AUDIENCE}/.default`,
      header: 'Authorization: Bearer <token>',
      tenantHeader: 'x-service-tenant',
    },
    idempotency: {
      header: 'Idempotency-Key',
      pattern: '^[A-Za-z0-9._:-]{8,128}$',
      retentionHours: 24,
      requiredOn: ROUTES.filter((r) => r.key === 'required').map((r) => `${r.method} ${r.path}`),
    },
    versions: {
      current: VERSIONS[VERSIONS.length - 1],
      supported: [...VERSIONS],
      header: 'Service-Version',
      query: 'api-version',
    },
    openapi: {
      json: `${BASE}/openapi.json`,
      files: VERSIONS.map((v) => ({
        version: v,
        json: `${BASE}/openapi/${v}.json`,
        yaml: `${BASE}/openapi/${v}.yaml`,
      })),
    },
    routes: ROUTES.filter((r) => !r.since || ctx.version >= r.since).map((r) => ({
      method: r.method,
      path: r.path,
      purpose: r.purpose,
      auth: r.access !== 'public',
    })),
  };
}
