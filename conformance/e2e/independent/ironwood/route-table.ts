// ironwood's route table: what the self-description lists and the OpenAPI document describes.
import { ENVIRONMENTS } from './validate.ts';
import { SIGNATURE_HEADER } from './webhooks.ts';

export interface Route {
  method: string;
  path: string;
  purpose: string;
  auth: boolean;
  key?: boolean;
  body?: Record<string, unknown>;
  query?: { name: string; schema: Record<string, unknown>; required?: boolean }[];
  params?: string[];
  headers?: { name: string; schema: Record<string, unknown> }[];
}

const str = (min: number, max: number) => ({ type: 'string', minLength: min, maxLength: max });
const env = { type: 'string', enum: [...ENVIRONMENTS] };
export const obj = (properties: Record<string, unknown>, required: string[], extra = true) => ({
  type: 'object',
  properties,
  required,
  additionalProperties: extra,
});

export function routes(eventNames: string[]): Route[] {
  return [
    { method: 'GET', path: '/api/public/v1', purpose: 'self-description', auth: false },
    { method: 'GET', path: '/api/public/v1/openapi.json', purpose: 'OpenAPI 3.1 document', auth: false },
    { method: 'GET', path: '/api/public/v1/info', purpose: 'the caller: tenant, client, environment', auth: true },
    {
      method: 'GET',
      path: '/api/public/v1/providers',
      purpose: 'list providers',
      auth: true,
      query: [{ name: 'category', schema: { type: 'string' } }],
    },
    {
      method: 'GET',
      path: '/api/public/v1/connectors',
      purpose: 'list connectors',
      auth: true,
      query: ['capability', 'providerId', 'category'].map((name) => ({ name, schema: { type: 'string' } })),
    },
    { method: 'GET', path: '/api/public/v1/capabilities', purpose: 'capability catalog', auth: true },
    {
      method: 'POST',
      path: '/api/public/v1/capabilities',
      purpose: 'check a capability of a connector',
      auth: true,
      body: obj({ connectorId: str(2, 120), capability: str(2, 120), environment: { ...env, default: 'sandbox' } }, [
        'connectorId',
        'capability',
      ]),
    },
    { method: 'GET', path: '/api/public/v1/connections', purpose: 'connections of the tenant', auth: true },
    {
      method: 'POST',
      path: '/api/public/v1/connections',
      purpose: 'create a connection',
      auth: true,
      key: true,
      body: obj(
        {
          connectorId: str(2, 120),
          environment: env,
          scopeLabel: str(2, 120),
          capabilities: { type: 'array', minItems: 1, maxItems: 24, items: str(2, 120) },
        },
        ['connectorId', 'environment', 'scopeLabel', 'capabilities'],
        false,
      ),
    },
    {
      method: 'POST',
      path: '/api/public/v1/idempotency-keys',
      purpose: 'generate an idempotency key (valid 24 h from issue)',
      auth: true,
      body: obj({ operation: str(2, 80) }, ['operation']),
    },
    {
      method: 'GET',
      path: '/api/public/v1/stream',
      purpose: 'status stream (Server-Sent Events)',
      auth: false,
      query: [{ name: 'cursor', schema: { type: 'integer', minimum: 0 } }],
      headers: [{ name: 'Last-Event-ID', schema: { type: 'string', pattern: '^[0-9]+$' } }],
    },
    {
      method: 'POST',
      path: '/api/public/v1/webhooks',
      purpose: `create a webhook receiver (signature header ${SIGNATURE_HEADER})`,
      auth: true,
      key: true,
      body: obj(
        {
          url: { type: 'string', format: 'uri' },
          events: { type: 'array', minItems: 1, items: { type: 'string', enum: eventNames } },
        },
        ['url', 'events'],
      ),
    },
    { method: 'GET', path: '/api/public/v1/webhooks', purpose: 'webhook receivers of the tenant', auth: true },
    {
      method: 'DELETE',
      path: '/api/public/v1/webhooks/{webhookId}',
      purpose: 'remove a webhook receiver',
      auth: true,
      key: true,
      params: ['webhookId'],
    },
    {
      method: 'GET',
      path: '/api/public/v1/webhook-deliveries',
      purpose: 'delivery log of a webhook receiver',
      auth: true,
      query: [{ name: 'webhookId', schema: { type: 'string' }, required: true }],
    },
    {
      method: 'POST',
      path: '/api/public/v1/webhook-deliveries/{deliveryId}:redeliver',
      purpose: 'trigger a logged delivery again',
      auth: true,
      key: true,
      params: ['deliveryId'],
    },
    {
      method: 'GET',
      path: '/api/public/v1/audit-log',
      purpose: 'audit log of the tenant with Merkle inclusion proofs',
      auth: true,
      query: [
        { name: 'limit', schema: { type: 'integer', minimum: 1, maximum: 1000 } },
        { name: '$top', schema: { type: 'integer', minimum: 1, maximum: 1000 } },
        { name: '$skiptoken', schema: { type: 'string' } },
      ],
    },
  ];
}
