// The self-description and the OpenAPI 3.1 document, both built from the route table so they cannot drift
// from what is served. The YAML file is the same document, emitted by a small writer (quoted scalars only).
import { TOKEN_PATH } from './auth.ts';
import { CURRENT_VERSION, KNOWN_VERSIONS } from './http-kit.ts';
import { operationSchemas } from './openapi-schemas.ts';
import { ROUTES } from './route-table.ts';
import { KEY_PATTERN } from './validate.ts';
import { DELIVERY_ID_HEADER, SIGNATURE_HEADER, WEBHOOK_EVENTS } from './webhooks.ts';

export function selfDescription(origin: string, version: string): Record<string, unknown> {
  return {
    service: 'Network Connections Service',
    surface: 'public',
    version,
    authentication: {
      scheme: 'bearer',
      flow: 'client_credentials',
      issuer: `${origin}/realms/chestnut`,
      tokenEndpoint: `${origin}${TOKEN_PATH}`,
      tenantHeader: 'x-service-tenant',
      tokenLifetimeSeconds: 300,
    },
    idempotency: {
      header: 'Idempotency-Key',
      pattern: KEY_PATTERN.source,
      requiredOn: ROUTES.filter((r) => r.key === 'required').map((r) => `${r.method} ${r.path}`),
      scope: 'client, tenant and key (case-sensitive)',
      retentionSeconds: 86400,
    },
    routes: ROUTES.map((r) => ({ method: r.method, path: r.path, purpose: r.purpose, auth: r.auth })),
    webhooks: { events: WEBHOOK_EVENTS, signatureHeader: SIGNATURE_HEADER, deliveryIdHeader: DELIVERY_ID_HEADER },
    stream: { eventTypes: ['ADDED', 'MODIFIED'], resume: ['Last-Event-ID', 'cursor'] },
    openapi: {
      document: '/api/public/v1/openapi.json',
      files: [
        {
          version: CURRENT_VERSION,
          json: `/api/public/v1/openapi/${CURRENT_VERSION}.json`,
          yaml: `/api/public/v1/openapi/${CURRENT_VERSION}.yaml`,
        },
      ],
    },
    versions: { current: CURRENT_VERSION, published: KNOWN_VERSIONS },
  };
}

const ERRORS: Record<string, string[]> = {
  '400': ['invalid_request'],
  '401': ['unauthorized'],
  '403': ['forbidden'],
  '404': ['not_found'],
  '409': ['capability_denied', 'idempotency_conflict'],
  '428': ['idempotency_required'],
  '429': ['rate_limited'],
  '500': ['internal'],
};

const limitHeaders = {
  'X-RateLimit-Limit': { description: 'calls allowed in the sliding window', schema: { type: 'integer', minimum: 0 } },
  'X-RateLimit-Remaining': { description: 'calls left in the window', schema: { type: 'integer', minimum: 0 } },
};

function errorResponse(status: string, auth: boolean): Record<string, unknown> {
  const headers: Record<string, unknown> = auth ? { ...limitHeaders } : {};
  if (status === '429')
    headers['Retry-After'] = { description: 'wait in seconds', schema: { type: 'integer', minimum: 1 } };
  return {
    description: `failure (${(ERRORS[status] ?? []).join(', ')})`,
    headers,
    content: {
      'application/json': {
        schema: {
          allOf: [
            { $ref: '#/components/schemas/Failure' },
            {
              type: 'object',
              properties: { error: { type: 'object', properties: { code: { enum: ERRORS[status] } } } },
            },
          ],
        },
      },
    },
  };
}

export function openApiDocument(origin: string, auditMaxLimit = 500): Record<string, unknown> {
  const paths: Record<string, Record<string, unknown>> = {};
  const schemas = operationSchemas(auditMaxLimit);
  for (const r of ROUTES) {
    const op = schemas.ops[r.operationId] ?? {};
    const parameters: unknown[] = [{ $ref: '#/components/parameters/ServiceVersion' }, ...(op.parameters ?? [])];
    if (r.auth) parameters.push({ $ref: '#/components/parameters/Tenant' });
    if (r.key !== 'none')
      parameters.push({
        $ref:
          r.key === 'required'
            ? '#/components/parameters/IdempotencyKeyRequired'
            : '#/components/parameters/IdempotencyKey',
      });
    for (const m of r.path.matchAll(/\{(\w+)\}/g))
      parameters.push({ name: m[1], in: 'path', required: true, schema: { type: 'string' } });
    const statuses = r.auth ? Object.keys(ERRORS) : ['400', '404', '500'];
    const responses: Record<string, unknown> = { '200': op.ok ?? { description: 'success' } };
    for (const s of statuses) responses[s] = errorResponse(s, r.auth);
    const operation: Record<string, unknown> = {
      operationId: r.operationId,
      summary: r.purpose,
      parameters,
      responses,
      security: r.auth ? [{ oauth2: [] }] : [],
    };
    if (op.requestBody !== undefined) operation.requestBody = op.requestBody;
    paths[r.path] = { ...(paths[r.path] ?? {}), [r.method.toLowerCase()]: operation };
  }
  return {
    openapi: '3.1.0',
    jsonSchemaDialect: 'https://json-schema.org/draft/2020-12/schema',
    info: {
      title: 'Network Connections Service',
      version: CURRENT_VERSION,
      description: 'chestnut deployment of the public interface',
    },
    paths,
    components: {
      schemas: schemas.components,
      parameters: {
        ServiceVersion: {
          name: 'Service-Version',
          in: 'header',
          required: false,
          schema: { type: 'string', enum: KNOWN_VERSIONS },
        },
        Tenant: { name: 'x-service-tenant', in: 'header', required: true, schema: { type: 'string', minLength: 1 } },
        IdempotencyKey: {
          name: 'Idempotency-Key',
          in: 'header',
          required: false,
          schema: { type: 'string', pattern: KEY_PATTERN.source },
        },
        IdempotencyKeyRequired: {
          name: 'Idempotency-Key',
          in: 'header',
          required: true,
          schema: { type: 'string', pattern: KEY_PATTERN.source },
        },
      },
      securitySchemes: {
        oauth2: { type: 'oauth2', flows: { clientCredentials: { tokenUrl: `${origin}${TOKEN_PATH}`, scopes: {} } } },
      },
    },
  };
}

/** YAML 1.2 block style; every scalar string double-quoted (JSON escapes are valid YAML escapes). */
export function toYaml(v: unknown, indent = ''): string {
  if (Array.isArray(v)) {
    if (v.length === 0) return ' []';
    return v.map((x) => `\n${indent}-${toYaml(x, `${indent}  `).replace(/^\n\s*/, ' ')}`).join('');
  }
  if (v !== null && typeof v === 'object') {
    const entries = Object.entries(v as Record<string, unknown>);
    if (entries.length === 0) return ' {}';
    return entries.map(([k, x]) => `\n${indent}${JSON.stringify(k)}:${toYaml(x, `${indent}  `)}`).join('');
  }
  return ` ${JSON.stringify(v)}`;
}

export function openApiYaml(origin: string, auditMaxLimit = 500): string {
  return `${toYaml(openApiDocument(origin, auditMaxLimit)).replace(/^\n/, '')}\n`;
}
