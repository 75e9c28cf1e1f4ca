// The self-description and the hand-built OpenAPI 3.1 document (JSON and YAML) of what quince serves.
import { TOKEN_PATH } from './auth.ts';
import { KEY_PATTERN, VALIDITY_MS } from './idempotency.ts';
import { ROUTES } from './routes.ts';
import { SCHEMAS } from './schemas.ts';
import { CURRENT_VERSION, STATUS, VERSIONS } from './util.ts';

export function description(origin: string): Record<string, unknown> {
  return {
    service: 'quince network connections',
    surface: 'public',
    version: CURRENT_VERSION,
    authentication: {
      type: 'oauth2',
      flows: ['client_credentials'],
      tokenEndpoint: `${origin}${TOKEN_PATH}`,
      metadata: `${origin}/.well-known/oauth-authorization-server`,
      tenantHeader: 'x-service-tenant',
    },
    idempotency: {
      header: 'Idempotency-Key',
      pattern: KEY_PATTERN.source,
      validity: `PT${VALIDITY_MS / 3_600_000}H`,
      scope: 'client, tenant and key; fingerprint: method, path and body',
    },
    versions: VERSIONS,
    documents: { json: '/api/public/v1/openapi.json', yaml: '/api/public/v1/openapi.yaml' },
    routes: ROUTES.map((r) => ({ method: r.method, path: r.path, purpose: r.purpose, auth: r.auth })),
  };
}

const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });

function envelope(schema: string): Record<string, unknown> {
  return {
    type: 'object',
    required: ['ok', 'data', 'meta'],
    properties: { ok: { const: true }, data: ref(schema), meta: ref('Meta') },
  };
}

const PARAM = (name: string) => ({ $ref: `#/components/parameters/${name}` });

function operation(r: (typeof ROUTES)[number]): Record<string, unknown> {
  const params: unknown[] = [PARAM('ServiceVersion')];
  if (r.auth) params.push(PARAM('Tenant'));
  if (r.key !== 'none') params.push({ ...PARAM(r.key === 'required' ? 'IdempotencyKeyRequired' : 'IdempotencyKey') });
  for (const m of r.path.matchAll(/\{(\w+)\}/g))
    params.push({ name: m[1], in: 'path', required: true, schema: { type: 'string' } });
  if (r.path.endsWith('/providers')) params.push({ name: 'category', in: 'query', schema: { type: 'string' } });
  if (r.path.endsWith('/connectors') && r.method === 'GET') {
    for (const n of ['capability', 'providerId', 'category'])
      params.push({ name: n, in: 'query', schema: { type: 'string' } });
  }
  if (r.path.endsWith('/audit-log')) {
    params.push({ name: 'limit', in: 'query', schema: { type: 'integer', minimum: 1, maximum: 500, default: 20 } });
    params.push({ name: 'pageToken', in: 'query', schema: { type: 'string' } });
  }
  const isStream = r.path.endsWith('/stream');
  if (isStream) {
    params.push({ name: 'cursor', in: 'query', schema: { type: 'integer', minimum: 0 } });
    params.push({ name: 'Last-Event-ID', in: 'header', schema: { type: 'string' } });
  }
  const ok = isStream
    ? { description: 'Server-Sent Events', content: { 'text/event-stream': { schema: { type: 'string' } } } }
    : r.schema === 'Document'
      ? {
          description: 'OpenAPI 3.1 document',
          content: {
            [r.path.endsWith('yaml') ? 'application/yaml' : 'application/json']: { schema: { type: 'object' } },
          },
        }
      : { description: 'Success', content: { 'application/json': { schema: envelope(r.schema) } } };
  const responses: Record<string, unknown> = { '200': ok };
  const statuses = r.auth ? [...new Set(Object.values(STATUS))] : [400, 404, 500];
  for (const s of statuses.sort()) responses[String(s)] = { $ref: `#/components/responses/E${s}` };
  const op: Record<string, unknown> = {
    operationId: `${r.method.toLowerCase()}${r.path.replace(/[^A-Za-z0-9]+(.)?/g, (_m, c: string | undefined) => (c ?? '').toUpperCase())}`,
    summary: r.purpose,
    parameters: params,
    responses,
    security: r.auth ? [{ oauth2: [] }] : [],
  };
  if (r.method === 'POST') {
    op.requestBody = { required: true, content: { 'application/json': { schema: ref(`${r.schema}Request`) } } };
  }
  return op;
}

export function openapiDocument(origin: string): Record<string, unknown> {
  const paths: Record<string, Record<string, unknown>> = {};
  for (const r of ROUTES) {
    const item = paths[r.path] ?? {};
    item[r.method.toLowerCase()] = operation(r);
    paths[r.path] = item;
  }
  const responses: Record<string, unknown> = {};
  for (const s of new Set(Object.values(STATUS))) {
    const headers: Record<string, unknown> = {};
    if (s === 429) headers['Retry-After'] = { schema: { type: 'integer' } };
    responses[`E${s}`] = {
      description: `Error ${s}`,
      headers,
      content: { 'application/json': { schema: ref('Failure') } },
    };
  }
  return {
    openapi: '3.1.0',
    info: { title: 'Network Connections Service (quince)', version: CURRENT_VERSION },
    servers: [{ url: origin }],
    paths,
    components: {
      schemas: SCHEMAS,
      responses,
      parameters: {
        ServiceVersion: {
          name: 'Service-Version',
          in: 'header',
          required: false,
          schema: { type: 'string', enum: VERSIONS },
        },
        Tenant: { name: 'x-service-tenant', in: 'header', required: true, schema: { type: 'string' } },
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

export function openapiYaml(origin: string): string {
  return toYaml(openapiDocument(origin));
}

// A small YAML 1.2 emitter for the OpenAPI document (block style; strings always double-quoted JSON strings).
function scalar(v: unknown): string {
  if (typeof v === 'string') return JSON.stringify(v);
  if (v === null || v === undefined) return 'null';
  return String(v);
}

function emit(v: unknown, indent: string, out: string[]): void {
  if (Array.isArray(v)) {
    for (const item of v) {
      if (item && typeof item === 'object' && Object.keys(item).length > 0) {
        const sub: string[] = [];
        emit(item, `${indent}  `, sub);
        out.push(`${indent}- ${(sub[0] ?? '').trimStart()}`, ...sub.slice(1));
      } else out.push(`${indent}- ${inline(item)}`);
    }
    return;
  }
  for (const [k, val] of Object.entries(v as Record<string, unknown>)) {
    const key = JSON.stringify(k);
    if (val && typeof val === 'object' && Object.keys(val).length > 0) {
      out.push(`${indent}${key}:`);
      emit(val, `${indent}  `, out);
    } else out.push(`${indent}${key}: ${inline(val)}`);
  }
}

function inline(v: unknown): string {
  if (Array.isArray(v)) return '[]';
  if (v && typeof v === 'object') return '{}';
  return scalar(v);
}

export function toYaml(doc: unknown): string {
  const out: string[] = [];
  emit(doc, '', out);
  return `${out.join('\n')}\n`;
}
