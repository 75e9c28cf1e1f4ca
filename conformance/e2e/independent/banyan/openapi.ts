// banyan's OpenAPI 3.1 document, built from the same route table the server dispatches on, so the two cannot
// drift; schemas written by hand from the contract's resource tables. Paths are relative to servers[0].
import { ENVIRONMENTS } from './catalog.ts';
import type { Route } from './state.ts';
import { API, CURRENT_VERSION, ERROR_STATUS, PUBLISHED_VERSIONS } from './util.ts';
import { WEBHOOK_EVENTS } from './webhooks.ts';

const str = { type: 'string' };
const bool = { type: 'boolean' };
const int = { type: 'integer', minimum: 0 };
const time = { type: 'string', format: 'date-time' };
const ref = (n: string) => ({ $ref: `#/components/schemas/${n}` });
const obj = (props: Record<string, unknown>, required = Object.keys(props), extra = true) => ({
  type: 'object',
  required,
  properties: props,
  ...(extra ? {} : { additionalProperties: false }),
});
const list = (name: string, item: unknown) => obj({ count: int, [name]: { type: 'array', items: item } });
const len = (min: number, max: number) => ({ type: 'string', minLength: min, maxLength: max });
const KEY_PATTERN = '^[A-Za-z0-9._:-]{8,128}$';

const schemas = {
  Environment: { type: 'string', enum: ENVIRONMENTS },
  Meta: obj({ requestId: str, version: str, at: time, idempotencyKey: str, replayed: bool }, [
    'requestId',
    'version',
    'at',
  ]),
  Failure: obj({
    ok: { const: false },
    error: obj({ code: { type: 'string', enum: Object.keys(ERROR_STATUS) }, message: str, detail: str, hint: str }, [
      'code',
      'message',
    ]),
    meta: ref('Meta'),
  }),
  Provider: obj({ id: str, name: str, category: str, summary: str }),
  Connector: obj({ id: str, providerId: str, name: str, category: str, capabilities: { type: 'array', items: str } }),
  Capability: obj({ id: str, label: str, critical: bool, idempotencyRequired: bool }),
  CapabilityDecision: obj({
    connectorId: str,
    capability: str,
    allowed: bool,
    critical: bool,
    idempotencyRequired: bool,
    reason: str,
  }),
  Connection: obj({
    id: { type: 'string', format: 'uuid' },
    connectorId: str,
    environment: ref('Environment'),
    scopeLabel: str,
    state: { type: 'string', examples: ['requested', 'provisioned'] },
    capabilities: { type: 'array', items: obj({ capability: str, critical: bool, idempotencyRequired: bool }) },
    nextStep: str,
    createdAt: time,
  }),
  RouteInfo: obj({ method: str, path: str, purpose: str, auth: bool }),
  IdempotencyKeyResult: obj({ idempotencyKey: str, operation: str, expiresAt: time }),
  AuditEntry: obj({
    sequence: { type: 'integer', minimum: 1 },
    position: { type: 'integer', minimum: 1 },
    eventId: str,
    kind: str,
    tenant: str,
    connectionId: str,
    occurredAt: time,
    change: { type: 'object' },
    previousHash: { type: 'string', pattern: '^[0-9a-f]{64}$' },
    hash: { type: 'string', pattern: '^[0-9a-f]{64}$' },
  }),
};

/** The `data` schema each operation answers with. */
const DATA: Record<string, unknown> = {
  'GET /': obj({
    service: str,
    surface: str,
    version: str,
    authentication: { type: 'object' },
    idempotency: { type: 'object' },
    routes: { type: 'array', items: ref('RouteInfo') },
  }),
  'GET /providers': list('providers', ref('Provider')),
  'GET /connectors': list('connectors', ref('Connector')),
  'GET /capabilities': list('capabilities', ref('Capability')),
  'POST /capabilities': obj({ decision: ref('CapabilityDecision'), environment: ref('Environment') }),
  'GET /connections': obj({ tenant: str, count: int, connections: { type: 'array', items: ref('Connection') } }),
  'POST /connections': ref('Connection'),
  'POST /idempotency-keys': ref('IdempotencyKeyResult'),
  'GET /audit-log': obj(
    {
      tenant: str,
      count: int,
      entries: { type: 'array', items: ref('AuditEntry') },
      head: obj({ sequence: int, hash: str }),
      proof: { type: 'object' },
      next: { type: ['string', 'null'], description: 'path of the next (older) page; also in the Link header' },
    },
    ['tenant', 'count', 'entries', 'head', 'proof'],
  ),
  'POST /webhooks': obj(
    {
      webhook: obj({ id: str, url: str, events: { type: 'array', items: str }, createdAt: time }),
      signingKey: { type: 'string', description: 'HMAC-SHA256 key; shown in this answer only' },
    },
    ['webhook', 'signingKey'],
  ),
};

