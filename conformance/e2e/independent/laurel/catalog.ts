// The catalog: invented test data only (a sandbox). Slug ids, as the team's Postgres tables key them.
export interface Provider {
  id: string;
  name: string;
  category: string;
  summary: string;
  website: string;
}
export interface Connector {
  id: string;
  providerId: string;
  name: string;
  category: string;
  capabilities: string[];
  status: string;
}
export interface Capability {
  id: string;
  label: string;
  critical: boolean;
  idempotencyRequired: boolean;
  description: string;
}

export const PROVIDERS: Provider[] = [
  {
    id: 'tillwave',
    name: 'Tillwave',
    category: 'pos',
    summary: 'Point of sale for small venues',
    website: 'https://tillwave.example',
  },
  {
    id: 'paybridge',
    name: 'Paybridge',
    category: 'payments',
    summary: 'Card and wallet acceptance',
    website: 'https://paybridge.example',
  },
  {
    id: 'shelfsync',
    name: 'Shelfsync',
    category: 'inventory',
    summary: 'Stock levels and reorders',
    website: 'https://shelfsync.example',
  },
  {
    id: 'routemate',
    name: 'Routemate',
    category: 'delivery',
    summary: 'Courier dispatch',
    website: 'https://routemate.example',
  },
];

export const CAPABILITIES: Capability[] = [
  {
    id: 'orders.read',
    label: 'Read orders',
    critical: false,
    idempotencyRequired: false,
    description: 'List and fetch orders',
  },
  {
    id: 'orders.write',
    label: 'Create orders',
    critical: true,
    idempotencyRequired: true,
    description: 'Create and amend orders',
  },
  {
    id: 'menu.sync',
    label: 'Synchronise menus',
    critical: false,
    idempotencyRequired: true,
    description: 'Push menu changes',
  },
  {
    id: 'payments.capture',
    label: 'Capture payments',
    critical: true,
    idempotencyRequired: true,
    description: 'Capture authorised payments',
  },
  {
    id: 'payments.refund',
    label: 'Refund payments',
    critical: true,
    idempotencyRequired: true,
    description: 'Refund captured payments',
  },
  {
    id: 'inventory.read',
    label: 'Read stock levels',
    critical: false,
    idempotencyRequired: false,
    description: 'Read stock',
  },
  {
    id: 'delivery.dispatch',
    label: 'Dispatch couriers',
    critical: true,
    idempotencyRequired: true,
    description: 'Book a courier',
  },
];

export const CONNECTORS: Connector[] = [
  {
    id: 'tillwave-pos',
    providerId: 'tillwave',
    name: 'Tillwave POS',
    category: 'pos',
    capabilities: ['orders.read', 'orders.write', 'menu.sync'],
    status: 'available',
  },
  {
    id: 'tillwave-menu',
    providerId: 'tillwave',
    name: 'Tillwave Menu Feed',
    category: 'pos',
    capabilities: ['menu.sync'],
    status: 'available',
  },
  {
    id: 'paybridge-cards',
    providerId: 'paybridge',
    name: 'Paybridge Cards',
    category: 'payments',
    capabilities: ['payments.capture', 'payments.refund'],
    status: 'available',
  },
  {
    id: 'shelfsync-stock',
    providerId: 'shelfsync',
    name: 'Shelfsync Stock',
    category: 'inventory',
    capabilities: ['inventory.read'],
    status: 'beta',
  },
  {
    id: 'routemate-dispatch',
    providerId: 'routemate',
    name: 'Routemate Dispatch',
    category: 'delivery',
    capabilities: ['delivery.dispatch', 'orders.read'],
    status: 'available',
  },
];

export function findConnector(id: string): Connector | undefined {
  return CONNECTORS.find((c) => c.id === id);
}

export function findCapability(id: string): Capability | undefined {
  return CAPABILITIES.find((c) => c.id === id);
}

/** The decision of a capability check: allowed where the connector offers it (in every environment). */
export function decide(connector: Connector, capability: string, environment: string) {
  const known = findCapability(capability);
  const offered = connector.capabilities.includes(capability);
  let reason = `offered: ${connector.name} offers this capability in ${environment}`;
  if (!known) reason = 'unknown_capability: the capability is not in the catalog';
  else if (!offered) reason = `not_offered: ${connector.name} does not offer this capability`;
  return {
    connectorId: connector.id,
    capability,
    allowed: Boolean(known && offered),
    critical: known?.critical ?? false,
    idempotencyRequired: known?.idempotencyRequired ?? false,
    reason,
  };
}
