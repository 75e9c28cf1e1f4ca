// The read-only catalog (providers, connectors, capabilities), seeded like a fixture table in PostgreSQL.
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
  status: 'available' | 'paused';
}

export interface Capability {
  id: string;
  label: string;
  critical: boolean;
  idempotencyRequired: boolean;
  description: string;
}

export const CAPABILITIES: readonly Capability[] = [
  {
    id: 'orders.read',
    label: 'Read orders',
    critical: false,
    idempotencyRequired: false,
    description: 'List and fetch orders.',
  },
  {
    id: 'orders.write',
    label: 'Create orders',
    critical: true,
    idempotencyRequired: true,
    description: 'Place orders.',
  },
  {
    id: 'payments.capture',
    label: 'Capture payments',
    critical: true,
    idempotencyRequired: true,
    description: 'Capture authorised payments.',
  },
  {
    id: 'payments.refund',
    label: 'Refund payments',
    critical: true,
    idempotencyRequired: true,
    description: 'Refund captured payments.',
  },
  {
    id: 'menu.sync',
    label: 'Synchronise menus',
    critical: false,
    idempotencyRequired: true,
    description: 'Push menus and prices.',
  },
  {
    id: 'inventory.read',
    label: 'Read stock levels',
    critical: false,
    idempotencyRequired: false,
    description: 'Stock per item.',
  },
  {
    id: 'reservations.manage',
    label: 'Manage reservations',
    critical: false,
    idempotencyRequired: true,
    description: 'Book and cancel tables.',
  },
  {
    id: 'loyalty.earn',
    label: 'Earn loyalty points',
    critical: false,
    idempotencyRequired: true,
    description: 'Credit points.',
  },
];

export const PROVIDERS: readonly Provider[] = [
  {
    id: 'tillpoint',
    name: 'Tillpoint',
    category: 'pos',
    summary: 'Point of sale for restaurants.',
    website: 'https://tillpoint.example',
  },
  {
    id: 'paywharf',
    name: 'Paywharf',
    category: 'payments',
    summary: 'Card acquiring and payouts.',
    website: 'https://paywharf.example',
  },
  {
    id: 'tablebook',
    name: 'Tablebook',
    category: 'reservations',
    summary: 'Table reservations.',
    website: 'https://tablebook.example',
  },
  {
    id: 'larderly',
    name: 'Larderly',
    category: 'inventory',
    summary: 'Stock and purchasing.',
    website: 'https://larderly.example',
  },
  {
    id: 'pointsy',
    name: 'Pointsy',
    category: 'loyalty',
    summary: 'Loyalty programmes.',
    website: 'https://pointsy.example',
  },
];

export const CONNECTORS: readonly Connector[] = [
  {
    id: 'tillpoint-orders',
    providerId: 'tillpoint',
    name: 'Tillpoint Orders',
    category: 'pos',
    capabilities: ['orders.read', 'orders.write', 'menu.sync'],
    status: 'available',
  },
  {
    id: 'tillpoint-stock',
    providerId: 'tillpoint',
    name: 'Tillpoint Stock',
    category: 'inventory',
    capabilities: ['inventory.read'],
    status: 'available',
  },
  {
    id: 'paywharf-cards',
    providerId: 'paywharf',
    name: 'Paywharf Cards',
    category: 'payments',
    capabilities: ['payments.capture', 'payments.refund'],
    status: 'available',
  },
  {
    id: 'tablebook-tables',
    providerId: 'tablebook',
    name: 'Tablebook Tables',
    category: 'reservations',
    capabilities: ['reservations.manage'],
    status: 'available',
  },
  {
    id: 'larderly-sync',
    providerId: 'larderly',
    name: 'Larderly Sync',
    category: 'inventory',
    capabilities: ['inventory.read', 'menu.sync'],
    status: 'available',
  },
  {
    id: 'pointsy-earn',
    providerId: 'pointsy',
    name: 'Pointsy Earn',
    category: 'loyalty',
    capabilities: ['loyalty.earn'],
    status: 'paused',
  },
];

export const capabilityById = (id: string): Capability | undefined => CAPABILITIES.find((c) => c.id === id);
export const connectorById = (id: string): Connector | undefined => CONNECTORS.find((c) => c.id === id);

/** Why a connector may not use a capability, or null when it may (the decision's reason when allowed is fixed). */
export function denial(connector: Connector, capability: string): string | null {
  if (!capabilityById(capability)) return `capability ${capability} is not in the catalog`;
  if (!connector.capabilities.includes(capability)) return `connector ${connector.id} does not offer ${capability}`;
  if (connector.status === 'paused') return `connector ${connector.id} is paused`;
  return null;
}
