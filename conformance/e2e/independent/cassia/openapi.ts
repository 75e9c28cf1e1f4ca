// The route table (Pedestal's `routes` set, printed for the self-description) and the OpenAPI 3.1 document
// written from it, served as JSON and as per-version JSON and YAML files.
import { BODIES, DATA, obj, QUERY, s } from './openapi-schemas.ts';
import { type Rec, VERSION } from './state.ts';

export const P = '/api/public/v1';
export const ROUTES: [string, string, string, boolean][] = [
  ['GET', P, 'self-description', false],
  ['GET', `${P}/openapi.json`, 'OpenAPI 3.1 document', false],
  ['GET', `${P}/openapi/{version}.json`, 'OpenAPI document of a version (JSON file)', false],
  ['GET', `${P}/openapi/{version}.yaml`, 'OpenAPI document of a version (YAML file)', false],
  ['GET', `${P}/info`, 'who is calling: client, tenant, environment', true],
  ['GET', `${P}/providers`, 'list providers', true],
  ['GET', `${P}/connectors`, 'list connectors', true],
  ['GET', `${P}/capabilities`, 'capability catalog', true],
  ['POST', `${P}/capabilities`, 'check a capability of a connector', true],
  ['GET', `${P}/connections`, 'connections of the tenant', true],
  ['POST', `${P}/connections`, 'create a connection', true],
  ['POST', `${P}/idempotency-keys`, 'generate an idempotency key', true],
  ['GET', `${P}/stream`, 'status stream (Server-Sent Events)', false],
  ['GET', `${P}/webhooks`, 'list webhook receivers', true],
  ['POST', `${P}/webhooks`, 'create a webhook receiver', true],
  ['DELETE', `${P}/webhooks/{webhookId}`, 'remove a webhook receiver', true],
  ['GET', `${P}/webhooks/{webhookId}/delivery-attempts`, 'delivery log of a receiver', true],
  ['POST', `${P}/webhooks/{webhookId}/delivery-attempts/{attemptId}/retry`, 'deliver again', true],
  ['GET', `${P}/audit-log`, 'audit log with a signed hash chain', true],
];

const MODIFYING = new Set([
  'POST /connections',
  'POST /webhooks',
  'DELETE /webhooks/{webhookId}',
  'POST /webhooks/{webhookId}/delivery-attempts/{attemptId}/retry',
]);
const META = obj(
  { requestId: s(), version: s(), at: s({ format: 'date-time' }), idempotencyKey: s(), replayed: { type: 'boolean' } },
  ['requestId', 'version', 'at'],
);
const CODES = [
  'unauthorized',
  'forbidden',
  'not_found',
  'invalid_request',
  'capability_denied',
  'idempotency_conflict',
  'idempotency_required',
  'rate_limited',
  'internal',
];
const int = (description: string) => ({ description, schema: { type: 'integer', minimum: 0 } });
/** The token bucket's headers, on every authenticated answer; Retry-After on a 429 only. */
const LIMIT_HEADERS = {
  'X-RateLimit-Limit': int('bucket capacity for this access, tenant and environment'),
  'X-RateLimit-Remaining': int('calls left in the bucket'),
};
const ERROR = obj(
  {
    ok: { const: false },
    error: obj({ code: s({ enum: CODES }), message: s(), detail: s(), hint: s() }, ['code', 'message']),
    meta: META,
  },
  ['ok', 'error', 'meta'],
);
const success = (data: Rec = { type: 'object' }) => obj({ ok: { const: true }, data, meta: META });

/** The document; `versionRequired` marks Service-Version mandatory where the deployment requires it. */
export function openapi(versionRequired = false): Rec {
  const paths: Rec = {};
  for (const [method, path, purpose, auth] of ROUTES) {
    const rel = path.slice(P.length) || '/';
    const key = `${method} ${rel}`;
    const params: Rec[] = [...path.matchAll(/\{(\w+)\}/g)].map((m) => ({
      name: m[1],
      in: 'path',
      required: true,
      schema: s(),
    }));
    if (auth) params.push({ name: 'x-service-tenant', in: 'header', required: true, schema: s() });
    if (MODIFYING.has(key))
      params.push({
        name: 'Idempotency-Key',
        in: 'header',
        required: true,
        schema: s({ pattern: '^[A-Za-z0-9._:-]{8,128}$' }),
      });
    for (const [name, schema] of QUERY[key] ?? []) params.push({ name, in: 'query', required: false, schema });
    if (rel === '/stream') params.push({ name: 'Last-Event-ID', in: 'header', required: false, schema: s() });
    params.push({
      name: 'Service-Version',
      in: 'header',
      required: versionRequired && auth,
      schema: s({ enum: ['2026-06-12', '2026-07-01'] }),
    });
    const ok =
      rel === '/stream'
        ? { 'text/event-stream': { schema: s() } }
        : rel.endsWith('.yaml')
          ? { 'application/yaml': { schema: s() } }
          : { 'application/json': { schema: rel.startsWith('/openapi') ? { type: 'object' } : success(DATA[key]) } };
    const op: Rec = {
      operationId: `${method.toLowerCase()}${rel.replace(/[^A-Za-z0-9]+(.)?/g, (_m, c: string | undefined) => (c ?? '').toUpperCase())}`,
      summary: purpose,
      parameters: params,
      responses: { '200': { description: purpose, content: ok, ...(auth ? { headers: LIMIT_HEADERS } : {}) } },
    };
    if (auth) {
      op.security = [{ oauth2: [] }];
      for (const code of ['400', '401', '403', '404', '409', '428', '429', '500'])
        op.responses[code] = {
          description: 'failure',
          headers: code === '429' ? { ...LIMIT_HEADERS, 'Retry-After': int('seconds to wait') } : LIMIT_HEADERS,
          content: { 'application/json': { schema: ERROR } },
        };
    } else op.security = [];
    if (BODIES[key]) op.requestBody = { required: true, content: { 'application/json': { schema: BODIES[key] } } };
    paths[path] = { ...(paths[path] ?? {}), [method.toLowerCase()]: op };
  }
  return {
    openapi: '3.1.0',
    info: { title: 'Network Connections Service (cassia)', version: VERSION },
    servers: [{ url: '/' }],
    paths,
    components: {
      securitySchemes: {
        oauth2: { type: 'oauth2', flows: { clientCredentials: { tokenUrl: '/auth/oauth2/token', scopes: {} } } },
      },
    },
  };
}

/** A small YAML writer (clj-yaml in the original): block style, every string quoted as JSON. */
export function toYaml(v: unknown, indent = ''): string {
  if (Array.isArray(v))
    return v.length === 0
      ? ' []'
      : v.map((x) => `\n${indent}-${toYaml(x, `${indent}  `).replace(/^\n\s*/, ' ')}`).join('');
  if (v && typeof v === 'object') {
    const keys = Object.keys(v as Rec);
    if (keys.length === 0) return ' {}';
    return keys.map((k) => `\n${indent}${JSON.stringify(k)}:${toYaml((v as Rec)[k], `${indent}  `)}`).join('');
  }
  return ` ${JSON.stringify(v)}`;
}
