// Schema Objects of the OpenAPI 3.1 document (JSON Schema 2020-12), written by hand from the contract.

import { VERSIONS } from './util.ts';
import { ENVIRONMENTS } from './validate.ts';
import { WEBHOOK_EVENTS } from './webhooks.ts';

const str = { type: 'string' };
const bool = { type: 'boolean' };
const int = { type: 'integer' };
const dateTime = { type: 'string', format: 'date-time' };
const len = (min: number, max: number) => ({ type: 'string', minLength: min, maxLength: max });
const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });
const obj = (properties: Record<string, unknown>, required: string[] = Object.keys(properties)) => ({
  type: 'object',
  properties,
  required,
});
const list = (name: string, item: unknown) => obj({ count: int, [name]: { type: 'array', items: item } });

export const ERROR_CODES = [
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

export const SCHEMAS: Record<string, unknown> = {
  Environment: { type: 'string', enum: ENVIRONMENTS },
  Meta: obj(
    {
      requestId: str,
      version: { type: 'string', examples: [VERSIONS[1]] },
      at: dateTime,
      idempotencyKey: str,
      replayed: bool,
    },
    ['requestId', 'version', 'at'],
  ),
  Failure: obj({
    ok: { const: false },
    error: obj({ code: { type: 'string', enum: ERROR_CODES }, message: str, detail: str, hint: str }, [
      'code',
      'message',
    ]),
    meta: ref('Meta'),
  }),
  Provider: obj({ id: str, name: str, category: str, summary: str, country: str }, [
    'id',
    'name',
    'category',
    'summary',
  ]),
  Connector: obj(
    { id: str, providerId: str, name: str, category: str, capabilities: { type: 'array', items: str }, protocol: str },
    ['id', 'providerId', 'name', 'category', 'capabilities'],
  ),
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
    id: { type: 'string', description: 'int64 row id as a decimal string' },
    connectorId: str,
    environment: ref('Environment'),
    scopeLabel: str,
    state: { type: 'string', examples: ['pending', 'active'] },
    capabilities: { type: 'array', items: obj({ capability: str, critical: bool, idempotencyRequired: bool }) },
    nextStep: { type: 'string', examples: ['await_activation', 'none'] },
    createdAt: dateTime,
  }),
  RouteInfo: obj({ method: str, path: str, purpose: str, auth: bool }),
  SelfDescription: obj({
    service: str,
    surface: str,
    version: str,
    authentication: { type: 'object' },
    idempotency: { type: 'object' },
    routes: { type: 'array', items: ref('RouteInfo') },
  }),
  ProviderList: list('providers', ref('Provider')),
  ConnectorList: list('connectors', ref('Connector')),
  CapabilityList: list('capabilities', ref('Capability')),
  CheckResult: obj({ decision: ref('CapabilityDecision'), environment: ref('Environment') }),
  ConnectionList: obj({ tenant: str, count: int, connections: { type: 'array', items: ref('Connection') } }),
  IdempotencyKeyResult: obj({ idempotencyKey: str, operation: str, expiresAt: dateTime }),
  Webhook: obj(
    {
      id: str,
      url: str,
      events: { type: 'array', items: str },
      status: str,
      createdAt: dateTime,
      signingKey: { type: 'string', description: 'only in the creation answer' },
    },
    ['id', 'url', 'events', 'createdAt'],
  ),
  WebhookCreated: obj({ webhook: ref('Webhook'), signingKey: str }),
  WebhookList: list('webhooks', ref('Webhook')),
  Delivery: obj({
    id: str,
    webhookId: str,
    eventId: str,
    event: str,
    status: { type: 'string', enum: ['pending', 'succeeded', 'failed'] },
    attemptCount: int,
    createdAt: dateTime,
  }),
  DeliveryList: obj({ webhookId: str, count: int, deliveries: { type: 'array', items: ref('Delivery') } }),
  AuditPage: obj(
    {
      tenant: str,
      order: str,
      count: int,
      entries: { type: 'array', items: { type: 'object' } },
      next: str,
      treeHead: { type: 'object' },
    },
    ['tenant', 'count', 'entries', 'treeHead'],
  ),
  Info: { type: 'object' },
};

export const BODIES: Record<string, unknown> = {
  CheckRequest: obj(
    { connectorId: len(2, 120), capability: len(2, 120), environment: { ...ref('Environment'), default: 'sandbox' } },
    ['connectorId', 'capability'],
  ),
  CreateConnection: obj({
    connectorId: len(2, 120),
    environment: ref('Environment'),
    scopeLabel: len(2, 120),
    capabilities: { type: 'array', minItems: 1, maxItems: 24, items: len(2, 120) },
  }),
  CreateKey: obj({ operation: len(2, 80) }),
  CreateWebhook: obj({
    url: { type: 'string', format: 'uri', maxLength: 2048 },
    events: { type: 'array', minItems: 1, items: { type: 'string', enum: WEBHOOK_EVENTS } },
  }),
};
