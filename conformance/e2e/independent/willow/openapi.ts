// The OpenAPI 3.1 document, built from the router's own table (so it lists exactly what is served), and a
// small YAML writer for the downloadable .yaml files (every string double-quoted: no YAML type surprises).

import type { Route } from './http-kit.ts';
import { BASE } from './http-kit.ts';
import { TOKEN_PATH } from './oauth.ts';
import { BODIES, DATA, SCHEMAS } from './openapi-schemas.ts';
import { DELIVERY_HEADER, EVENT_NAMES, SIGNATURE_HEADER } from './webhook-queue.ts';

const ERRORS: Record<string, { codes: string[]; text: string }> = {
  '400': { codes: ['invalid_request'], text: 'request incomplete or unsuitable' },
  '401': { codes: ['unauthorized'], text: 'not signed in' },
  '403': { codes: ['forbidden'], text: 'access may not perform the action' },
  '404': { codes: ['not_found'], text: 'the entry does not exist' },
  '409': { codes: ['capability_denied', 'idempotency_conflict'], text: 'conflict' },
  '428': { codes: ['idempotency_required'], text: 'Idempotency-Key missing' },
  '429': { codes: ['rate_limited'], text: 'too many calls; see Retry-After' },
  '500': { codes: ['internal'], text: 'fault on the service side' },
};

function errorResponse(status: string) {
  const e = ERRORS[status] ?? { codes: ['internal'], text: 'error' };
  return {
    description: e.text,
    content: {
      'application/json': {
        schema: {
          allOf: [
            { $ref: '#/components/schemas/Failure' },
            { properties: { error: { properties: { code: { type: 'string', enum: e.codes } } } } },
          ],
        },
      },
    },
  };
}

const header = (name: string, description: string, required = false, schema: unknown = { type: 'string' }) => ({
  name,
  in: 'header',
  required,
  description,
  schema,
});

function operation(r: Route, version: string) {
  const key = `${r.method} ${r.path}`;
  const params: unknown[] = [
    header('Service-Version', `interface version, default ${version}`, false, { type: 'string', examples: [version] }),
  ];
  for (const m of r.path.matchAll(/:(\w+)/g))
    params.push({ name: m[1], in: 'path', required: true, schema: { type: 'string' } });
  if (r.auth) params.push(header('x-service-tenant', 'tenant the call applies to', true));
  if (r.key !== 'none') {
    params.push(
      header('Idempotency-Key', 'key against double effects', r.key === 'required', {
        type: 'string',
        pattern: '^[A-Za-z0-9._:-]{8,128}$',
      }),
    );
  }
  if (key === 'GET /providers') params.push({ name: 'category', in: 'query', schema: { type: 'string' } });
  if (key === 'GET /connectors')
    for (const n of ['capability', 'providerId', 'category'])
      params.push({ name: n, in: 'query', schema: { type: 'string' } });
  if (key === 'GET /audit-log' || key.endsWith('/delivery-log') || key === 'GET /webhook-deliveries')
    params.push({ name: 'limit', in: 'query', schema: { type: 'integer', minimum: 1, maximum: 500 } });
  if (key === 'GET /webhook-deliveries')
    params.push({ name: 'webhookId', in: 'query', required: true, schema: { type: 'string' } });
  if (key === 'GET /audit-log') params.push({ name: 'cursor', in: 'query', schema: { type: 'string' } });
  if (key === 'GET /stream') {
    params.push({
      name: 'cursor',
      in: 'query',
      schema: { type: 'integer', minimum: 0 },
      description: 'last number read',
    });
    params.push(header('Last-Event-ID', 'last number read (wins over cursor)'));
    params.push(header('x-service-tenant', 'the tenant whose stream to read; without it the public stream'));
  }
  const responses: Record<string, unknown> = {};
  if (key === 'GET /openapi.json')
    responses['200'] = {
      description: 'this document',
      content: { 'application/json': { schema: { type: 'object' } } },
    };
  else if (key === 'GET /stream')
    responses['200'] = {
      description: 'status messages',
      content: { 'text/event-stream': { schema: { type: 'string' } } },
    };
  else {
    const envelope = {
      type: 'object',
      required: ['ok', 'data', 'meta'],
      properties: {
        ok: { type: 'boolean', const: true },
        data: DATA[key] ?? { type: 'object' },
        meta: { $ref: '#/components/schemas/Meta' },
      },
    };
    responses['200'] = { description: 'success', content: { 'application/json': { schema: envelope } } };
  }
  const statuses = r.auth
    ? ['400', '401', '403', '404', '409', '428', '429', '500']
    : key === 'GET /stream'
      ? ['400', '500']
      : ['500'];
  for (const st of statuses) responses[st] = errorResponse(st);
  const op: Record<string, unknown> = {
    operationId: `${r.method.toLowerCase()}${r.path.replace(/[/:-](\w)/g, (_m, c: string) => c.toUpperCase()) || 'Root'}`,
    summary: r.purpose,
    parameters: params,
    responses,
  };
  if (r.auth) op.security = [{ oauth2: [] }];
  else op.security = [];
  const body = BODIES[key];
  if (body !== undefined) op.requestBody = { required: true, content: { 'application/json': { schema: body } } };
  if (r.since !== undefined) op['x-since-version'] = r.since;
  return op;
}

