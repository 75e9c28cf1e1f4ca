// The OpenAPI 3.1 document, written by hand the way a utoipa-annotated Rocket service publishes it:
// `servers` carries the base path and the paths are relative to it.
import type { Rec } from './http.ts';
import { ROUTES, type Route } from './routes.ts';
import { EVENT_NAMES } from './webhooks.ts';

const s = (type: string, extra: Rec = {}): Rec => ({ type, ...extra });
const str = (min?: number, max?: number): Rec => s('string', min ? { minLength: min, maxLength: max } : {});
const ref = (name: string): Rec => ({ $ref: `#/components/schemas/${name}` });
const obj = (properties: Rec, required = Object.keys(properties)): Rec => s('object', { properties, required });
const ENV = s('string', { enum: ['development', 'sandbox', 'pilot', 'production'] });

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
const LIMIT_HEADERS: Rec = {
  'X-RateLimit-Limit': { schema: s('integer', { minimum: 0 }), description: 'GCRA burst size' },
  'X-RateLimit-Remaining': { schema: s('integer', { minimum: 0 }), description: 'burst capacity left now' },
};

const SCHEMAS: Rec = {
  Meta: obj(
    {
      requestId: str(),
      version: str(),
      at: s('string', { format: 'date-time' }),
      idempotencyKey: str(),
      replayed: s('boolean'),
    },
    ['requestId', 'version', 'at'],
  ),
  Error: obj({
    ok: s('boolean', { const: false }),
    error: obj({ code: s('string', { enum: CODES }), message: str(), detail: str(), hint: str() }, ['code', 'message']),
    meta: ref('Meta'),
  }),
  Provider: obj({ id: str(), name: str(), category: str(), summary: str() }),
  Connector: obj({
    id: str(),
    providerId: str(),
    name: str(),
    category: str(),
    capabilities: s('array', { items: str() }),
  }),
  Capability: obj({ id: str(), label: str(), critical: s('boolean'), idempotencyRequired: s('boolean') }),
  Decision: obj({
    connectorId: str(),
    capability: str(),
    allowed: s('boolean'),
    critical: s('boolean'),
    idempotencyRequired: s('boolean'),
    reason: str(),
  }),
  Connection: obj({
    id: s('string', { format: 'uuid' }),
    connectorId: str(),
    environment: ENV,
    scopeLabel: str(),
    state: s('string', { enum: ['provisioning', 'active', 'paused', 'pending_review'] }),
    capabilities: s('array', {
      items: obj({ capability: str(), critical: s('boolean'), idempotencyRequired: s('boolean') }),
    }),
    nextStep: str(),
    createdAt: s('string', { format: 'date-time' }),
  }),
  RouteInfo: obj({ method: str(), path: str(), purpose: str(), auth: s('boolean') }),
};

const list = (name: string, item: string): Rec =>
  obj({ count: s('integer'), [name]: s('array', { items: ref(item) }) });

const DATA: Record<string, Rec> = {
  'GET /api/public/v1': obj({
    service: str(),
    surface: str(),
    version: str(),
    authentication: s('object'),
    idempotency: s('object'),
    routes: s('array', { items: ref('RouteInfo') }),
  }),
  'GET /api/public/v1/providers': list('providers', 'Provider'),
  'GET /api/public/v1/connectors': list('connectors', 'Connector'),
  'GET /api/public/v1/capabilities': list('capabilities', 'Capability'),
  'POST /api/public/v1/capabilities': obj({ decision: ref('Decision'), environment: ENV }),
  'GET /api/public/v1/connections': obj({
    tenant: str(),
    count: s('integer'),
    connections: s('array', { items: ref('Connection') }),
  }),
  'POST /api/public/v1/connections': ref('Connection'),
  'POST /api/public/v1/idempotency-keys': obj({
    idempotencyKey: str(),
    operation: str(),
    expiresAt: s('string', { format: 'date-time' }),
  }),
};

