// The OpenAPI 3.1 document, written from Teak's own route table (as the team's `kemal-openapi` macro would),
// served at /openapi.json and as per-version files (/openapi/<version>.json and .yaml).
import { DATA, ERROR, envelope, META } from './openapi-schemas.ts';
import type { Rec } from './state.ts';
import { ENVIRONMENTS, WEBHOOK_EVENTS } from './state.ts';

export interface RouteDoc {
  method: string;
  path: string;
  purpose: string;
  auth: boolean;
  key?: boolean;
  since?: string;
  body?: Rec;
  query?: Rec[];
}

const s = (min: number, max: number) => ({ type: 'string', minLength: min, maxLength: max });
const env = { type: 'string', enum: [...ENVIRONMENTS] };

export const BODIES: Record<string, Rec> = {
  capabilityCheck: {
    type: 'object',
    required: ['connectorId', 'capability'],
    properties: { connectorId: s(2, 120), capability: s(2, 120), environment: { ...env, default: 'sandbox' } },
  },
  connectionCreate: {
    type: 'object',
    required: ['connectorId', 'environment', 'scopeLabel', 'capabilities'],
    properties: {
      connectorId: s(2, 120),
      environment: env,
      scopeLabel: s(2, 120),
      capabilities: { type: 'array', minItems: 1, maxItems: 24, items: s(2, 120) },
    },
  },
  keyCreate: { type: 'object', required: ['operation'], properties: { operation: s(2, 80) } },
  webhookCreate: {
    type: 'object',
    required: ['url', 'events'],
    properties: {
      url: { type: 'string', format: 'uri' },
      events: { type: 'array', minItems: 1, items: { type: 'string', enum: [...WEBHOOK_EVENTS] } },
    },
  },
};

const SUCCESS = {
  type: 'object',
  required: ['ok', 'data', 'meta'],
  properties: { ok: { const: true }, data: { type: 'object' }, meta: { $ref: '#/components/schemas/Meta' } },
};

const int = (description: string) => ({ description, schema: { type: 'integer', minimum: 0 } });
const COUNT_HEADERS = {
  'X-RateLimit-Limit': int('limit for the current window'),
  'X-RateLimit-Remaining': int('calls left in the window'),
};
const LIMIT_HEADERS = { ...COUNT_HEADERS, 'Retry-After': int('recommended wait in seconds') };

function operation(r: RouteDoc): Rec {
  const params: Rec[] = [...(r.query ?? []).map((q) => ({ in: 'query', ...q }))];
  for (const m of r.path.matchAll(/\{(\w+)\}/g)) {
    params.push({ name: m[1], in: 'path', required: true, schema: { type: 'string' } });
  }
  if (r.path.endsWith('/stream'))
    params.push({ name: 'Last-Event-ID', in: 'header', required: false, schema: { type: 'string' } });
  if (r.auth) params.push({ $ref: '#/components/parameters/Tenant' });
  if (r.key) params.push({ $ref: '#/components/parameters/IdempotencyKey' });
  const err = {
    description: 'failure',
    content: { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } },
  };
  const data = DATA[`${r.method} ${r.path.replace('/api/public/v1', '')}`];
  const schema = data ? envelope(data) : { $ref: '#/components/schemas/Success' };
  const op: Rec = {
    summary: r.purpose,
    operationId: `${r.method.toLowerCase()}${r.path.replace(/[^A-Za-z0-9]+(.)?/g, (_m, c: string) => (c ?? '').toUpperCase())}`,
    parameters: params,
    responses: {
      '200': {
        description: 'success',
        headers: r.auth ? COUNT_HEADERS : {},
        content: { 'application/json': { schema } },
      },
      '429': { ...err, headers: LIMIT_HEADERS },
      default: err,
    },
  };
  if (r.path.endsWith('/stream')) op.responses['200'] = { description: 'events', content: { 'text/event-stream': {} } };
  if (r.body) op.requestBody = { required: true, content: { 'application/json': { schema: r.body } } };
  op.security = r.auth ? [{ oauth: [] }] : [];
  return op;
}

export function openApiDocument(routes: RouteDoc[], version: string, tokenUrl: string): Rec {
  const paths: Rec = {};
  for (const r of routes) {
    if (r.since && r.since > version) continue;
    paths[r.path] ??= {};
    paths[r.path][r.method.toLowerCase()] = operation(r);
  }
  return {
    openapi: '3.1.0',
    info: { title: 'Network Connections Service (Teak)', version },
    servers: [{ url: '/' }],
    paths,
    components: {
      schemas: { Meta: META, Error: ERROR, Success: SUCCESS },
      parameters: {
        Tenant: { name: 'x-service-tenant', in: 'header', required: true, schema: { type: 'string' } },
        IdempotencyKey: {
          name: 'Idempotency-Key',
          in: 'header',
          required: true,
          schema: { type: 'string', pattern: '^[A-Za-z0-9._:-]{8,128}$' },
        },
      },
      securitySchemes: { oauth: { type: 'oauth2', flows: { clientCredentials: { tokenUrl, scopes: {} } } } },
    },
  };
}
