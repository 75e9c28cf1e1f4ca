// Component schemas of the OpenAPI document and the data schema of each operation's success answer.
import { ENVIRONMENTS } from './validate.ts';
import { EVENT_NAMES } from './webhooks.ts';

export const str = (min?: number, max?: number) => ({
  type: 'string',
  ...(min ? { minLength: min } : {}),
  ...(max ? { maxLength: max } : {}),
});
export const obj = (
  properties: Record<string, unknown>,
  required: string[] = Object.keys(properties),
  additional = true,
) => ({
  type: 'object',
  properties,
  required,
  additionalProperties: additional,
});
export const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });
export const list = (name: string, item: string) =>
  obj({ count: { type: 'integer' }, [name]: { type: 'array', items: ref(item) } });

export const SCHEMAS: Record<string, unknown> = {
  Meta: obj(
    {
      requestId: str(),
      version: str(),
      at: { type: 'string', format: 'date-time' },
      idempotencyKey: str(),
      replayed: { type: 'boolean' },
    },
    ['requestId', 'version', 'at'],
  ),
  Failure: obj({
    ok: { const: false },
    error: obj(
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
        message: str(),
        detail: str(),
        hint: str(),
        traceId: str(),
      },
      ['code', 'message'],
    ),
    meta: ref('Meta'),
  }),
  Environment: { type: 'string', enum: [...ENVIRONMENTS] },
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
    id: { type: 'string', format: 'uuid' },
    connectorId: str(),
    environment: ref('Environment'),
    scopeLabel: str(),
    state: { type: 'string', enum: ['Pending', 'Active', 'Suspended'] },
    capabilities: {
      type: 'array',
      items: obj({ capability: str(), critical: { type: 'boolean' }, idempotencyRequired: { type: 'boolean' } }),
    },
    nextStep: { type: 'string', enum: ['WaitForActivation', 'None', 'ContactSupport'] },
    createdAt: { type: 'string', format: 'date-time' },
  }),
  RouteInfo: obj({ method: str(), path: str(), purpose: str(), auth: { type: 'boolean' } }),
  IdempotencyKeyResult: obj({
    idempotencyKey: str(),
    operation: str(),
    expiresAt: { type: 'string', format: 'date-time' },
  }),
  CapabilityCheckRequest: obj(
    { connectorId: str(2, 120), capability: str(2, 120), environment: ref('Environment') },
    ['connectorId', 'capability'],
    false,
  ),
  CreateConnectionRequest: obj(
    {
      connectorId: str(2, 120),
      environment: ref('Environment'),
      scopeLabel: str(2, 120),
      capabilities: { type: 'array', minItems: 1, maxItems: 24, items: str(2, 120) },
    },
    undefined,
    false,
  ),
  IdempotencyKeyRequest: obj({ operation: str(2, 80) }, undefined, false),
  CreateWebhookRequest: obj(
    {
      url: { type: 'string', format: 'uri' },
      events: { type: 'array', minItems: 1, items: { type: 'string', enum: EVENT_NAMES } },
    },
    undefined,
    false,
  ),
};

export const DATA: Record<string, unknown> = {
  GetServiceDescription: obj({
    service: str(),
    surface: str(),
    version: str(),
    authentication: { type: 'object' },
    idempotency: { type: 'object' },
    routes: { type: 'array', items: ref('RouteInfo') },
  }),
  ListProviders: list('providers', 'Provider'),
  ListConnectors: list('connectors', 'Connector'),
  ListCapabilities: list('capabilities', 'Capability'),
  CheckCapability: obj({ decision: ref('CapabilityDecision'), environment: ref('Environment') }),
  ListConnections: obj({
    tenant: str(),
    count: { type: 'integer' },
    connections: { type: 'array', items: ref('Connection') },
  }),
  CreateConnection: ref('Connection'),
  CreateIdempotencyKey: ref('IdempotencyKeyResult'),
};