const BODIES: Record<string, Rec> = {
  Check: obj({ connectorId: str(2, 120), capability: str(2, 120), environment: ENV }, ['connectorId', 'capability']),
  NewConnection: obj({
    connectorId: str(2, 120),
    environment: ENV,
    scopeLabel: str(2, 120),
    capabilities: s('array', { minItems: 1, maxItems: 24, items: str(2, 120) }),
  }),
  NewKey: obj({ operation: str(2, 80) }),
  NewWebhook: obj({
    url: s('string', { format: 'uri' }),
    events: s('array', { minItems: 1, items: s('string', { enum: EVENT_NAMES }) }),
  }),
};

const ERRORS: Rec = Object.fromEntries(
  ['400', '401', '403', '404', '409', '428', '429', '500'].map((c) => [
    c,
    {
      description: 'failure',
      headers:
        c === '429'
          ? { ...LIMIT_HEADERS, 'Retry-After': { schema: s('integer', { minimum: 1 }), description: 'seconds' } }
          : LIMIT_HEADERS,
      content: { 'application/json': { schema: ref('Error') } },
    },
  ]),
);

function operation(r: Route): Rec {
  const data = DATA[`${r.method} ${r.path}`] ?? s('object');
  const params: Rec[] = (r.query ?? []).map((name) => ({
    name,
    in: 'query',
    required: name === 'webhookId',
    schema: ['limit', 'cursor'].includes(name)
      ? s('integer', { minimum: name === 'limit' ? 1 : 0, maximum: name === 'limit' ? 100 : undefined })
      : str(),
  }));
  for (const m of r.path.matchAll(/\{(\w+)\}/g)) params.push({ name: m[1], in: 'path', required: true, schema: str() });
  if (r.auth) params.push({ name: 'x-service-tenant', in: 'header', required: true, schema: str() });
  if (r.key) {
    const schema = { ...str(8, 128), pattern: '^[A-Za-z0-9._:-]{8,128}$' };
    params.push({ name: 'Idempotency-Key', in: 'header', required: true, schema });
  }
  if (r.path.endsWith('/stream')) {
    params.push({ name: 'cursor', in: 'query', schema: s('integer', { minimum: 0 }) });
    params.push({ name: 'Last-Event-ID', in: 'header', schema: str() });
  }
  const okBody = r.path.endsWith('/stream')
    ? { 'text/event-stream': { schema: str() } }
    : { 'application/json': { schema: obj({ ok: s('boolean', { const: true }), data, meta: ref('Meta') }) } };
  const op: Rec = {
    operationId: `${r.method.toLowerCase()}${r.path.replace(/[^A-Za-z0-9]+(.)?/g, (_m, c: string) => (c ?? '').toUpperCase())}`,
    summary: r.purpose,
    parameters: params,
    responses: {
      '200': { description: 'success', headers: LIMIT_HEADERS, content: okBody },
      ...(r.auth ? ERRORS : {}),
    },
  };
  if (r.body) op.requestBody = { required: true, content: { 'application/json': { schema: BODIES[r.body] } } };
  op.security = r.auth ? [{ oauth2: [] }] : [];
  return op;
}

export function openapi(tokenUrl: string): Rec {
  const paths: Rec = {};
  for (const r of ROUTES) {
    const rel = r.path.slice('/api/public/v1'.length) || '/';
    paths[rel] = { ...(paths[rel] ?? {}), [r.method.toLowerCase()]: operation(r) };
  }
  return {
    openapi: '3.1.0',
    info: { title: 'Redbud network connections', version: '2026-07-01' },
    servers: [{ url: '/api/public/v1' }],
    paths,
    components: {
      schemas: SCHEMAS,
      securitySchemes: { oauth2: { type: 'oauth2', flows: { clientCredentials: { tokenUrl, scopes: {} } } } },
    },
  };
}
