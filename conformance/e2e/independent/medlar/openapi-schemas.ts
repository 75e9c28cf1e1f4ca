// Component schemas of the OpenAPI document: the records of the interface and the `data` of each answer,
// keyed by "METHOD path" (operations without an entry answer a free-form object).
import { ENVIRONMENTS } from './util.ts';

type Schema = Record<string, unknown>;

const str: Schema = { type: 'string' };
const bool: Schema = { type: 'boolean' };
const int: Schema = { type: 'integer', minimum: 0 };
const time: Schema = { type: 'string', format: 'date-time' };
const ref = (name: string): Schema => ({ $ref: `#/components/schemas/${name}` });
const arr = (items: Schema): Schema => ({ type: 'array', items });
const obj = (properties: Record<string, Schema>, required = Object.keys(properties)): Schema => ({
  type: 'object',
  properties,
  required,
});

export const RECORD_SCHEMAS: Record<string, Schema> = {
  Environment: { type: 'string', enum: [...ENVIRONMENTS] },
  Provider: obj({ id: str, name: str, category: str, summary: str, createdAt: time }, [
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
      capabilities: arr(str),
      environments: arr(ref('Environment')),
    },
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
  Connection: obj(
    {
      id: str,
      connectorId: str,
      environment: ref('Environment'),
      scopeLabel: str,
      state: { type: 'string', examples: ['pending', 'provisioning', 'active'] },
      capabilities: arr(obj({ capability: str, critical: bool, idempotencyRequired: bool })),
      nextStep: str,
      createdAt: time,
      updatedAt: time,
    },
    ['id', 'connectorId', 'environment', 'scopeLabel', 'state', 'capabilities', 'nextStep', 'createdAt'],
  ),
  RouteInfo: obj({ method: str, path: str, purpose: str, auth: bool }),
  IdempotencyKeyResult: obj({ idempotencyKey: str, operation: str, expiresAt: time }),
};

const P = '/api/public/v1';

export const DATA_SCHEMAS: Record<string, Schema> = {
  [`GET ${P}`]: obj(
    {
      service: str,
      surface: str,
      version: str,
      authentication: { type: 'object' },
      idempotency: { type: 'object' },
      routes: arr(ref('RouteInfo')),
    },
    ['service', 'surface', 'version', 'authentication', 'idempotency', 'routes'],
  ),
  [`GET ${P}/providers`]: obj({ count: int, providers: arr(ref('Provider')) }),
  [`GET ${P}/connectors`]: obj({ count: int, connectors: arr(ref('Connector')) }),
  [`GET ${P}/capabilities`]: obj({ count: int, capabilities: arr(ref('Capability')) }),
  [`POST ${P}/capabilities`]: obj({ decision: ref('CapabilityDecision'), environment: ref('Environment') }),
  [`GET ${P}/connections`]: obj({ tenant: str, count: int, connections: arr(ref('Connection')) }),
  [`POST ${P}/connections`]: ref('Connection'),
  [`POST ${P}/idempotency-keys`]: ref('IdempotencyKeyResult'),
  [`POST ${P}/webhooks`]: obj(
    {
      id: str,
      url: str,
      events: arr(str),
      createdAt: time,
      signingKey: { type: ['string', 'null'] },
      signatureHeader: str,
    },
    ['id', 'url', 'events', 'createdAt', 'signingKey'],
  ),
  [`GET ${P}/audit-log`]: obj(
    {
      tenant: str,
      order: str,
      count: int,
      entries: arr({ type: 'object' }),
      nextCursor: { type: ['string', 'null'] },
      proof: { type: 'object' },
    },
    ['entries', 'proof'],
  ),
};

/** The success envelope of one operation, its `data` described where the interface names the fields. */
export function successSchema(method: string, path: string): Schema {
  const data = DATA_SCHEMAS[`${method} ${path}`] ?? { type: 'object' };
  return obj({ ok: { const: true }, data, meta: ref('Meta') });
}
