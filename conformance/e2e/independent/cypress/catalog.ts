// The catalog (seeded like db/seeds.rb) and the capability decision. Ids are slugs, as a Rails app with
// friendly_id would publish them.
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
    id: 'payflow',
    name: 'PayFlow',
    category: 'payments',
    summary: 'Card terminals and online payments',
    website: 'https://payflow.example',
  },
  {
    id: 'tablebook',
    name: 'TableBook',
    category: 'reservations',
    summary: 'Table reservations',
    website: 'https://tablebook.example',
  },
  {
    id: 'kitchenlink',
    name: 'KitchenLink',
    category: 'kitchen',
    summary: 'Kitchen display systems',
    website: 'https://kitchenlink.example',
  },
  {
    id: 'ledgerly',
    name: 'Ledgerly',
    category: 'accounting',
    summary: 'Bookkeeping exports',
    website: 'https://ledgerly.example',
  },
];

export const CONNECTORS: Connector[] = [
  {
    id: 'payflow-terminal',
    providerId: 'payflow',
    name: 'PayFlow Terminal',
    category: 'payments',
    capabilities: ['payments.capture', 'payments.refund', 'orders.read'],
  },
  {
    id: 'payflow-online',
    providerId: 'payflow',
    name: 'PayFlow Online',
    category: 'payments',
    capabilities: ['payments.capture'],
  },
  {
    id: 'tablebook-sync',
    providerId: 'tablebook',
    name: 'TableBook Sync',
    category: 'reservations',
    capabilities: ['reservations.read', 'reservations.write'],
  },
  {
    id: 'kitchenlink-kds',
    providerId: 'kitchenlink',
    name: 'KitchenLink KDS',
    category: 'kitchen',
    capabilities: ['orders.read', 'orders.write'],
  },
  {
    id: 'ledgerly-export',
    providerId: 'ledgerly',
    name: 'Ledgerly Export',
    category: 'accounting',
    capabilities: ['accounting.export'],
  },
];

export const CAPABILITIES: Capability[] = [
  {
    id: 'payments.capture',
    label: 'Capture payments',
    critical: true,
    idempotencyRequired: true,
    description: 'Take a payment',
  },
  {
    id: 'payments.refund',
    label: 'Refund payments',
    critical: true,
    idempotencyRequired: true,
    description: 'Pay money back',
  },
  { id: 'orders.read', label: 'Read orders', critical: false, idempotencyRequired: false, description: 'Read orders' },
  {
    id: 'orders.write',
    label: 'Write orders',
    critical: false,
    idempotencyRequired: true,
    description: 'Create and change orders',
  },
  {
    id: 'reservations.read',
    label: 'Read reservations',
    critical: false,
    idempotencyRequired: false,
    description: 'Read reservations',
  },
  {
    id: 'reservations.write',
    label: 'Write reservations',
    critical: false,
    idempotencyRequired: true,
    description: 'Book tables',
  },
  {
    id: 'accounting.export',
    label: 'Export bookkeeping',
    critical: false,
    idempotencyRequired: true,
    description: 'Export journals',
  },
];

export function findCapability(id: string): Capability | undefined {
  return CAPABILITIES.find((c) => c.id === id);
}

export function findConnector(id: string): Connector | undefined {
  return CONNECTORS.find((c) => c.id === id);
}

export interface Decision {
  connectorId: string;
  capability: string;
  allowed: boolean;
  critical: boolean;
  idempotencyRequired: boolean;
  reason: string;
}

/** A capability is allowed where the connector offers it; the flags are the catalog's (unknown: false). */
export function decide(connector: Connector, capability: string, environment: string): Decision {
  const cap = findCapability(capability);
  const offered = connector.capabilities.includes(capability);
  const reason = !cap
    ? `unknown_capability: ${capability} is not in the catalog`
    : offered
      ? `offered: ${connector.id} offers ${capability} in ${environment}`
      : `not_offered: ${connector.id} does not offer ${capability}`;
  return {
    connectorId: connector.id,
    capability,
    allowed: Boolean(cap) && offered,
    critical: cap?.critical ?? false,
    idempotencyRequired: cap?.idempotencyRequired ?? false,
    reason,
  };
}
