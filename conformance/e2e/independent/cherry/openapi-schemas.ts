// The component schemas and operation helpers of the OpenAPI document, written the open_api_spex way (3.0 style,
// `nullable`); openapi.ts assembles the paths and converts the result to 3.1.
import { EVENT_NAMES } from './webhooks.ts';

export type Schema = Record<string, unknown>;
export const ref = (name: string): Schema => ({ $ref: `#/components/schemas/${name}` });
export const str = (extra: Schema = {}): Schema => ({ type: 'string', ...extra });
export const obj = (properties: Record<string, Schema>, required: string[] = Object.keys(properties)): Schema => ({
  type: 'object',
  properties,
  required,
});
export const KEY = { type: 'string', pattern: '^[A-Za-z0-9._:-]{8,128}$' };
export const ENV = { type: 'string', enum: ['development', 'sandbox', 'pilot', 'production'] };

export const schemas: Record<string, Schema> = {
  Meta: obj(
    {
      requestId: str(),
      version: str(),
      at: str({ format: 'date-time' }),
      idempotencyKey: str(),
      replayed: { type: 'boolean' },
    },
    ['requestId', 'version', 'at'],
  ),
  Error: obj({
    ok: { type: 'boolean', enum: [false] },
    error: obj(
      {
        code: str({
          enum: [
            'unauthorized',
            'forbidden',
            'not_found',
            'invalid_request',
            'capability_denied',
            'idempotency_conflict',
            'idempotency_required',
            'rate_limited',
            'internal',
          ],
        }),
        message: str(),
        detail: str(),
        hint: str(),
        source: obj({ pointer: str() }),
      },
      ['code', 'message'],
    ),
    meta: ref('Meta'),
  }),
  Provider: obj({ id: str(), name: str(), category: str(), summary: str() }),
  Connector: obj({
    id: str(),
    providerId: str(),
    name: str(),
    category: str(),
    capabilities: { type: 'array', items: str() },
  }),
  Capability: obj({ id: str(), label: str(), critical: { type: 'boolean' }, idempotencyRequired: { type: 'boolean' } }),
  CapabilityDecision: obj({
    connectorId: str(),
    capability: str(),
    allowed: { type: 'boolean' },
    critical: { type: 'boolean' },
    idempotencyRequired: { type: 'boolean' },
    reason: str(),
  }),
  Connection: obj({
    id: str({ description: 'integer sequence per tenant, as a string' }),
    connectorId: str(),
    environment: ENV,
    scopeLabel: str(),
    state: str({ description: 'pending, then active' }),
    capabilities: {
      type: 'array',
      items: obj({ capability: str(), critical: { type: 'boolean' }, idempotencyRequired: { type: 'boolean' } }),
    },
    nextStep: str(),
    createdAt: str({ format: 'date-time' }),
  }),
  RouteInfo: obj({ method: str(), path: str(), purpose: str(), auth: { type: 'boolean' } }),
  IdempotencyKeyResult: obj({ idempotencyKey: str(), operation: str(), expiresAt: str({ format: 'date-time' }) }),
  WebhookEndpoint: obj(
    {
      id: str(),
      url: str(),
      events: { type: 'array', items: str({ enum: EVENT_NAMES }) },
      signingKey: str({ description: 'returned by the creating call only' }),
      createdAt: str({ format: 'date-time' }),
    },
    ['id', 'url', 'events'],
  ),
  WebhookDelivery: obj(
    {
      id: str({ description: 'job id' }),
      webhookId: str(),
      state: str(),
      event: str(),
      eventId: str(),
      attempt: { type: 'integer' },
      completedAt: str({ format: 'date-time', nullable: true }),
    },
    ['id', 'webhookId', 'state'],
  ),
  AuditEntry: obj({
    id: str(),
    at: str({ format: 'date-time' }),
    actor: str(),
    action: str(),
    resourceType: str(),
    resourceId: str(),
    idempotencyKey: str({ nullable: true }),
    parent: str(),
    hash: str(),
  }),
  PageLinks: obj({ self: str(), next: str({ nullable: true }) }),
};

export const envelope = (data: Schema): Schema => ({
  type: 'object',
  required: ['ok', 'data', 'meta'],
  properties: { ok: { type: 'boolean', enum: [true] }, data, meta: ref('Meta') },
});
export const list = (name: string, item: string, extra: Record<string, Schema> = {}): Schema =>
  envelope(obj({ ...extra, count: { type: 'integer' }, [name]: { type: 'array', items: ref(item) } }));
export const errors: Record<string, Schema> = Object.fromEntries(
  ['400', '401', '403', '404', '409', '428', '500'].map((s) => [s, { $ref: '#/components/responses/Error' }]),
);
errors['429'] = { $ref: '#/components/responses/RateLimited' };
export const limitHeaders = {
  'X-RateLimit-Limit': { $ref: '#/components/headers/X-RateLimit-Limit' },
  'X-RateLimit-Remaining': { $ref: '#/components/headers/X-RateLimit-Remaining' },
};
export const q = (name: string, schema: Schema = str(), required = false): Schema => ({
  name,
  in: 'query',
  required,
  schema,
});
export const keyHeader = (required: boolean): Schema => ({
  name: 'Idempotency-Key',
  in: 'header',
  required,
  schema: KEY,
});
export const body = (schema: Schema): Schema => ({ required: true, content: { 'application/json': { schema } } });
export const pageQ = [
  q('page[size]', { type: 'integer', minimum: 1, maximum: 200 }),
  q('page[after]'),
  q('limit', { type: 'integer', minimum: 1, maximum: 200 }),
];

export function op(operationId: string, summary: string, secured: boolean, data: Schema, extra: Schema = {}): Schema {
  return {
    operationId,
    summary,
    ...(secured
      ? {
          security: [{ oauth2: [] }],
          parameters: [
            { name: 'x-service-tenant', in: 'header', required: true, schema: str() },
            ...((extra.parameters as Schema[]) ?? []),
          ],
        }
      : {}),
    ...(extra.requestBody ? { requestBody: extra.requestBody } : {}),
    responses: {
      '200': {
        description: 'OK',
        ...(secured ? { headers: limitHeaders } : {}),
        content: { 'application/json': { schema: data } },
      },
      ...(secured ? errors : { '400': errors['400'] }),
    },
  };
}

// A small YAML emitter for the downloadable description: block mappings and sequences, every string
// double-quoted (JSON escapes are valid YAML double-quoted escapes), so the text parses back to the same value.
function scalar(v: unknown): string {
  if (v === null || v === undefined) return 'null';
  if (typeof v === 'string') return JSON.stringify(v);
  return String(v);
}

function emit(v: unknown, indent: string): string {
  if (Array.isArray(v)) {
    if (v.length === 0) return ' []';
    return v.map((x) => `\n${indent}-${block(x, `${indent}  `)}`).join('');
  }
  if (v !== null && typeof v === 'object') {
    const entries = Object.entries(v as Record<string, unknown>).filter(([, x]) => x !== undefined);
    if (entries.length === 0) return ' {}';
    return entries.map(([k, x]) => `\n${indent}${JSON.stringify(k)}:${block(x, `${indent}  `)}`).join('');
  }
  return ` ${scalar(v)}`;
}

function block(v: unknown, indent: string): string {
  return emit(v, indent);
}

export function toYaml(value: unknown): string {
  return `${emit(value, '').replace(/^\n/, '')}\n`;
}
