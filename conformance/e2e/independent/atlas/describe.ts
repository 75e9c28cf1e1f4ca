// Self-description and the OpenAPI 3.1 document, both generated from the route table.
import { CURRENT_VERSION } from './http-util.ts';
import { ALL_SCOPES, type AuthEndpoints } from './oauth.ts';
import { BODIES, DATA, QUERY, SCHEMAS } from './openapi-schemas.ts';
import { ROUTES, type Route } from './routes.ts';
import { KEY_PATTERN } from './validate.ts';

const visible = (version: string) => ROUTES.filter((r) => r.since === undefined || version >= r.since);

export function selfDescription(version: string, auth: AuthEndpoints): Record<string, unknown> {
  return {
    service: 'Network Connections Service',
    surface: 'public',
    version,
    implementation: 'atlas 3.8.1',
    authentication: {
      type: 'oauth2',
      flows: ['client_credentials'],
      issuer: auth.issuer,
      metadata: auth.metadata,
      tokenEndpoint: auth.tokenEndpoint,
      tenantHeader: 'x-service-tenant',
      tokenLifetimeSeconds: 600,
    },
    idempotency: {
      header: 'Idempotency-Key',
      pattern: KEY_PATTERN.source,
      retentionHours: 24,
      requiredOn: visible(version)
        .filter((r) => r.keyed)
        .map((r) => `${r.method} ${r.path}`),
    },
    routes: visible(version).map((r) => ({ method: r.method, path: r.path, purpose: r.purpose, auth: r.auth })),
  };
}

const errorStatuses = (r: Route): string[] =>
  r.auth ? ['400', '401', '403', '404', '409', '428', '429', '500'] : ['400', '404', '500'];

function operation(r: Route): Record<string, unknown> {
  const key = `${r.method} ${r.path}`;
  const parameters: unknown[] = [{ $ref: '#/components/parameters/ServiceVersion' }];
  if (r.auth) parameters.push({ $ref: '#/components/parameters/Tenant' });
  if (r.keyed) parameters.push({ $ref: '#/components/parameters/IdempotencyKey' });
  for (const m of r.path.matchAll(/\{(\w+)\}/g))
    parameters.push({ name: m[1], in: 'path', required: true, schema: { type: 'string' } });
  parameters.push(...(QUERY[key] ?? []));
  const responses: Record<string, unknown> = {};
  if (r.path.endsWith('/stream')) {
    responses['200'] = {
      description: 'Server-Sent Events; id is the consecutive sequence number',
      content: { 'text/event-stream': { schema: { type: 'string' } } },
    };
  } else if (r.path.endsWith('/openapi.json') || r.path.endsWith('/openapi.yaml')) {
    const type = r.path.endsWith('.json') ? 'application/json' : 'application/yaml';
    responses['200'] = { description: 'OpenAPI 3.1 document', content: { [type]: { schema: { type: 'object' } } } };
  } else {
    const data = DATA[key] ?? { type: 'object' };
    responses['200'] = {
      description: 'Success',
      content: {
        'application/json': {
          schema: {
            type: 'object',
            properties: { ok: { const: true }, data, meta: { $ref: '#/components/schemas/Meta' } },
            required: ['ok', 'data', 'meta'],
          },
        },
      },
    };
  }
  for (const s of errorStatuses(r)) responses[s] = { $ref: '#/components/responses/Failure' };
  const op: Record<string, unknown> = {
    operationId: `${r.method.toLowerCase()}${
      r.path
        .replace('/api/public/v1', '')
        .replace(/[{}]/g, '')
        .split(/[/.-]/)
        .map((w) => w.charAt(0).toUpperCase() + w.slice(1))
        .join('') || 'Root'
    }`,
    summary: r.purpose,
    parameters,
    responses,
    security: r.auth ? [{ atlasOAuth: r.scope === undefined ? [] : [r.scope] }] : [],
  };
  if (r.extension === true) op['x-atlas-extension'] = true;
  const body = BODIES[key];
  if (body !== undefined) op.requestBody = { required: true, content: { 'application/json': { schema: body } } };
  return op;
}

export function openApiDocument(version: string, auth: AuthEndpoints): Record<string, unknown> {
  const paths: Record<string, Record<string, unknown>> = {};
  for (const r of visible(version)) {
    const rel = r.path === '/api/public/v1' ? '/' : r.path.slice('/api/public/v1'.length);
    paths[rel] = { ...(paths[rel] ?? {}), [r.method.toLowerCase()]: operation(r) };
  }
  return {
    openapi: '3.1.0',
    info: {
      title: 'Network Connections Service (atlas)',
      version,
      description: `Interface version ${version}; current ${CURRENT_VERSION}.`,
    },
    servers: [{ url: '/api/public/v1' }],
    paths,
    components: {
      schemas: SCHEMAS,
      parameters: {
        Tenant: { name: 'x-service-tenant', in: 'header', required: true, schema: { type: 'string', minLength: 1 } },
        IdempotencyKey: {
          name: 'Idempotency-Key',
          in: 'header',
          required: true,
          schema: { type: 'string', pattern: KEY_PATTERN.source },
        },
        ServiceVersion: {
          name: 'Service-Version',
          in: 'header',
          required: false,
          schema: { type: 'string', enum: ['2026-07-01', '2026-06-12'] },
        },
      },
      responses: {
        Failure: {
          description: 'Failure envelope',
          content: { 'application/json': { schema: { $ref: '#/components/schemas/Failure' } } },
        },
      },
      securitySchemes: {
        atlasOAuth: {
          type: 'oauth2',
          flows: {
            clientCredentials: {
              tokenUrl: auth.tokenEndpoint,
              scopes: Object.fromEntries(ALL_SCOPES.map((s) => [s, s])),
            },
          },
        },
      },
    },
  };
}
