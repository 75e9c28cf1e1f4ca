// The seeded catalog (a Prisma seed script in the original): providers, connectors, capabilities.
export interface Capability {
  id: string;
  label: string;
  critical: boolean;
  idempotencyRequired: boolean;
  description: string;
}

export const CAPABILITIES: Capability[] = [
  {
    id: 'orders.read',
    label: 'Read orders',
    critical: false,
    idempotencyRequired: false,
    description: 'List and read orders',
  },
  {
    id: 'orders.write',
    label: 'Create orders',
    critical: true,
    idempotencyRequired: true,
    description: 'Submit orders',
  },
  {
    id: 'payments.capture',
    label: 'Capture payments',
    critical: true,
    idempotencyRequired: true,
    description: 'Capture authorised payments',
  },
  {
    id: 'menu.sync',
    label: 'Synchronise menu',
    critical: false,
    idempotencyRequired: true,
    description: 'Push menu items',
  },
  {
    id: 'inventory.read',
    label: 'Read inventory',
    critical: false,
    idempotencyRequired: false,
    description: 'Read stock levels',
  },
  {
    id: 'reservations.manage',
    label: 'Manage reservations',
    critical: false,
    idempotencyRequired: true,
    description: 'Book and cancel tables',
  },
];

export const PROVIDERS = [
  {
    id: 'prv_tillhouse',
    name: 'Tillhouse',
    category: 'pos',
    summary: 'Point-of-sale terminals for cafés',
    country: 'DE',
  },
  { id: 'prv_paylark', name: 'Paylark', category: 'payments', summary: 'Card acquiring and payouts', country: 'NL' },
  {
    id: 'prv_tablewise',
    name: 'Tablewise',
    category: 'reservations',
    summary: 'Table booking for restaurants',
    country: 'AT',
  },
];

export const CONNECTORS = [
  {
    id: 'con_tillhouse_pos',
    providerId: 'prv_tillhouse',
    name: 'Tillhouse POS',
    category: 'pos',
    capabilities: ['orders.read', 'orders.write', 'menu.sync'],
  },
  {
    id: 'con_tillhouse_stock',
    providerId: 'prv_tillhouse',
    name: 'Tillhouse Stock',
    category: 'pos',
    capabilities: ['inventory.read'],
  },
  {
    id: 'con_paylark_cards',
    providerId: 'prv_paylark',
    name: 'Paylark Cards',
    category: 'payments',
    capabilities: ['payments.capture', 'orders.read'],
  },
  {
    id: 'con_tablewise_book',
    providerId: 'prv_tablewise',
    name: 'Tablewise Booking',
    category: 'reservations',
    capabilities: ['reservations.manage'],
  },
];

export const capabilityById = (id: string): Capability | undefined => CAPABILITIES.find((c) => c.id === id);
export const connectorById = (id: string) => CONNECTORS.find((c) => c.id === id);

/** The decision of a capability check: allowed when the connector offers the capability. */
export function decide(connectorId: string, capability: string) {
  const connector = connectorById(connectorId);
  const cap = capabilityById(capability);
  const offered = Boolean(connector && cap && connector.capabilities.includes(capability));
  const reason = !connector
    ? 'connector_unknown'
    : !cap
      ? 'capability_unknown'
      : offered
        ? 'offered_by_connector'
        : 'not_offered_by_connector';
  return {
    connectorId,
    capability,
    allowed: offered,
    critical: cap?.critical ?? false,
    idempotencyRequired: cap?.idempotencyRequired ?? false,
    reason,
  };
}
