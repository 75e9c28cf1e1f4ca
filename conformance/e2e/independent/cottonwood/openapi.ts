// The OpenAPI 3.1 document, generated from the route table and its schemas the way @elysiajs/swagger
// walks Elysia's routes; one document per published version.

import { TOKEN_PATH } from './auth.ts';
import { CURRENT_VERSION, type Rec } from './http.ts';
import { KEY_PATTERN } from './idempotency.ts';
import { components, dataSchemas } from './openapi-schemas.ts';
import { ROUTES, type Route } from './route-table.ts';
import { t } from './validate.ts';

const FAILURES: Record<string, string> = {
  '400': 'invalid_request',
  '401': 'unauthorized',
  '403': 'forbidden',
  '404': 'not_found',
  '409': 'idempotency_conflict or capability_denied',
  '428': 'idempotency_required',
  '429': 'rate_limited',
  '500': 'internal',
};

const LIMIT_HEADERS: Rec = {
  'X-RateLimit-Limit': { description: 'calls allowed in the current window', schema: t.Integer({ minimum: 0 }) },
  'X-RateLimit-Remaining': { description: 'calls left in the current window', schema: t.Integer({ minimum: 0 }) },
};

const failure = (status: string, code: string) => ({
  description: code,
  headers:
    status === '429'
      ? { ...LIMIT_HEADERS, 'Retry-After': { description: 'seconds to wait', schema: t.Integer({ minimum: 1 }) } }
      : LIMIT_HEADERS,
  content: { 'application/json': { schema: { $ref: '#/components/schemas/Failure' } } },
});

function success(r: Route): Rec {
  if (r.raw === 'text/event-stream') {
    return {
      description: 'numbered status messages (id: <seq>)',
      content: { 'text/event-stream': { schema: t.String() } },
    };
  }
  if (r.raw) return { description: 'the document', content: { [r.raw]: { schema: { type: 'object' } } } };
  const envelope = t.Object({
    ok: { type: 'boolean', const: true },
    data: dataSchemas[r.operationId] ?? { type: 'object' },
    meta: { $ref: '#/components/schemas/Meta' },
  });
  return { description: 'success', headers: LIMIT_HEADERS, content: { 'application/json': { schema: envelope } } };
}

function operation(r: Route): Rec {
  const parameters: Rec[] = [
    { name: 'Service-Version', in: 'header', required: false, schema: t.Enum(['2026-07-01', '2026-06-12']) },
  ];
  for (const m of r.path.matchAll(/\{(\w+)\}/g))
    parameters.push({ name: m[1], in: 'path', required: true, schema: t.String() });
  for (const [name, schema] of Object.entries(r.query ?? {}))
    parameters.push({ name, in: 'query', required: false, schema });
  if (r.operationId === 'stream')
    parameters.push({ name: 'Last-Event-ID', in: 'header', required: false, schema: t.String() });
  if (r.auth)
    parameters.push({
      name: 'x-service-tenant',
      in: 'header',
      required: r.operationId !== 'info',
      schema: t.String(),
      example: 'tnt_harbor-bistro',
    });
  if (r.key)
    parameters.push({
      name: 'Idempotency-Key',
      in: 'header',
      required: true,
      schema: t.String({ pattern: KEY_PATTERN }),
    });
  const codes = r.auth ? Object.keys(FAILURES) : ['400', '429', '500'];
  const op: Rec = {
    operationId: r.operationId,
    summary: r.purpose,
    tags: [r.path.split('/')[4] ?? 'service'],
    parameters,
    responses: Object.fromEntries([['200', success(r)], ...codes.map((c) => [c, failure(c, FAILURES[c] ?? c)])]),
    security: r.auth ? [{ clientCredentials: [] }] : [],
  };
  if (r.body) op.requestBody = { required: true, content: { 'application/json': { schema: r.body } } };
  return op;
}

/** The document of `version`: 2026-06-12 lacks what 2026-07-01 added (the delivery log). */
export function openapiDocument(version = CURRENT_VERSION): Rec {
  const paths: Rec = {};
  for (const r of ROUTES) {
    if (r.since && r.since > version) continue;
    paths[r.path] = { ...(paths[r.path] ?? {}), [r.method.toLowerCase()]: operation(r) };
  }
  return {
    openapi: '3.1.0',
    info: {
      title: 'Network Connections Service (cottonwood sandbox)',
      version,
      description: 'Generated from the route schemas.',
    },
    paths,
    components: {
      schemas: components,
      securitySchemes: {
        clientCredentials: {
          type: 'oauth2',
          flows: { clientCredentials: { tokenUrl: TOKEN_PATH, scopes: { 'ncs:read': 'read', 'ncs:write': 'modify' } } },
        },
      },
    },
  };
}