const BODY: Record<string, unknown> = {
  'POST /capabilities': obj(
    { connectorId: len(2, 120), capability: len(2, 120), environment: { ...ref('Environment'), default: 'sandbox' } },
    ['connectorId', 'capability'],
  ),
  'POST /connections': obj(
    {
      connectorId: len(2, 120),
      environment: ref('Environment'),
      scopeLabel: len(2, 120),
      capabilities: { type: 'array', minItems: 1, maxItems: 24, items: len(2, 120) },
    },
    undefined,
    false,
  ),
  'POST /idempotency-keys': obj({ operation: len(2, 80) }),
  'POST /webhooks': obj({
    url: { type: 'string', format: 'uri' },
    events: { type: 'array', minItems: 1, items: { type: 'string', enum: WEBHOOK_EVENTS } },
  }),
};

const QUERY: Record<string, [string, unknown][]> = {
  'GET /providers': [['category', str]],
  'GET /connectors': [
    ['capability', str],
    ['providerId', str],
    ['category', str],
  ],
  'GET /stream': [['cursor', int]],
  'GET /audit-log': [
    ['limit', { type: 'integer', minimum: 1, maximum: 500, default: 50 }],
    ['before', { type: 'integer', minimum: 1 }],
  ],
};

const envelope = (data: unknown) => ({
  'application/json': { schema: obj({ ok: { const: true }, data: data ?? { type: 'object' }, meta: ref('Meta') }) },
});
const failure = (description: string) => ({ description, content: { 'application/json': { schema: ref('Failure') } } });

function operation(r: Route) {
  const id = `${r.method} ${r.path === '' ? '/' : r.path}`;
  const parameters: unknown[] = [
    { name: 'Service-Version', in: 'header', required: false, schema: { type: 'string', enum: PUBLISHED_VERSIONS } },
  ];
  if (r.auth) parameters.push({ name: 'x-service-tenant', in: 'header', required: true, schema: str });
  if (r.key)
    parameters.push({
      name: 'Idempotency-Key',
      in: 'header',
      required: r.key === 'required',
      schema: { type: 'string', pattern: KEY_PATTERN },
    });
  for (const m of r.path.matchAll(/\{(\w+)\}/g))
    parameters.push({ name: m[1], in: 'path', required: true, schema: str });
  for (const [name, schema] of QUERY[id] ?? []) parameters.push({ name, in: 'query', required: false, schema });
  if (id === 'GET /stream') parameters.push({ name: 'Last-Event-ID', in: 'header', required: false, schema: str });
  const ok =
    id === 'GET /stream'
      ? { description: 'Server-Sent Events', content: { 'text/event-stream': { schema: str } } }
      : id.startsWith('GET /openapi')
        ? {
            description: 'the OpenAPI document',
            content: {
              [id.endsWith('yaml') ? 'application/yaml' : 'application/json']: {
                schema: id.endsWith('yaml') ? str : { type: 'object' },
              },
            },
          }
        : { description: 'success envelope', content: envelope(DATA[id]) };
  const limitHeaders = {
    'X-RateLimit-Limit': {
      description: 'bucket size of the tenant and environment',
      schema: { type: 'integer', minimum: 0 },
    },
    'X-RateLimit-Remaining': { description: 'calls left in the bucket', schema: { type: 'integer', minimum: 0 } },
  };
  const withLimits = (x: object) => (r.auth ? { ...x, headers: limitHeaders } : x);
  const responses: Record<string, unknown> = {
    '200': ok,
    '400': failure('invalid_request'),
    '404': failure('not_found'),
    '500': failure('internal'),
  };
  if (r.auth) {
    for (const [s, c] of [
      ['401', 'unauthorized'],
      ['403', 'forbidden'],
      ['409', 'idempotency_conflict or capability_denied'],
      ['428', 'idempotency_required'],
    ]) {
      responses[s as string] = failure(c as string);
    }
    const retryAfter = { description: 'seconds to wait', schema: { type: 'integer', minimum: 1 } };
    responses['429'] = { ...failure('rate_limited'), headers: { ...limitHeaders, 'Retry-After': retryAfter } };
    for (const s of Object.keys(responses)) if (s !== '429') responses[s] = withLimits(responses[s] as object);
  }
  return {
    operationId: `${r.method.toLowerCase()}${r.path.replace(/[^A-Za-z]+(\w)?/g, (_, c: string | undefined) => (c ?? '').toUpperCase()) || 'Root'}`,
    summary: r.purpose,
    security: r.auth ? [{ oauth2: [] }] : [],
    parameters,
    ...(BODY[id] ? { requestBody: { required: true, content: { 'application/json': { schema: BODY[id] } } } } : {}),
    responses,
  };
}

export function openapi(routes: Route[], origin: string) {
  const paths: Record<string, Record<string, unknown>> = {};
  for (const r of routes) {
    const p = r.path === '' ? '/' : r.path;
    paths[p] = { ...paths[p], [r.method.toLowerCase()]: operation(r) };
  }
  return {
    openapi: '3.1.0',
    info: { title: 'Network Connections Service (banyan)', version: CURRENT_VERSION },
    servers: [{ url: API }],
    paths,
    components: {
      schemas,
      securitySchemes: {
        oauth2: { type: 'oauth2', flows: { clientCredentials: { tokenUrl: `${origin}/auth/token`, scopes: {} } } },
      },
    },
  };
}
