// guava's OpenAPI 3.1 document, built from the same route table the dispatcher runs (the plugin's
// `openapi` spec drives the routes), with paths relative to the `servers` base path as Mojo's
// `basePath` habit writes them. Also offered per version as JSON and YAML downloads.
import { dataSchemas } from './openapi-data.ts';
import { bodies, KEY_PATTERN, models } from './openapi-schemas.ts';
import type { RouteDef } from './self-description.ts';
import { PREFIX, type Rec, VERSIONS } from './state.ts';

const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });

const FAILURE = { 'application/json': { schema: ref('Failure') } };
const header = (description: string) => ({ description, schema: { type: 'integer', minimum: 0 } });
const LIMIT_HEADERS = {
  'X-RateLimit-Limit': header('calls allowed in the window'),
  'X-RateLimit-Remaining': header('calls left in the window'),
};

function operation(r: RouteDef, version: string): Rec {
  const parameters: Rec[] = [];
  for (const m of r.path.matchAll(/\{(\w+)\}/g)) {
    parameters.push({
      name: m[1],
      in: 'path',
      required: true,
      schema: { type: m[1] === 'connectionId' ? 'string' : 'integer' },
    });
  }
  for (const q of r.query ?? []) parameters.push({ name: q.name, in: 'query', required: false, schema: q.schema });
  if (r.auth) {
    parameters.push({ name: 'x-service-tenant', in: 'header', required: true, schema: { type: 'string' } });
  }
  if (r.stream)
    parameters.push({
      name: 'Last-Event-ID',
      in: 'header',
      required: false,
      schema: { type: 'string', pattern: '^[0-9]+$' },
    });
  if (r.key)
    parameters.push({
      name: 'Idempotency-Key',
      in: 'header',
      required: true,
      schema: { type: 'string', pattern: KEY_PATTERN },
    });
  parameters.push({
    name: 'Service-Version',
    in: 'header',
    required: false,
    schema: { type: 'string', enum: VERSIONS, default: version },
  });
  const op: Rec = {
    operationId: r.opId,
    summary: r.purpose,
    parameters,
    responses: {
      200: r.stream
        ? { description: 'event stream', content: { 'text/event-stream': { schema: { type: 'string' } } } }
        : {
            description: 'success envelope',
            content: {
              'application/json': {
                schema: {
                  type: 'object',
                  required: ['ok', 'data', 'meta'],
                  properties: {
                    ok: { const: true },
                    data: r.data ? ref(r.data) : { type: 'object' },
                    meta: ref('Meta'),
                  },
                },
              },
            },
          },
      default: { description: 'failure envelope', content: FAILURE },
    },
  };
  if (r.auth) {
    // Counted calls carry the window's headers; a 429 adds the wait (Mojolicious::Plugin::OpenAPI documents them).
    op.responses[200].headers = LIMIT_HEADERS;
    op.responses[429] = {
      description: 'rate_limited',
      headers: { ...LIMIT_HEADERS, 'Retry-After': header('seconds to wait') },
      content: FAILURE,
    };
  }
  if (r.body) op.requestBody = { required: true, content: { 'application/json': { schema: ref(r.body) } } };
  op.security = r.auth ? [{ oauth2: ['connections'] }] : [];
  return op;
}

export function openapiDocument(routes: RouteDef[], version: string, origin: string): Rec {
  const paths: Rec = {};
  for (const r of routes) {
    const rel = r.path.slice(PREFIX.length) || '/';
    paths[rel] ??= {};
    paths[rel][r.method.toLowerCase()] = operation(r, version);
  }
  return {
    openapi: '3.1.0',
    info: { title: 'Network Connections Service (guava)', version },
    servers: [{ url: PREFIX }],
    paths,
    components: {
      schemas: { ...models, ...dataSchemas, ...bodies },
      securitySchemes: {
        oauth2: {
          type: 'oauth2',
          flows: {
            clientCredentials: {
              tokenUrl: `${origin}/oauth/access_token`,
              scopes: { connections: 'connections', webhooks: 'webhooks', audit: 'audit log' },
            },
          },
        },
      },
    },
  };
}

function scalar(v: unknown): string {
  if (typeof v === 'string') return JSON.stringify(v);
  return String(v);
}

/** A small YAML emitter (block style, strings double-quoted) for the per-version .yaml download. */
export function toYaml(value: unknown, indent = ''): string {
  if (Array.isArray(value)) {
    if (value.length === 0) return ' []';
    return value.map((v) => `\n${indent}-${toYaml(v, `${indent}  `).replace(/^\n\s*/, ' ')}`).join('');
  }
  if (value && typeof value === 'object') {
    const entries = Object.entries(value);
    if (entries.length === 0) return ' {}';
    return entries.map(([k, v]) => `\n${indent}${JSON.stringify(k)}:${toYaml(v, `${indent}  `)}`).join('');
  }
  return ` ${scalar(value)}`;
}
