// The route table (self-description) and the OpenAPI 3.1 document, built in code from one list.

import { VERSION } from './http.ts';
import { DATA, obj, ref, s, schemas } from './openapi-schemas.ts';
import { WEBHOOK_EVENTS } from './state.ts';

const P = '/api/public/v1';

export const ROUTES = [
  { method: 'GET', path: P, purpose: 'self-description', auth: false },
  { method: 'GET', path: `${P}/openapi.json`, purpose: 'OpenAPI 3.1 document', auth: false },
  { method: 'GET', path: `${P}/info`, purpose: 'who is calling (tenant, client, token expiry)', auth: true },
  { method: 'GET', path: `${P}/providers`, purpose: 'list providers', auth: true },
  { method: 'GET', path: `${P}/connectors`, purpose: 'list connectors', auth: true },
  { method: 'GET', path: `${P}/capabilities`, purpose: 'capability catalog', auth: true },
  { method: 'POST', path: `${P}/capabilities`, purpose: 'check a capability of a connector', auth: true },
  { method: 'GET', path: `${P}/connections`, purpose: 'connections of the tenant', auth: true },
  { method: 'POST', path: `${P}/connections`, purpose: 'create a connection', auth: true },
  { method: 'GET', path: `${P}/connections/{id}`, purpose: 'one connection of the tenant', auth: true },
  { method: 'POST', path: `${P}/idempotency-keys`, purpose: 'generate an idempotency key', auth: true },
  { method: 'GET', path: `${P}/stream`, purpose: 'status stream (Server-Sent Events)', auth: false },
  { method: 'POST', path: `${P}/webhooks`, purpose: 'create a webhook receiver', auth: true },
  { method: 'DELETE', path: `${P}/webhooks/{id}`, purpose: 'remove a webhook receiver', auth: true },
  { method: 'GET', path: `${P}/webhooks/{id}/deliveries`, purpose: 'delivery log of a receiver', auth: true },
  {
    method: 'POST',
    path: `${P}/webhook_deliveries/{id}/redeliver`,
    purpose: 'deliver a logged delivery again',
    auth: true,
  },
  { method: 'GET', path: `${P}/audit-log`, purpose: 'audit log with a hash chain', auth: true },
  { method: 'GET', path: `${P}/webhooks`, purpose: 'webhook receivers of the tenant', auth: true },
  { method: 'GET', path: `${P}/webhooks/{id}`, purpose: 'one webhook receiver', auth: true },
  ...['2026-07-01', '2026-06-12'].flatMap((v) =>
    ['json', 'yaml'].map((ext) => ({
      method: 'GET',
      path: `${P}/openapi/${v}.${ext}`,
      purpose: `OpenAPI 3.1 description of version ${v} as a downloadable ${ext.toUpperCase()} file`,
      auth: false,
    })),
  ),
];

const KEYED = new Set([`POST ${P}/connections`, `POST ${P}/webhooks`, `DELETE ${P}/webhooks/{id}`]);
KEYED.add(`POST ${P}/webhook_deliveries/{id}/redeliver`);

const envelope = (data: unknown) => ({
  description: 'success',
  content: {
    'application/json': { schema: obj({ ok: { const: true }, data, meta: ref('Meta') }, ['ok', 'data', 'meta']) },
  },
});

const BODIES: Record<string, unknown> = {
  [`POST ${P}/capabilities`]: obj(
    { connectorId: s(2, 120), capability: s(2, 120), environment: { ...ref('Environment'), default: 'sandbox' } },
    ['connectorId', 'capability'],
  ),
  [`POST ${P}/connections`]: {
    ...obj(
      {
        connectorId: s(2, 120),
        environment: ref('Environment'),
        scopeLabel: s(2, 120),
        capabilities: { type: 'array', minItems: 1, maxItems: 24, items: s(2, 120) },
      },
      ['connectorId', 'environment', 'scopeLabel', 'capabilities'],
    ),
    additionalProperties: false,
  },
  [`POST ${P}/idempotency-keys`]: obj({ operation: s(2, 80) }, ['operation']),
  [`POST ${P}/webhooks`]: obj(
    {
      url: { type: 'string', format: 'uri' },
      events: { type: 'array', minItems: 1, items: { type: 'string', enum: [...WEBHOOK_EVENTS] } },
      description: { type: 'string' },
    },
    ['url', 'events'],
  ),
};

