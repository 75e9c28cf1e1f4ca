// JSON Schemas (2020-12) of the bodies linden serves and accepts, for the OpenAPI document.

import type { Field, Spec } from './decode.ts';
import { CHECK_SPEC, CREATE_SPEC, ENVIRONMENTS, KEY_SPEC } from './handlers.ts';
import { STREAM_KINDS } from './stream.ts';
import { WEBHOOK_SPEC } from './webhook-handlers.ts';

type Schema = Record<string, unknown>;
const str: Schema = { type: 'string' };
const bool: Schema = { type: 'boolean' };
const int: Schema = { type: 'integer', minimum: 0 };
/** A receiver's or delivery's id: a Snowflake string, or a bigserial number (numeric-id choice). */
const anyId: Schema = { type: ['string', 'integer'] };
const time: Schema = { type: 'string', format: 'date-time' };
const ref = (name: string): Schema => ({ $ref: `#/components/schemas/${name}` });
const obj = (props: Record<string, Schema>, required = Object.keys(props), extra = true): Schema => ({
  type: 'object',
  properties: props,
  required,
  ...(extra ? {} : { additionalProperties: false }),
});

function field(f: Field): Schema {
  if (f.type === 'array') return { type: 'array', minItems: f.min, maxItems: f.max, items: field(f.items) };
  const s: Schema = { type: 'string' };
  if (f.enum) s.enum = [...f.enum];
  else {
    s.minLength = f.min;
    s.maxLength = f.max;
  }
  if (f.pattern) s.pattern = f.pattern.source;
  if (f.default !== undefined) s.default = f.default;
  return s;
}

/** A request body schema from the decoder's own spec: what is documented is what is enforced. */
export function bodySchema(spec: Spec): Schema {
  const props = Object.fromEntries(Object.entries(spec).map(([k, f]) => [k, field(f)]));
  return obj(
    props,
    Object.entries(spec)
      .filter(([, f]) => !f.optional)
      .map(([k]) => k),
    false,
  );
}

const capEntry = obj({ capability: str, critical: bool, idempotencyRequired: bool });

export const SCHEMAS: Record<string, Schema> = {
  Meta: obj({ requestId: str, version: str, at: time, idempotencyKey: str, replayed: bool }, [
    'requestId',
    'version',
    'at',
  ]),
  Environment: { type: 'string', enum: [...ENVIRONMENTS] },
  Provider: obj({ id: str, name: str, category: str, summary: str, website: str }, [
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
      status: { type: 'string', enum: ['available', 'paused'] },
    },
    ['id', 'providerId', 'name', 'category', 'capabilities'],
  ),
  Capability: obj({ id: str, label: str, critical: bool, idempotencyRequired: bool, description: str }, [
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
      id: { type: 'string', pattern: '^[0-9]{1,20}$', description: 'Snowflake id, decimal string' },
      connectorId: str,
      environment: ref('Environment'),
      scopeLabel: str,
      state: { type: 'string', enum: ['provisioning', 'live'] },
      capabilities: { type: 'array', items: capEntry },
      nextStep: { type: 'string', enum: ['wait_for_provisioning', 'none'] },
      createdAt: time,
      updatedAt: time,
    },
    ['id', 'connectorId', 'environment', 'scopeLabel', 'state', 'capabilities', 'nextStep', 'createdAt'],
  ),
  RouteInfo: obj({ method: str, path: str, purpose: str, auth: bool }),
  IdempotencyKeyResult: obj({ idempotencyKey: str, operation: str, expiresAt: time }),
  Webhook: obj(
    {
      id: anyId,
      url: str,
      events: { type: 'array', items: str },
      status: str,
      createdAt: time,
      secret: { type: 'string', description: 'signing key, shown in this answer only' },
    },
    ['id', 'url', 'events', 'status', 'createdAt'],
  ),
  DeliveryMessage: obj(
    {
      id: anyId,
      webhookId: anyId,
      eventId: str,
      event: str,
      status: { type: 'string', enum: ['queued', 'retrying', 'delivered', 'dead'] },
      trigger: str,
      requeueOf: anyId,
      createdAt: time,
      attempts: { type: 'array', items: { type: 'object' } },
      nextAttemptAt: time,
    },
    ['id', 'webhookId', 'eventId', 'event', 'status', 'createdAt', 'attempts'],
  ),
  AuditEntry: obj(
    {
      seq: { type: 'integer', minimum: 1 },
      id: str,
      at: time,
      action: str,
      actor: str,
      resource: obj({ type: str, id: str }),
      idempotencyKey: str,
      prevDigest: str,
      digest: str,
    },
    ['seq', 'id', 'at', 'action', 'actor', 'resource', 'prevDigest', 'digest'],
  ),
  StreamMessage: obj({
    seq: int,
    kind: { type: 'string', enum: [...STREAM_KINDS] },
    at: time,
    channel: str,
    connection: { type: 'object' },
  }),
};

export const BODIES: Record<string, Schema> = {
  CheckBody: bodySchema(CHECK_SPEC),
  CreateBody: bodySchema(CREATE_SPEC),
  KeyBody: bodySchema(KEY_SPEC),
  WebhookBody: bodySchema(WEBHOOK_SPEC),
};

const arr = (name: string): Schema => ({ type: 'array', items: ref(name) });

/** The data of each operation's 200 answer. */
export const DATA: Record<string, Schema> = {
  describe: obj({
    service: str,
    surface: str,
    version: str,
    authentication: { type: 'object' },
    idempotency: { type: 'object' },
    routes: arr('RouteInfo'),
  }),
  listProviders: obj({ count: int, providers: arr('Provider') }),
  listConnectors: obj({ count: int, connectors: arr('Connector') }),
  listCapabilities: obj({ count: int, capabilities: arr('Capability') }),
  checkCapability: obj({ decision: ref('CapabilityDecision'), environment: ref('Environment') }),
  listConnections: obj({ tenant: str, count: int, connections: arr('Connection') }),
  createConnection: ref('Connection'),
  issueIdempotencyKey: ref('IdempotencyKeyResult'),
  createWebhook: ref('Webhook'),
  deleteWebhook: obj({ id: anyId, status: str }),
  readAuditLog: obj(
    {
      tenant: str,
      order: str,
      count: int,
      entries: arr('AuditEntry'),
      next: { type: ['string', 'null'], description: 'path of the next page (default paging)' },
      nextAfter: { type: ['integer', 'null'], description: 'send as ?after= (next-after paging)' },
      nextBefore: { type: ['integer', 'null'], description: 'send as ?before= (next-after paging, newest first)' },
      proof: { type: 'object' },
    },
    ['tenant', 'order', 'count', 'entries', 'proof'],
  ),
  getInfo: { type: 'object' },
  listDeliveryMessages: obj({
    webhookId: anyId,
    count: int,
    messages: arr('DeliveryMessage'),
    next: { type: ['string', 'null'] },
  }),
  requeueDeliveryMessage: obj({ message: ref('DeliveryMessage') }),
};
