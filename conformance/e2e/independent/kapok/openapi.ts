// The OpenAPI 3.1 document, built in code from the route table so it always lists what is served; the
// same document is offered as JSON and YAML per version (YAML written by a tiny emitter, no dependency).

import { BODY, DATA, obj, ref, schemas, str } from './openapi-schemas.ts';
import type { Route } from './router.ts';

const param = (name: string, inn: string, schema: unknown, description?: string) => ({
  name,
  in: inn,
  required: inn === 'path',
  schema,
  ...(description ? { description } : {}),
});
const PARAMS: Record<string, unknown[]> = {
  'GET /api/public/v1/providers': [param('category', 'query', str)],
  'GET /api/public/v1/connectors': [
    param('capability', 'query', str),
    param('providerId', 'query', str),
    param('category', 'query', str),
  ],
  'GET /api/public/v1/audit-log': [
    param('limit', 'query', { type: 'integer', minimum: 1, maximum: 500, default: 50 }),
    param('cursor', 'query', str, 'next_cursor of the previous page'),
  ],
  'GET /api/public/v1/webhooks/{id}/deliveries': [
    param('id', 'path', str),
    param('limit', 'query', { type: 'integer', minimum: 1, maximum: 100, default: 20 }),
    param('cursor', 'query', str, 'next_cursor of the previous page'),
  ],
  'POST /api/public/v1/deliveries/{id}/retry': [param('id', 'path', str)],
  'GET /api/public/v1/stream': [
    param('cursor', 'query', { type: 'integer', minimum: 0 }, 'last number read'),
    param('Last-Event-ID', 'header', str, 'last number read; wins over cursor'),
  ],
};

const KEY_HEADER = param('Idempotency-Key', 'header', { type: 'string', pattern: '^[A-Za-z0-9._:-]{8,128}$' });
const TENANT = { ...param('x-service-tenant', 'header', str), required: true };
const int = { schema: { type: 'integer', minimum: 0 } };
const RATE = {
  'X-RateLimit-Limit': { description: 'calls allowed in the current window', ...int },
  'X-RateLimit-Remaining': { description: 'calls left in the current window', ...int },
};
const ERR = { description: 'failure envelope', content: { 'application/json': { schema: ref('Error') } } };

function operation(r: Route) {
  const id = `${r.method} ${r.path}`;
  const parameters = [...(PARAMS[id] ?? [])];
  if (r.auth) parameters.push(TENANT);
  if (r.key !== 'none') parameters.push({ ...KEY_HEADER, required: r.key === 'required' });
  const ok = r.path.endsWith('/stream')
    ? { description: 'Server-Sent Events', content: { 'text/event-stream': { schema: str } } }
    : r.path.includes('openapi')
      ? { description: 'OpenAPI 3.1 document', content: { 'application/json': { schema: { type: 'object' } } } }
      : {
          description: 'success envelope',
          content: {
            'application/json': {
              schema: obj({ ok: { const: true }, data: DATA[id] ?? { type: 'object' }, meta: ref('Meta') }),
            },
          },
        };
  const responses: Record<string, unknown> = { '200': ok };
  const codes = r.auth ? ['400', '401', '403', '404', '409', '428', '429', '500'] : ['400', '404', '500'];
  for (const c of codes) responses[c] = r.auth ? { ...ERR, headers: RATE } : ERR;
  if (r.auth) {
    responses['200'] = { ...ok, headers: RATE };
    responses['429'] = {
      ...ERR,
      headers: { ...RATE, 'Retry-After': { description: 'wait in seconds', schema: { type: 'integer', minimum: 1 } } },
    };
  }
  const body = BODY[id];
  return {
    operationId: id.replace(/[^A-Za-z0-9]+/g, '_'),
    summary: r.purpose,
    ...(r.auth ? {} : { security: [] }),
    parameters,
    ...(body ? { requestBody: { required: true, content: { 'application/json': { schema: body } } } } : {}),
    responses,
  };
}

export function openapi(routes: Route[], tokenUrl: string) {
  const paths: Record<string, Record<string, unknown>> = {};
  for (const r of routes) {
    paths[r.path] ??= {};
    (paths[r.path] as Record<string, unknown>)[r.method.toLowerCase()] = operation(r);
  }
  return {
    openapi: '3.1.0',
    info: { title: 'Network Connections Service (kapok)', version: '2026-07-01' },
    servers: [{ url: '/' }],
    security: [{ oauth2: [] }],
    paths,
    components: {
      schemas,
      securitySchemes: { oauth2: { type: 'oauth2', flows: { clientCredentials: { tokenUrl, scopes: {} } } } },
    },
  };
}

/** YAML 1.2 block style; every scalar string is double-quoted JSON, which YAML reads unchanged. */
export function toYaml(v: unknown, indent = ''): string {
  if (Array.isArray(v)) {
    if (!v.length) return ' []';
    return v.map((x) => `\n${indent}-${block(x, `${indent}  `)}`).join('');
  }
  if (v && typeof v === 'object') {
    const entries = Object.entries(v);
    if (!entries.length) return ' {}';
    return entries.map(([k, x]) => `\n${indent}${JSON.stringify(k)}:${block(x, `${indent}  `)}`).join('');
  }
  return ` ${JSON.stringify(v)}`;
}
const block = (x: unknown, indent: string) => toYaml(x, indent);
