// magnolia's catalog: Hasura tables `providers`, `connectors`, `capabilities`, exposed as REST reads.
// Ids are kebab-case slugs (the primary keys of the catalog tables); created records use UUIDv7.

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
    id: 'tillwise',
    name: 'Tillwise',
    category: 'pos',
    summary: 'Point of sale for cafes and bistros',
    website: 'https://tillwise.example',
  },
  {
    id: 'paycurrent',
    name: 'PayCurrent',
    category: 'payments',
    summary: 'Card acquiring and payouts',
    website: 'https://paycurrent.example',
  },
  {
    id: 'rotaflow',
    name: 'RotaFlow',
    category: 'staffing',
    summary: 'Shift planning and time tracking',
    website: 'https://rotaflow.example',
  },
  {
    id: 'larderly',
    name: 'Larderly',
    category: 'inventory',
    summary: 'Stock and supplier orders',
    website: 'https://larderly.example',
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
    id: 'menu.sync',
    label: 'Synchronise menu',
    critical: false,
    idempotencyRequired: false,
    description: 'Push menu items',
  },
  {
    id: 'shifts.read',
    label: 'Read shifts',
    critical: false,
    idempotencyRequired: false,
    description: 'Read planned shifts',
  },
  {
    id: 'stock.read',
    label: 'Read stock levels',
    critical: false,
    idempotencyRequired: false,
    description: 'Read stock levels',
  },
  {
    id: 'stock.order',
    label: 'Order stock',
    critical: true,
    idempotencyRequired: true,
    description: 'Place supplier orders',
  },
];

export const CONNECTORS: Connector[] = [
  {
    id: 'tillwise-pos-v3',
    providerId: 'tillwise',
    name: 'Tillwise POS v3',
    category: 'pos',
    capabilities: ['orders.read', 'orders.write', 'menu.sync'],
    status: 'certified',
  },
  {
    id: 'tillwise-lite',
    providerId: 'tillwise',
    name: 'Tillwise Lite',
    category: 'pos',
    capabilities: ['orders.read'],
    status: 'beta',
  },
  {
    id: 'paycurrent-terminal',
    providerId: 'paycurrent',
    name: 'PayCurrent Terminal',
    category: 'payments',
    capabilities: ['payments.capture', 'payments.refund'],
    status: 'certified',
  },
  {
    id: 'rotaflow-sync',
    providerId: 'rotaflow',
    name: 'RotaFlow Sync',
    category: 'staffing',
    capabilities: ['shifts.read'],
    status: 'certified',
  },
  {
    id: 'larderly-stock',
    providerId: 'larderly',
    name: 'Larderly Stock',
    category: 'inventory',
    capabilities: ['stock.read', 'stock.order'],
    status: 'certified',
  },
];

export const capabilityById = (id: string): Capability | undefined => CAPABILITIES.find((c) => c.id === id);
export const connectorById = (id: string): Connector | undefined => CONNECTORS.find((c) => c.id === id);

/** GET /providers?category= : an unknown category is an empty list, not an error (a filter, not a lookup). */
export function listProviders(q: URLSearchParams): { count: number; providers: Provider[] } {
  const category = q.get('category');
  const providers = PROVIDERS.filter((p) => category === null || p.category === category);
  return { count: providers.length, providers };
}

export function listConnectors(q: URLSearchParams): { count: number; connectors: Connector[] } {
  const capability = q.get('capability');
  const providerId = q.get('providerId');
  const category = q.get('category');
  const connectors = CONNECTORS.filter(
    (c) =>
      (capability === null || c.capabilities.includes(capability)) &&
      (providerId === null || c.providerId === providerId) &&
      (category === null || c.category === category),
  );
  return { count: connectors.length, connectors };
}

export function listCapabilities(): { count: number; capabilities: Capability[] } {
  return { count: CAPABILITIES.length, capabilities: CAPABILITIES };
}

/** The decision: allowed exactly when the connector offers the capability (the same rule creation applies). */
export function decide(connector: Connector, capability: string, environment: string) {
  const cap = capabilityById(capability);
  const allowed = connector.capabilities.includes(capability);
  let reason = allowed ? `offered by ${connector.id} in ${environment}` : `not offered by ${connector.id}`;
  if (!cap) reason = `unknown capability ${capability}`;
  return {
    connectorId: connector.id,
    capability,
    allowed,
    critical: cap?.critical ?? false,
    idempotencyRequired: cap?.idempotencyRequired ?? false,
    reason,
  };
}
