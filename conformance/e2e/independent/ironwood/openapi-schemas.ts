// The `data` schemas of ironwood's answers per route ("METHOD path"), so the OpenAPI document states each
// answer's required fields as served, and the response headers every authenticated answer carries.
import { ENVIRONMENTS } from './validate.ts';

const s = { type: 'string' };
const b = { type: 'boolean' };
const int = { type: 'integer', minimum: 0 };
const dt = { type: 'string', format: 'date-time' };
const arr = (items: unknown) => ({ type: 'array', items });
const o = (properties: Record<string, unknown>, required = Object.keys(properties)) => ({
  type: 'object',
  properties,
  required,
});
const env = { type: 'string', enum: [...ENVIRONMENTS] };

const provider = o({ id: s, name: s, category: s, summary: s });
const connector = o({ id: s, providerId: s, name: s, category: s, capabilities: arr(s) });
const capability = o({ id: s, label: s, critical: b, idempotencyRequired: b });
const decision = o({ connectorId: s, capability: s, allowed: b, critical: b, idempotencyRequired: b, reason: s });
const connection = o({
  id: { type: 'string', format: 'uuid' },
  connectorId: s,
  environment: env,
  scopeLabel: s,
  state: { type: 'string', enum: ['Provisioning', 'Succeeded'] },
  capabilities: arr(o({ capability: s, critical: b, idempotencyRequired: b })),
  nextStep: { type: 'string', enum: ['WaitForProvisioning', 'None'] },
  createdAt: dt,
});
const delivery = o({
  id: s,
  webhookId: s,
  eventId: s,
  eventType: s,
  status: { type: 'string', enum: ['Pending', 'Retrying', 'Succeeded', 'Failed'] },
  attempts: int,
  responseStatus: { type: ['integer', 'null'] },
  createdAt: dt,
  lastAttemptAt: { type: ['string', 'null'], format: 'date-time' },
  redeliveryOf: { type: ['string', 'null'] },
});
const webhook = o({ id: s, url: s, events: arr(s), createdAt: dt });
const b64 = { type: 'string', contentEncoding: 'base64' };
const auditEntry = o({
  id: s,
  index: int,
  at: dt,
  action: s,
  resourceType: s,
  resourceId: s,
  clientId: s,
  requestId: s,
  leafHash: b64,
  auditPath: arr(b64),
});

export const DATA_SCHEMAS: Record<string, unknown> = {
  'GET /api/public/v1': o({
    service: s,
    surface: s,
    version: s,
    authentication: { type: 'object' },
    idempotency: { type: 'object' },
    routes: arr(o({ method: s, path: s, purpose: s, auth: b })),
  }),
  'GET /api/public/v1/info': o({ tenant: s, clientId: s, environment: env, region: s }),
  'GET /api/public/v1/providers': o({ count: int, providers: arr(provider) }),
  'GET /api/public/v1/connectors': o({ count: int, connectors: arr(connector) }),
  'GET /api/public/v1/capabilities': o({ count: int, capabilities: arr(capability) }),
  'POST /api/public/v1/capabilities': o({ decision, environment: env }),
  'GET /api/public/v1/connections': o({ tenant: s, count: int, connections: arr(connection) }),
  'POST /api/public/v1/connections': connection,
  'POST /api/public/v1/idempotency-keys': o({ idempotencyKey: s, operation: s, expiresAt: dt }),
  'POST /api/public/v1/webhooks': o({ ...webhook.properties, signingKey: s, signatureHeader: s }),
  'GET /api/public/v1/webhooks': o({ count: int, webhooks: arr(webhook) }),
  'DELETE /api/public/v1/webhooks/{webhookId}': o({ id: s, deleted: b }),
  'GET /api/public/v1/webhook-deliveries': o({ webhookId: s, count: int, deliveries: arr(delivery) }),
  'POST /api/public/v1/webhook-deliveries/{deliveryId}:redeliver': delivery,
  'GET /api/public/v1/audit-log': o(
    {
      count: int,
      treeHead: o({ size: int, rootHash: b64, algorithm: { type: 'string', const: 'sha256' } }),
      entries: arr(auditEntry),
      '@odata.nextLink': { type: 'string', format: 'uri' },
    },
    ['count', 'treeHead', 'entries'],
  ),
};

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

const numeric = (description: string) => ({ description, schema: { type: 'integer', minimum: 0 } });

/** Headers of every authenticated answer (counted or not), and the extra ones of a 429. */
export const RATE_HEADERS = {
  'X-RateLimit-Limit': numeric('calls allowed per token in the sliding window'),
  'X-RateLimit-Remaining': numeric('calls left in the window'),
  'x-ironwood-request-id': { description: 'equals meta.requestId', schema: { type: 'string', format: 'uuid' } },
};
export const RETRY_HEADERS = {
  ...RATE_HEADERS,
  'Retry-After': numeric('seconds to wait'),
  'retry-after-ms': numeric('milliseconds to wait'),
};
