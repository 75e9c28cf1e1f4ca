// The catalog alder serves: seeded fixtures, the way a Rails app loads db/seeds.rb. Ids are slugs (the
// contract types them as strings); records carry snake_case extras beside the contract's fields.
export interface Provider {
  id: string;
  name: string;
  category: string;
  summary: string;
  created_at: string;
}
export interface Connector {
  id: string;
  providerId: string;
  name: string;
  category: string;
  capabilities: string[];
  created_at: string;
}
export interface Capability {
  id: string;
  label: string;
  critical: boolean;
  idempotencyRequired: boolean;
  created_at: string;
}

const SEEDED = '2026-05-04T09:00:00.000Z';

export const PROVIDERS: Provider[] = [
  { id: 'tillpoint', name: 'Tillpoint', category: 'pos', summary: 'Point of sale for restaurants', created_at: SEEDED },
  { id: 'paycrest', name: 'Paycrest', category: 'payments', summary: 'Card and wallet payments', created_at: SEEDED },
  { id: 'tablewise', name: 'Tablewise', category: 'reservations', summary: 'Table bookings', created_at: SEEDED },
];

export const CAPABILITIES: Capability[] = [
  { id: 'orders.read', label: 'Read orders', critical: false, idempotencyRequired: false, created_at: SEEDED },
  { id: 'orders.write', label: 'Create orders', critical: true, idempotencyRequired: true, created_at: SEEDED },
  { id: 'payments.capture', label: 'Capture payments', critical: true, idempotencyRequired: true, created_at: SEEDED },
  { id: 'payments.refund', label: 'Refund payments', critical: true, idempotencyRequired: true, created_at: SEEDED },
  { id: 'bookings.read', label: 'Read bookings', critical: false, idempotencyRequired: false, created_at: SEEDED },
  { id: 'menu.sync', label: 'Synchronise menus', critical: false, idempotencyRequired: true, created_at: SEEDED },
];

export const CONNECTORS: Connector[] = [
  {
    id: 'tillpoint-pos',
    providerId: 'tillpoint',
    name: 'Tillpoint POS',
    category: 'pos',
    capabilities: ['orders.read', 'orders.write', 'menu.sync'],
    created_at: SEEDED,
  },
  {
    id: 'paycrest-gateway',
    providerId: 'paycrest',
    name: 'Paycrest Gateway',
    category: 'payments',
    capabilities: ['payments.capture', 'payments.refund'],
    created_at: SEEDED,
  },
  {
    id: 'tablewise-bookings',
    providerId: 'tablewise',
    name: 'Tablewise Bookings',
    category: 'reservations',
    capabilities: ['bookings.read'],
    created_at: SEEDED,
  },
];

export function findConnector(id: string): Connector | undefined {
  return CONNECTORS.find((c) => c.id === id);
}

export function findCapability(id: string): Capability | undefined {
  return CAPABILITIES.find((c) => c.id === id);
}

/** The decision of POST /capabilities: a catalog capability the connector lists is allowed everywhere. */
export function decide(connector: Connector, capability: string) {
  const cap = findCapability(capability);
  const offered = connector.capabilities.includes(capability);
  const reason = !cap
    ? 'capability_unknown: the capability is not in the catalog'
    : offered
      ? 'capability_offered: the connector offers this capability'
      : 'capability_not_offered: the connector does not offer this capability';
  return {
    connectorId: connector.id,
    capability,
    allowed: Boolean(cap) && offered,
    critical: cap?.critical ?? false,
    idempotencyRequired: cap?.idempotencyRequired ?? false,
    reason,
  };
}