const rawDocument = (path: string) =>
  path.endsWith('.yaml')
    ? { 'application/yaml': { schema: { type: 'string' } } }
    : { 'application/json': { schema: { type: 'object', required: ['openapi', 'info', 'paths'] } } };

const header = (description: string, type = 'integer') => ({ description, schema: { type } });

/** The headers an answer carries: the request id always, the throttle's on authenticated calls. */
function headersOf(r: (typeof ROUTES)[number], key: string, status: string): Record<string, unknown> {
  const h: Record<string, unknown> = { 'X-Request-Id': header('equals meta.requestId', 'string') };
  if (!r.auth) return h;
  h['X-RateLimit-Limit'] = header('calls allowed in the current window (per token and tenant)');
  h['X-RateLimit-Remaining'] = header('calls left in the current window');
  if (status === '429') h['Retry-After'] = header('seconds to wait before the next call');
  if (key === `GET ${P}/audit-log` && status === '200') {
    h['X-Total-Count'] = header('entries in the whole log of the tenant');
    h.Link = header('RFC 8288 link to the next page (rel="next"), absent on the last page', 'string');
  }
  return h;
}

function operation(r: (typeof ROUTES)[number]): Record<string, unknown> {
  const key = `${r.method} ${r.path}`;
  const parameters: unknown[] = [];
  if (r.path.includes('{id}')) parameters.push({ name: 'id', in: 'path', required: true, schema: { type: 'string' } });
  if (r.auth) {
    parameters.push({ name: 'x-service-tenant', in: 'header', required: true, schema: { type: 'string' } });
  }
  if (KEYED.has(key)) {
    parameters.push({
      name: 'Idempotency-Key',
      in: 'header',
      required: true,
      schema: { type: 'string', pattern: '^[A-Za-z0-9._:-]{8,128}$' },
    });
  }
  const query = (name: string, schema: unknown) => parameters.push({ name, in: 'query', required: false, schema });
  if (key === `GET ${P}/providers`) query('category', { type: 'string' });
  if (key === `GET ${P}/connectors`)
    for (const n of ['capability', 'providerId', 'category']) query(n, { type: 'string' });
  if (key === `GET ${P}/stream`) {
    query('cursor', { type: 'integer', minimum: 0 });
    parameters.push({ name: 'Last-Event-ID', in: 'header', required: false, schema: { type: 'string' } });
  }
  if (key === `GET ${P}/audit-log`) {
    for (const n of ['limit', 'per_page'])
      query(n, { type: 'integer', minimum: 1, description: 'clamped to max_per_page' });
    query('page', { type: 'integer', minimum: 1 });
  }
  const responses: Record<string, unknown> =
    key === `GET ${P}/stream`
      ? {
          '200': {
            description: 'Server-Sent Events',
            content: { 'text/event-stream': { schema: { type: 'string' } } },
          },
        }
      : /\/openapi[./]/.test(r.path)
        ? { '200': { description: 'the OpenAPI 3.1 document itself (no envelope)', content: rawDocument(r.path) } }
        : { '200': { ...envelope(DATA[key] ?? { type: 'object' }), headers: headersOf(r, key, '200') } };
  for (const code of r.auth ? ['400', '401', '403', '404', '409', '428', '429', '500'] : ['400', '500']) {
    const schema = ref('Error');
    responses[code] = {
      description: 'failure',
      headers: headersOf(r, key, code),
      content: { 'application/json': { schema } },
    };
  }
  const op: Record<string, unknown> = {
    summary: r.purpose,
    operationId: `${r.method.toLowerCase()}${r.path}`,
    parameters,
    responses,
  };
  if (r.auth) op.security = [{ oauth2: [] }];
  const body = BODIES[key];
  if (body) op.requestBody = { required: true, content: { 'application/json': { schema: body } } };
  return op;
}

export function openapiDocument(tokenUrl: string, version = VERSION): Record<string, unknown> {
  const paths: Record<string, Record<string, unknown>> = {};
  const routes = version === VERSION ? ROUTES : ROUTES.filter((r) => !/deliver/.test(r.path));
  for (const r of routes) {
    paths[r.path] = { ...paths[r.path], [r.method.toLowerCase()]: operation(r) };
  }
  return {
    openapi: '3.1.0',
    info: { title: 'Mangrove Network Connections API', version },
    servers: [{ url: '/' }],
    paths,
    components: {
      schemas,
      securitySchemes: { oauth2: { type: 'oauth2', flows: { clientCredentials: { tokenUrl, scopes: {} } } } },
    },
  };
}
