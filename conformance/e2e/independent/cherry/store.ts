// One shared state for both listeners (the Repo): tenants, per-tenant integer sequences and the tables.

export const ENVIRONMENTS = ['development', 'sandbox', 'pilot', 'production'];

export interface Tenant {
  id: string;
  released: boolean;
}

export interface ConnectionRow {
  id: string;
  tenant: string;
  connectorId: string;
  environment: string;
  scopeLabel: string;
  state: string;
  capabilities: { capability: string; critical: boolean; idempotencyRequired: boolean }[];
  nextStep: string;
  createdAt: string;
  updatedAt: string;
}

export interface Client {
  id: string;
  secret: string;
  tenants: string[];
  purpose: string;
  owner: string;
  expiresAt: string;
}

export interface TokenRow {
  clientId: string;
  expiresAt: number;
}

export interface Store {
  tenants: Map<string, Tenant>;
  clients: Map<string, Client>;
  tokens: Map<string, TokenRow>;
  connections: ConnectionRow[];
  /** Per tenant and table: the last integer id handed out (Postgres sequences, one per tenant). */
  sequences: Map<string, number>;
}

export function createStore(clientId: string, clientSecret: string): Store {
  const tenants = new Map<string, Tenant>();
  for (const [id, released] of [
    ['cherry-orchard', true],
    ['cherry-grove', true],
    ['cherry-blossom', false],
  ] as const) {
    tenants.set(id, { id, released });
  }
  const clients = new Map<string, Client>();
  clients.set(clientId, {
    id: clientId,
    secret: clientSecret,
    tenants: ['cherry-orchard', 'cherry-grove'],
    purpose: 'conformance testing of the cherry deployment',
    owner: 'platform-team@cherry.example',
    expiresAt: '2027-06-30T23:59:59.000000Z',
  });
  return { tenants, clients, tokens: new Map(), connections: [], sequences: new Map() };
}

/** nextval('<table>_<tenant>_seq'), rendered as a string. */
export function nextId(store: Store, tenant: string, table: string): string {
  const key = `${tenant}/${table}`;
  const n = (store.sequences.get(key) ?? 0) + 1;
  store.sequences.set(key, n);
  return String(n);
}

export function connectionView(c: ConnectionRow): Record<string, unknown> {
  return {
    id: c.id,
    type: 'connection',
    connectorId: c.connectorId,
    environment: c.environment,
    scopeLabel: c.scopeLabel,
    state: c.state,
    capabilities: c.capabilities.map((x) => ({ ...x })),
    nextStep: c.nextStep,
    createdAt: c.createdAt,
    updatedAt: c.updatedAt,
  };
}
