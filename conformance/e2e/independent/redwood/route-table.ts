// The route table: the self-description's routes and the OpenAPI document's operations come from it,
// so both always list the same endpoints. Also the small schema builders the documents use.
import { EVENT_TYPES } from './webhooks.ts';

export type Schema = Record<string, unknown>;
export interface Route {
  method: string;
  path: string;
  purpose: string;
  auth: boolean;
  key?: 'required' | 'optional';
  query?: Record<string, Schema>;
  body?: Schema;
  data: Schema;
}

export const s = (type: string, extra: Schema = {}): Schema => ({ type, ...extra });
export const obj = (properties: Record<string, Schema>, required = Object.keys(properties)): Schema => ({
  type: 'object',
  properties,
  required,
});
export const ref = (name: string): Schema => ({ $ref: `#/components/schemas/${name}` });
export const arr = (items: Schema): Schema => ({ type: 'array', items });
export const str = (min: number, max: number): Schema => s('string', { minLength: min, maxLength: max });
export const env = ref('Environment');

const P = '/api/public/v1';
export const ROUTES: Route[] = [
  {
    method: 'GET',
    path: P,
    purpose: 'self-description',
    auth: false,
    data: obj({
      service: s('string'),
      surface: s('string'),
      version: s('string'),
      authentication: s('object'),
      idempotency: s('object'),
      routes: arr(ref('RouteInfo')),
    }),
  },
  { method: 'GET', path: `${P}/openapi.json`, purpose: 'OpenAPI 3.1 document', auth: false, data: s('object') },
  {
    method: 'GET',
    path: `${P}/info`,
    purpose: 'who is calling: tenant, client, environment, token expiry',
    auth: true,
    data: obj({
      tenant: s('string'),
      clientId: s('string'),
      environment: env,
      tokenExpiresAt: s('string', { format: 'date-time' }),
    }),
  },
  {
    method: 'GET',
    path: `${P}/providers`,
    purpose: 'list providers',
    auth: true,
    query: { category: s('string') },
    data: obj({ count: s('integer'), providers: arr(ref('Provider')) }),
  },
  {
    method: 'GET',
    path: `${P}/connectors`,
    purpose: 'list connectors',
    auth: true,
    query: { capability: s('string'), providerId: s('string'), category: s('string') },
    data: obj({ count: s('integer'), connectors: arr(ref('Connector')) }),
  },
  {
    method: 'GET',
    path: `${P}/capabilities`,
    purpose: 'capability catalog',
    auth: true,
    data: obj({ count: s('integer'), capabilities: arr(ref('Capability')) }),
  },
  {
    method: 'POST',
    path: `${P}/capabilities`,
    purpose: 'check a capability of a connector',
    auth: true,
    body: obj({ connectorId: str(2, 120), capability: str(2, 120), environment: env }, ['connectorId', 'capability']),
    data: obj({ decision: ref('CapabilityDecision'), environment: env }),
  },
  {
    method: 'GET',
    path: `${P}/connections`,
    purpose: 'connections of the tenant',
    auth: true,
    data: obj({ tenant: s('string'), count: s('integer'), connections: arr(ref('Connection')) }),
  },
  {
    method: 'POST',
    path: `${P}/connections`,
    purpose: 'create a connection',
    auth: true,
    key: 'required',
    body: obj({
      connectorId: str(2, 120),
      environment: env,
      scopeLabel: str(2, 120),
      capabilities: { ...arr(str(2, 120)), minItems: 1, maxItems: 24 },
    }),
    data: ref('Connection'),
  },
  {
    method: 'GET',
    path: `${P}/connections/{connectionId}`,
    purpose: 'one connection of the tenant',
    auth: true,
    data: ref('Connection'),
  },
  {
    method: 'POST',
    path: `${P}/idempotency-keys`,
    purpose: 'generate an idempotency key',
    auth: true,
    key: 'optional',
    body: obj({ operation: str(2, 80) }),
    data: obj({
      idempotencyKey: s('string', { pattern: '^[A-Za-z0-9._:-]{8,128}$' }),
      operation: s('string'),
      expiresAt: s('string', { format: 'date-time' }),
    }),
  },
  {
    method: 'GET',
    path: `${P}/stream`,
    purpose: 'status stream (Server-Sent Events, CloudEvents payloads)',
    auth: false,
    query: { cursor: s('integer', { minimum: 0 }) },
    data: s('object'),
  },
  {
    method: 'POST',
    path: `${P}/webhooks`,
    purpose: 'create a webhook receiver (the signing key is shown once)',
    auth: true,
    key: 'required',
    body: obj({
      url: s('string', { format: 'uri' }),
      events: { ...arr(s('string', { enum: EVENT_TYPES })), minItems: 1 },
    }),
    data: {
      allOf: [ref('Webhook')],
      properties: { signingKey: s('string'), signatureHeader: s('string') },
      required: ['signingKey'],
    },
  },
  {
    method: 'GET',
    path: `${P}/webhooks`,
    purpose: 'webhook receivers of the tenant',
    auth: true,
    data: obj({ count: s('integer'), webhooks: arr(ref('Webhook')) }),
  },
  {
    method: 'GET',
    path: `${P}/webhooks/{webhookId}`,
    purpose: 'one webhook receiver',
    auth: true,
    data: ref('Webhook'),
  },
  {
    method: 'DELETE',
    path: `${P}/webhooks/{webhookId}`,
    purpose: 'remove a webhook receiver',
    auth: true,
    key: 'required',
    data: ref('Webhook'),
  },
  {
    method: 'GET',
    path: `${P}/webhook-deliveries`,
    purpose: 'delivery log of one webhook receiver (?webhook=<id>)',
    auth: true,
    query: {
      webhook: s('string'),
      pageSize: s('integer', { minimum: 0, description: 'default 50; above 500 coerced to 500 (AIP-158)' }),
      pageToken: s('string'),
    },
    // The list is `deliveries`, or `webhookDeliveries` where resources carry only AIP names (REDWOOD_AIP_NAMES).
    data: obj(
      {
        webhook: s('string'),
        count: s('integer'),
        deliveries: arr(ref('WebhookDelivery')),
        webhookDeliveries: arr(ref('WebhookDelivery')),
        nextPageToken: s('string'),
      },
      ['webhook', 'count', 'nextPageToken'],
    ),
  },
  {
    method: 'POST',
    path: `${P}/webhook-deliveries/{deliveryId}:retry`,
    purpose: 'send a logged delivery again',
    auth: true,
    key: 'required',
    // The delivery, or an AIP-151 Operation naming it (REDWOOD_RETRY_AS_OPERATION).
    data: { anyOf: [ref('WebhookDelivery'), obj({ name: s('string'), done: s('boolean'), metadata: s('object') })] },
  },
  {
    method: 'GET',
    path: `${P}/audit-log`,
    purpose: 'audit log of the tenant with a signed checkpoint',
    auth: true,
    query: {
      limit: s('integer', { minimum: 0, description: 'default 50; above 500 coerced to 500 (AIP-158)' }),
      pageToken: s('string'),
    },
    data: obj(
      {
        tenant: s('string'),
        count: s('integer'),
        entries: arr(s('object')),
        auditEntries: arr(s('object')),
        nextPageToken: s('string'),
        checkpoint: { type: ['object', 'null'] },
      },
      ['tenant', 'count', 'nextPageToken', 'checkpoint'],
    ),
  },
];