/** The published hosts a team writes into its document (not the address it is read from). */
const PUBLISHED_SERVERS = [
  { url: 'https://sandbox.api.willow.example/api/public/v1', description: 'sandbox' },
  { url: 'https://api.willow.example/api/public/v1', description: 'production' },
];

export function buildOpenApi(routes: Route[], version: string, published = false): Record<string, unknown> {
  const paths: Record<string, Record<string, unknown>> = {};
  for (const r of routes) {
    if (r.since !== undefined && version < r.since) continue;
    const p = r.path === '' ? '/' : r.path.replace(/:(\w+)/g, '{$1}');
    paths[p] ??= {};
    const entry = paths[p];
    if (entry !== undefined) entry[r.method.toLowerCase()] = operation(r, version);
  }
  const delivery = {
    post: {
      summary: 'a signed delivery to the registered url',
      parameters: [
        header(SIGNATURE_HEADER, 't=<unix seconds>,v1=<hex HMAC-SHA256 of "<t>.<raw body>">', true),
        header(DELIVERY_HEADER, 'delivery id in the delivery log', true),
      ],
      requestBody: {
        content: {
          'application/json': {
            schema: {
              type: 'object',
              properties: { id: { type: 'string' }, type: { type: 'string', enum: EVENT_NAMES } },
            },
          },
        },
      },
      responses: { '200': { description: 'any 2xx acknowledges' } },
    },
  };
  return {
    openapi: '3.1.0',
    info: {
      title: 'Network Connections Service (willow)',
      version,
      description: 'Public interface, served by willow.',
    },
    servers: published ? PUBLISHED_SERVERS : [{ url: BASE }],
    paths,
    webhooks: Object.fromEntries(EVENT_NAMES.map((e) => [e, delivery])),
    components: {
      schemas: SCHEMAS,
      securitySchemes: {
        oauth2: { type: 'oauth2', flows: { clientCredentials: { tokenUrl: TOKEN_PATH, scopes: {} } } },
      },
    },
  };
}

export function toYaml(value: unknown, indent = ''): string {
  if (Array.isArray(value)) {
    if (value.length === 0) return '[]';
    return value.map((v) => `\n${indent}- ${toYaml(v, `${indent}  `).replace(/^\n\s*/, '')}`).join('');
  }
  if (value !== null && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>);
    if (entries.length === 0) return '{}';
    return entries.map(([k, v]) => `\n${indent}${JSON.stringify(k)}: ${toYaml(v, `${indent}  `)}`).join('');
  }
  return JSON.stringify(value);
}
