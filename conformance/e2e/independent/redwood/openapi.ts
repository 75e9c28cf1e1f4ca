// The OpenAPI 3.1 document built from the route table, also offered as YAML. Paths are absolute (servers:
// the origin called), so the same document serves both base addresses.
import { CURRENT_VERSION } from './http-util.ts';
import { SCHEMAS } from './openapi-schemas.ts';
import { obj, ROUTES, type Route, ref, type Schema, s } from './route-table.ts';
import { EVENT_TYPES, SIGNATURE_HEADER } from './webhooks.ts';

const P = '/api/public/v1';

function operation(r: Route): Schema {
  const params: Schema[] = [];
  for (const m of r.path.matchAll(/\{(\w+)\}/g))
    params.push({ name: m[1], in: 'path', required: true, schema: s('string') });
  for (const [name, schema] of Object.entries(r.query ?? {}))
    params.push({ name, in: 'query', required: name === 'webhook', schema });
  if (r.path.endsWith('/stream')) params.push({ name: 'Last-Event-ID', in: 'header', schema: s('string') });
  if (r.auth) params.push({ name: 'x-service-tenant', in: 'header', required: true, schema: s('string') });
  if (r.key)
    params.push({
      name: 'Idempotency-Key',
      in: 'header',
      required: r.key === 'required',
      schema: s('string', { pattern: '^[A-Za-z0-9._:-]{8,128}$' }),
    });
  params.push({
    name: 'Service-Version',
    in: 'header',
    required: false,
    schema: s('string', { enum: ['2026-06-12', '2026-07-01'] }),
  });
  const success = obj({ ok: s('boolean', { const: true }), data: r.data, meta: ref('Meta') });
  const content = r.path.endsWith('/stream')
    ? { 'text/event-stream': { schema: s('string') } }
    : { 'application/json': { schema: success } };
  const failure = { description: 'failure envelope', content: { 'application/json': { schema: ref('Failure') } } };
  const statuses = r.auth ? ['400', '401', '403', '404', '409', '428', '429', '500'] : ['400', '500'];
  const op: Schema = {
    operationId:
      `${r.method.toLowerCase()}${r.path.replace(P, '').replace(/[^A-Za-z0-9]+(\w)?/g, (_m, c: string | undefined) => (c ? c.toUpperCase() : ''))}` ||
      'getService',
    summary: r.purpose,
    parameters: params,
    security: r.auth ? [{ oauth2: [] }] : [],
    responses: {
      '200': { description: 'success envelope', content },
      ...Object.fromEntries(statuses.map((c) => [c, failure])),
    },
  };
  if (r.body) op.requestBody = { required: true, content: { 'application/json': { schema: r.body } } };
  return op;
}

export function openapiDocument(origin: string): Schema {
  const paths: Record<string, Record<string, Schema>> = {};
  for (const r of ROUTES) {
    const item = paths[r.path] ?? {};
    item[r.method.toLowerCase()] = operation(r);
    paths[r.path] = item;
  }
  return {
    openapi: '3.1.0',
    info: {
      title: 'Network Connections Service',
      version: CURRENT_VERSION,
      description: `Webhook deliveries are CloudEvents signed in ${SIGNATURE_HEADER}.`,
    },
    servers: [{ url: origin }],
    paths,
    components: {
      schemas: SCHEMAS,
      securitySchemes: {
        oauth2: {
          type: 'oauth2',
          flows: {
            clientCredentials: {
              tokenUrl: `${origin}/auth/v1/token`,
              scopes: { connections: 'connections', webhooks: 'webhooks', audit: 'audit log' },
            },
          },
        },
      },
    },
    webhooks: {
      connectionEvent: {
        post: {
          summary: `events: ${EVENT_TYPES.join(', ')}`,
          requestBody: { content: { 'application/cloudevents+json': { schema: s('object') } } },
          responses: { '204': { description: 'received' } },
        },
      },
    },
  };
}

/** YAML of a JSON value: block style, every string double-quoted (JSON strings are valid YAML). */
export function toYaml(v: unknown, indent = ''): string {
  if (Array.isArray(v))
    return v.length === 0
      ? ' []'
      : v.map((x) => `\n${indent}-${toYaml(x, `${indent}  `).replace(/^\n\s*/, ' ')}`).join('');
  if (v && typeof v === 'object') {
    const e = Object.entries(v);
    return e.length === 0
      ? ' {}'
      : e.map(([k, x]) => `\n${indent}${JSON.stringify(k)}:${toYaml(x, `${indent}  `)}`).join('');
  }
  return ` ${JSON.stringify(v)}`;
}
