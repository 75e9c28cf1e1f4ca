// The component schemas of alder's OpenAPI 3.1 document (JSON Schema 2020-12), written from what the
// controllers serve: the contract's fields plus alder's snake_case additions.
import { ERROR_STATUS } from './http.ts';
import { ENVIRONMENTS, KEY_PATTERN } from './validate.ts';

const str = { type: 'string' };
const bool = { type: 'boolean' };
const int = { type: 'integer' };
const time = { type: 'string', format: 'date-time' };
const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });
const obj = (props: Record<string, unknown>, required = Object.keys(props)) => ({
  type: 'object',
  required,
  properties: props,
});

export const SCHEMAS: Record<string, unknown> = {
  Environment: { type: 'string', enum: ENVIRONMENTS },
  Meta: obj({ requestId: str, version: str, at: time, idempotencyKey: str, replayed: bool }, [
    'requestId',
    'version',
    'at',
  ]),
  Failure: obj({
    ok: { type: 'boolean', const: false },
    error: obj({ code: { type: 'string', enum: Object.keys(ERROR_STATUS) }, message: str, detail: str, hint: str }, [
      'code',
      'message',
    ]),
    meta: ref('Meta'),
  }),
  Provider: obj({ id: str, name: str, category: str, summary: str, created_at: time }, [
    'id',
    'name',
    'category',
    'summary',
  ]),
  Connector: obj(
    {
      id: str,
      providerId: str,
      name: str,
      category: str,
      capabilities: { type: 'array', items: str },
      created_at: time,
    },
    ['id', 'providerId', 'name', 'category', 'capabilities'],
  ),
  Capability: obj({ id: str, label: str, critical: bool, idempotencyRequired: bool, created_at: time }, [
    'id',
    'label',
    'critical',
    'idempotencyRequired',
  ]),
  CapabilityDecision: obj({
    connectorId: str,
    capability: str,
    allowed: bool,
    critical: bool,
    idempotencyRequired: bool,
    reason: str,
  }),
  Connection: obj(
    {
      id: { type: 'string', pattern: '^[0-9]+$' },
      connectorId: str,
      environment: ref('Environment'),
      scopeLabel: str,
      state: { type: 'string', enum: ['requested', 'active', 'paused'] },
      capabilities: {
        type: 'array',
        items: obj({ capability: str, critical: bool, idempotencyRequired: bool }),
      },
      nextStep: { type: 'string', enum: ['await_activation', 'none', 'resume_connection'] },
      createdAt: time,
      created_by: str,
      updated_at: time,
    },
    ['id', 'connectorId', 'environment', 'scopeLabel', 'state', 'capabilities', 'nextStep', 'createdAt'],
  ),
  RouteInfo: obj({ method: str, path: str, purpose: str, auth: bool }),
  IdempotencyKeyResult: obj(
    {
      idempotencyKey: { type: 'string', pattern: KEY_PATTERN.source },
      operation: str,
      expiresAt: time,
      created_at: time,
    },
    ['idempotencyKey', 'operation', 'expiresAt'],
  ),
  Webhook: obj(
    {
      id: int,
      url: str,
      events: { type: 'array', items: str },
      active: bool,
      created_by: str,
      created_at: time,
      updated_at: time,
      signing_secret: { type: 'string', description: 'the signing key, shown in the creation answer only' },
    },
    ['id', 'url', 'events', 'active', 'created_at'],
  ),
  Delivery: obj(
    {
      id: int,
      webhook_id: int,
      event: str,
      status: { type: 'string', enum: ['pending', 'delivered', 'failed'] },
      attempts: int,
      response_status: { type: ['integer', 'null'] },
      last_error: { type: ['string', 'null'] },
      created_at: time,
      updated_at: time,
      payload: { type: 'object' },
    },
    ['id', 'webhook_id', 'event', 'status', 'attempts', 'created_at'],
  ),
  AuditEntry: obj({
    id: int,
    position: int,
    tenant: str,
    action: str,
    resource_type: str,
    resource_id: str,
    actor: str,
    request_id: { type: ['string', 'null'] },
    created_at: time,
    previous_digest: { type: 'string', pattern: '^[0-9a-f]{64}$' },
    digest: { type: 'string', pattern: '^[0-9a-f]{64}$' },
  }),
};

export const HEADERS: Record<string, unknown> = {
  'X-RateLimit-Limit': { description: 'bucket capacity (calls)', schema: { type: 'integer', minimum: 1 } },
  'X-RateLimit-Remaining': { description: 'calls left in the bucket', schema: { type: 'integer', minimum: 0 } },
  'X-RateLimit-Reset': {
    description: 'seconds until the bucket is full again',
    schema: { type: 'integer', minimum: 0 },
  },
  'Retry-After': { description: 'recommended wait in seconds', schema: { type: 'integer', minimum: 1 } },
  'X-Request-Id': { description: 'meta.requestId of the answer', schema: { type: 'string' } },
  Link: { description: 'RFC 8288 paging links (first, prev, next, last)', schema: { type: 'string' } },
};
