// Schema building blocks of sycamore's OpenAPI document and the component schemas of every resource it
// serves (the contract's fields keep their names; sycamore's own fields are snake_case).
import { STATUS } from './http.ts';
import { ENVIRONMENTS } from './validate.ts';
import { WEBHOOK_EVENTS } from './webhooks.ts';

export const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });
export const str = { type: 'string' };
export const int = { type: 'integer' };
export const bool = { type: 'boolean' };
export const time = { type: 'string', format: 'date-time' };
export const text = (min: number, max: number) => ({ type: 'string', minLength: min, maxLength: max });
export const obj = (properties: Record<string, unknown>, required = Object.keys(properties), extra = true) => ({
  type: 'object',
  properties,
  required,
  additionalProperties: extra,
});
export const list = (field: string, item: string) => obj({ count: int, [field]: { type: 'array', items: ref(item) } });

export function success(data: unknown, auth: boolean, description = 'success') {
  return {
    description,
    headers: auth ? { ...REQUEST_ID, ...LIMIT_HEADERS } : REQUEST_ID,
    content: { 'application/json': { schema: obj({ ok: { const: true }, data, meta: ref('Meta') }) } },
  };
}

export const ERRORS = Object.fromEntries(
  ['400', '401', '403', '404', '409', '428', '429', '500'].map((s) => [
    s,
    { $ref: `#/components/responses/${s === '429' ? 'RateLimited' : 'Error'}` },
  ]),
);
const CODES = Object.keys(STATUS);
export const intHeader = (description: string) => ({ description, schema: { type: 'integer', minimum: 0 } });
/** Headers of every counted answer (authenticated calls). */
export const LIMIT_HEADERS = {
  'X-RateLimit-Limit': intHeader('calls allowed in the current window'),
  'X-RateLimit-Remaining': intHeader('calls left in the current window'),
  'X-RateLimit-Reset': intHeader('unix seconds when the window ends'),
};
export const REQUEST_ID = { 'X-Request-Id': { description: 'equals meta.requestId', schema: str } };
export const KEY = {
  name: 'Idempotency-Key',
  in: 'header',
  schema: { type: 'string', pattern: '^[A-Za-z0-9._:-]{8,128}$' },
};
export const TENANT = { name: 'x-service-tenant', in: 'header', required: true, schema: str };
export const VERSION = {
  name: 'Service-Version',
  in: 'header',
  required: false,
  schema: { type: 'string', enum: ['2026-07-01', '2026-06-12'] },
};
export const q = (name: string, schema: unknown = str) => ({ name, in: 'query', required: false, schema });
export const p = (name: string) => ({ name, in: 'path', required: true, schema: str });

export function op(
  summary: string,
  data: unknown,
  o: { auth?: boolean; key?: 'required' | 'optional'; params?: unknown[]; body?: unknown } = {},
) {
  const auth = o.auth ?? true;
  const params: unknown[] = [VERSION, ...(auth ? [TENANT] : []), ...(o.params ?? [])];
  if (o.key) params.push({ ...KEY, required: o.key === 'required' });
  return {
    summary,
    security: auth ? [{ oauth2: [] }] : [],
    parameters: params,
    ...(o.body ? { requestBody: { required: true, content: { 'application/json': { schema: o.body } } } } : {}),
    responses: { '200': success(data, auth), ...ERRORS },
  };
}

export const SCHEMAS = {
  Meta: obj({ requestId: str, version: str, at: time, idempotencyKey: str, replayed: bool }, [
    'requestId',
    'version',
    'at',
  ]),
  Failure: obj({
    ok: { const: false },
    error: obj({ code: { type: 'string', enum: CODES }, message: str, detail: str, hint: str }, ['code', 'message']),
    meta: ref('Meta'),
  }),
  Environment: { type: 'string', enum: ENVIRONMENTS },
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
    id: { type: 'string', pattern: '^con_[0-9A-HJKMNP-TV-Z]{26}$' },
    connectorId: str,
    environment: ref('Environment'),
    scopeLabel: str,
    state: { type: 'string', enum: ['pending', 'active'] },
    capabilities: { type: 'array', items: obj({ capability: str, critical: bool, idempotencyRequired: bool }) },
    nextStep: { type: 'string', enum: ['await_activation', 'none'] },
    createdAt: time,
  }),
  RouteInfo: obj({ method: str, path: str, purpose: str, auth: bool }),
  IdempotencyKeyResult: obj({ idempotencyKey: str, operation: str, expiresAt: time }),
  Webhook: obj({
    id: str,
    url: str,
    events: { type: 'array', items: { type: 'string', enum: WEBHOOK_EVENTS } },
    status: str,
    created_at: time,
  }),
  Delivery: obj({
    id: str,
    webhook_id: str,
    event_id: str,
    event: str,
    status: { type: 'string', enum: ['queued', 'delivered', 'retrying', 'failed'] },
    attempts: int,
    response_status: { type: ['integer', 'null'] },
    resend_of: { type: ['string', 'null'] },
    created_at: time,
    delivered_at: { type: ['string', 'null'], format: 'date-time' },
  }),
  AuditEntry: obj({
    id: str,
    seq: int,
    action: str,
    subject_id: str,
    client_id: str,
    occurred_at: time,
    prev_hash: { type: 'string', pattern: '^[0-9a-f]{128}$' },
    hash: { type: 'string', pattern: '^[0-9a-f]{128}$' },
  }),
};
