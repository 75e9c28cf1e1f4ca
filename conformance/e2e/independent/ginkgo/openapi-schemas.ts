// The schema table: pydantic-style models, written once, emitted as components.schemas.

import { ENVIRONMENTS } from './validation.ts';
import { WEBHOOK_EVENTS } from './webhooks.ts';

type S = Record<string, unknown>;
const str: S = { type: 'string' };
const bool: S = { type: 'boolean' };
const int: S = { type: 'integer' };
const dt: S = { type: 'string', format: 'date-time' };
const ref = (name: string): S => ({ $ref: `#/components/schemas/${name}` });
const arr = (items: S, extra: S = {}): S => ({ type: 'array', items, ...extra });
const len = (min: number, max: number): S => ({ type: 'string', minLength: min, maxLength: max });

/** A model: properties, and the required ones (all unless listed as optional). */
function model(title: string, props: Record<string, S>, optional: string[] = []): S {
  return {
    title,
    type: 'object',
    properties: props,
    required: Object.keys(props).filter((k) => !optional.includes(k)),
  };
}

const MODELS: Record<string, S> = {
  Environment: { title: 'Environment', type: 'string', enum: [...ENVIRONMENTS] },
  Meta: model('Meta', { requestId: str, version: str, at: dt, idempotencyKey: str, replayed: bool }, [
    'idempotencyKey',
    'replayed',
  ]),
  ErrorBody: model(
    'ErrorBody',
    {
      code: {
        type: 'string',
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
      },
      message: str,
      detail: str,
      hint: str,
    },
    ['detail', 'hint'],
  ),
  ErrorEnvelope: model('ErrorEnvelope', {
    ok: { type: 'boolean', const: false },
    error: ref('ErrorBody'),
    meta: ref('Meta'),
  }),
  RouteInfo: model('RouteInfo', { method: str, path: str, purpose: str, auth: bool }),
  SelfDescription: model(
    'SelfDescription',
    {
      service: str,
      surface: str,
      version: str,
      authentication: { type: 'object' },
      idempotency: { type: 'object' },
      routes: arr(ref('RouteInfo')),
      webhooks: { type: 'object' },
      stream: { type: 'object' },
      documents: { type: 'object' },
    },
    ['webhooks', 'stream', 'documents'],
  ),
  InfoRead: model('InfoRead', { clientId: str, tenant: str, environment: ref('Environment'), tokenExpiresAt: dt }),
  ProviderRead: model('ProviderRead', { id: str, name: str, category: str, summary: str, country: str }, ['country']),
  ProviderList: model('ProviderList', { count: int, providers: arr(ref('ProviderRead')) }),
  ConnectorRead: model('ConnectorRead', { id: str, providerId: str, name: str, category: str, capabilities: arr(str) }),
  ConnectorList: model('ConnectorList', { count: int, connectors: arr(ref('ConnectorRead')) }),
  CapabilityRead: model(
    'CapabilityRead',
    { id: str, label: str, critical: bool, idempotencyRequired: bool, description: str },
    ['description'],
  ),
  CapabilityList: model('CapabilityList', { count: int, capabilities: arr(ref('CapabilityRead')) }),
  CapabilityCheck: model(
    'CapabilityCheck',
    { connectorId: len(2, 120), capability: len(2, 120), environment: { ...ref('Environment'), default: 'sandbox' } },
    ['environment'],
  ),
  CapabilityDecision: model('CapabilityDecision', {
    connectorId: str,
    capability: str,
    allowed: bool,
    critical: bool,
    idempotencyRequired: bool,
    reason: str,
  }),
  CapabilityCheckResult: model('CapabilityCheckResult', {
    decision: ref('CapabilityDecision'),
    environment: ref('Environment'),
  }),
  ConnectionCapability: model('ConnectionCapability', { capability: str, critical: bool, idempotencyRequired: bool }),
  ConnectionCreate: model('ConnectionCreate', {
    connectorId: len(2, 120),
    environment: ref('Environment'),
    scopeLabel: len(2, 120),
    capabilities: arr(len(2, 120), { minItems: 1, maxItems: 24 }),
  }),
  ConnectionRead: model(
    'ConnectionRead',
    {
      id: { type: 'string', pattern: '^[0-9]+$' },
      connectorId: str,
      environment: ref('Environment'),
      scopeLabel: str,
      state: { type: 'string', enum: ['pending', 'ready', 'paused'] },
      capabilities: arr(ref('ConnectionCapability')),
      nextStep: { type: 'string', enum: ['wait_for_ready', 'none', 'contact_support'] },
      createdAt: dt,
      updatedAt: dt,
    },
    ['updatedAt'],
  ),
  ConnectionList: model('ConnectionList', { tenant: str, count: int, connections: arr(ref('ConnectionRead')) }),
  IdempotencyKeyCreate: model('IdempotencyKeyCreate', { operation: len(2, 80) }),
  IdempotencyKeyRead: model('IdempotencyKeyRead', {
    idempotencyKey: { type: 'string', pattern: '^[A-Za-z0-9._:-]{8,128}$' },
    operation: str,
    expiresAt: { ...dt, description: 'issue + 24 h; once the key is first used it is valid 24 h from that use' },
  }),
  WebhookCreate: model('WebhookCreate', {
    url: { type: 'string', format: 'uri', minLength: 1, maxLength: 2048 },
    events: arr({ type: 'string', enum: [...WEBHOOK_EVENTS] }, { minItems: 1, maxItems: 20 }),
  }),
  WebhookRead: model('WebhookRead', { id: str, url: str, events: arr(str), createdAt: dt }),
  WebhookCreated: model('WebhookCreated', {
    id: str,
    url: str,
    events: arr(str),
    createdAt: dt,
    signingKey: { type: 'string', description: 'shown once: store it at once' },
  }),
  WebhookList: model('WebhookList', { count: int, webhooks: arr(ref('WebhookRead')) }),
  WebhookDeleted: model('WebhookDeleted', { id: str, deleted: bool }),
  DeliveryLogEntry: model(
    'DeliveryLogEntry',
    {
      logId: str,
      eventId: str,
      event: str,
      status: { type: 'string', enum: ['pending', 'delivered', 'failed'] },
      attempts: int,
      lastResponseStatus: int,
      createdAt: dt,
    },
    ['lastResponseStatus'],
  ),
  DeliveryLogPage: model('DeliveryLogPage', { webhookId: str, count: int, entries: arr(ref('DeliveryLogEntry')) }),
  AuditEntry: model('AuditEntry', {
    seq: int,
    at: dt,
    action: str,
    actor: str,
    resourceType: str,
    resourceId: str,
    requestId: str,
    prev_digest: { type: 'string', description: 'base64url SHA-256 of the previous entry' },
    digest: { type: 'string', description: 'base64url SHA-256' },
  }),
  AuditPage: model(
    'AuditPage',
    {
      tenant: str,
      count: int,
      entries: arr(ref('AuditEntry')),
      chain_head: str,
      chain_length: int,
      proof: { type: 'object' },
      next_cursor: int,
    },
    ['next_cursor'],
  ),
  TokenResponse: model('TokenResponse', { access_token: str, token_type: str, expires_in: int, scope: str }, ['scope']),
};

/** components.schemas: the models plus one SuccessEnvelope_<Model>_ per model used as `data`. */
export function componentSchemas(dataModels: string[]): Record<string, S> {
  const out: Record<string, S> = { ...MODELS };
  for (const m of dataModels) {
    out[`SuccessEnvelope_${m}_`] = model(`SuccessEnvelope[${m}]`, {
      ok: { type: 'boolean', const: true },
      data: ref(m),
      meta: ref('Meta'),
    });
  }
  return out;
}
