// Schemas of each operation's `data`, with the fields the interface requires marked required, so the
// document describes the answers exactly as strictly as the contract does (additional fields stay allowed).
import { ENVIRONMENTS, type Rec } from './state.ts';

const s = { type: 'string' };
const b = { type: 'boolean' };
const i = { type: 'integer' };
const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });
const obj = (props: Rec, required = Object.keys(props)): Rec => ({ type: 'object', required, properties: props });
const list = (name: string, item: Rec): Rec => obj({ count: i, [name]: { type: 'array', items: item } });

export const dataSchemas: Record<string, Rec> = {
  Provider: obj({ id: s, name: s, category: s, summary: s }),
  Connector: obj({ id: s, providerId: s, name: s, category: s, capabilities: { type: 'array', items: s } }),
  Capability: obj({ id: s, label: s, critical: b, idempotencyRequired: b }),
  RouteInfo: obj({ method: s, path: s, purpose: s, auth: b }),
  Description: obj({
    service: s,
    surface: s,
    version: s,
    authentication: { type: 'object' },
    idempotency: { type: 'object' },
    routes: { type: 'array', items: ref('RouteInfo') },
  }),
  ProviderList: list('providers', ref('Provider')),
  ConnectorList: list('connectors', ref('Connector')),
  CapabilityList: list('capabilities', ref('Capability')),
  Decision: obj({
    decision: obj({ connectorId: s, capability: s, allowed: b, critical: b, idempotencyRequired: b, reason: s }),
    environment: { type: 'string', enum: ENVIRONMENTS },
  }),
  ConnectionList: obj({ tenant: s, count: i, connections: { type: 'array', items: ref('Connection') } }),
  KeyResult: obj({ idempotencyKey: s, operation: s, expiresAt: { type: 'string', format: 'date-time' } }),
  Info: obj({ service: s, client: s, tenant: s, version: s }),
  WebhookList: list('webhooks', ref('Webhook')),
  JobList: obj({ webhook_id: i, count: i, jobs: { type: 'array', items: ref('Job') } }),
  JobRetry: obj({ id: i, state: s, retries: i, queued: b }),
  Deleted: obj({ id: i, deleted: b }),
  AuditPage: obj(
    {
      tenant: s,
      count: i,
      total: i,
      order: { type: 'string', enum: ['newest-first', 'oldest-first'] },
      entries: { type: 'array', items: { type: 'object' } },
      proof: { type: 'object', description: 'hash chain: algorithm, digest formula, genesis link and head' },
    },
    ['tenant', 'count', 'entries', 'proof'],
  ),
};
