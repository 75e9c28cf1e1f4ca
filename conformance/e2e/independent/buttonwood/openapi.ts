// The OpenAPI 3.1 document, built from the route table with the team's component schemas. Served at
// /openapi.json and as downloadable per-version files /openapi/{version}.json and .yaml.
import { ROUTES, type Route } from './openapi-paths.ts';
import { ENVIRONMENTS, type Rec, VERSION, WEBHOOK_EVENTS } from './state.ts';

const s = { type: 'string' };
const b = { type: 'boolean' };
const obj = (properties: Rec, required: string[] = Object.keys(properties)) => ({
  type: 'object',
  properties,
  required,
});
const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });

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

const SCHEMAS: Rec = {
  Environment: { type: 'string', enum: ENVIRONMENTS },
  Meta: {
    ...obj({ requestId: s, version: s, at: { type: 'string', format: 'date-time' }, idempotencyKey: s, replayed: b }, [
      'requestId',
      'version',
      'at',
    ]),
  },
  Error: obj({
    ok: { const: false },
    error: obj({ code: { type: 'string', enum: CODES }, message: s, detail: s, hint: s }, ['code', 'message']),
    meta: ref('Meta'),
  }),
  Provider: obj({ id: s, name: s, category: s, summary: s }),
  Connector: obj({ id: s, providerId: s, name: s, category: s, capabilities: { type: 'array', items: s } }),
  Capability: obj({ id: s, label: s, critical: b, idempotencyRequired: b }),
  CapabilityDecision: obj({
    connectorId: s,
    capability: s,
    allowed: b,
    critical: b,
    idempotencyRequired: b,
    reason: s,
  }),
  Connection: obj({
    id: s,
    connectorId: s,
    environment: ref('Environment'),
    scopeLabel: s,
    state: { type: 'string', enum: ['pending', 'active'] },
    capabilities: { type: 'array', items: obj({ capability: s, critical: b, idempotencyRequired: b }) },
    nextStep: s,
    createdAt: { type: 'string', format: 'date-time' },
  }),
  WebhookRegistration: obj({
    url: { type: 'string', format: 'uri' },
    events: { type: 'array', minItems: 1, items: { type: 'string', enum: WEBHOOK_EVENTS } },
  }),
  Webhook: obj(
    {
      id: s,
      url: s,
      events: { type: 'array', items: s },
      signingKey: { type: 'string', description: 'shown once, in the creation answer only' },
      createdAt: { type: 'string', format: 'date-time' },
    },
    ['id', 'url', 'events', 'createdAt'],
  ),
};

const ERRORS: Record<string, string> = {
  400: 'invalid_request',
  401: 'unauthorized',
  403: 'forbidden',
  404: 'not_found',
  409: 'conflict',
  428: 'idempotency_required',
  429: 'rate_limited',
  500: 'internal',
};
const int = { schema: { type: 'integer', minimum: 0 } };
/** The throttle directive's headers, on every answer it counted (authenticated routes). */
const LIMIT_HEADERS = {
  'X-RateLimit-Limit': { description: 'limit of the current window', ...int },
  'X-RateLimit-Remaining': { description: 'calls left in the window', ...int },
};

function operation(r: Route): Rec {
  const params: Rec[] = [];
  for (const m of r.path.matchAll(/\{(\w+)\}/g)) params.push({ name: m[1], in: 'path', required: true, schema: s });
  for (const q of r.query ?? []) {
    const numeric = ['cursor', 'limit', 'offset', 'page'].includes(q);
    params.push({
      name: q,
      in: 'query',
      required: false,
      schema: numeric ? { type: 'integer', minimum: 0 } : s,
      ...(numeric ? { example: q === 'limit' ? 20 : 1 } : {}),
    });
  }
  if (r.path === '/stream')
    params.push({ name: 'Last-Event-ID', in: 'header', required: false, schema: s, example: '42' });
  if (r.auth)
    params.push({ name: 'x-service-tenant', in: 'header', required: true, schema: s, example: 'acme-bistro' });
  if (r.key) {
    const pattern = '^[A-Za-z0-9._:-]{8,128}$';
    params.push({
      name: 'Idempotency-Key',
      in: 'header',
      required: true,
      schema: { type: 'string', pattern },
      example: 'bw:connection.create:7f1d2c3a',
    });
  }
  const data = r.data ?? { type: 'object' };
  const content =
    r.path === '/stream'
      ? { 'text/event-stream': { schema: s } }
      : {
          'application/json': {
            schema: r.path.startsWith('/openapi')
              ? { type: 'object' }
              : obj({ ok: { const: true }, data, meta: ref('Meta') }),
          },
        };
  const responses: Rec = { 200: { description: 'success', content, ...(r.auth ? { headers: LIMIT_HEADERS } : {}) } };
  if (r.path.endsWith('.yaml'))
    responses[200] = { description: 'YAML file', content: { 'application/yaml': { schema: s } } };
  for (const [code, name] of Object.entries(ERRORS)) {
    if (!r.auth && code !== '400' && code !== '404' && code !== '500') continue;
    const headers =
      code === '429' ? { ...LIMIT_HEADERS, 'Retry-After': { description: 'seconds to wait', ...int } } : undefined;
    responses[code] = {
      description: name,
      ...(headers ? { headers } : {}),
      content: { 'application/json': { schema: ref('Error') } },
    };
  }
  return {
    operationId: `${r.method.toLowerCase()}${r.path.replace(/[{}.]/g, '').replace(/[/-](\w)/g, (_, c: string) => c.toUpperCase()) || 'Root'}`,
    summary: r.purpose,
    ...(params.length ? { parameters: params } : {}),
    ...(r.body ? { requestBody: { required: true, content: { 'application/json': { schema: r.body } } } } : {}),
    responses,
    security: r.auth ? [{ oauth2: [] }] : [],
  };
}

export function openApiDocument(version: string = VERSION): Rec {
  const paths: Rec = {};
  for (const r of ROUTES) {
    const p = r.path === '' ? '/' : r.path;
    paths[p] = { ...(paths[p] ?? {}), [r.method.toLowerCase()]: operation(r) };
  }
  return {
    openapi: '3.1.0',
    info: { title: 'Network Connections Service (buttonwood)', version },
    servers: [{ url: '/api/public/v1' }],
    paths,
    components: {
      schemas: SCHEMAS,
      securitySchemes: {
        oauth2: { type: 'oauth2', flows: { clientCredentials: { tokenUrl: '/oauth2/token', scopes: {} } } },
      },
    },
  };
}
