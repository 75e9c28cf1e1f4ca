// The catalog: providers, connectors and capabilities (fixed data; ids are short base62 strings).
export interface Capability {
  id: string;
  label: string;
  critical: boolean;
  idempotencyRequired: boolean;
  description: string;
}
export interface Connector {
  id: string;
  providerId: string;
  name: string;
  category: string;
  capabilities: string[];
  /** Baobab's own field: how long activation takes after creation. */
  activationSeconds: number;
}
export interface Provider {
  id: string;
  name: string;
  category: string;
  summary: string;
  country: string;
}

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
    description: 'Place orders',
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
    label: 'Synchronise menus',
    critical: false,
    idempotencyRequired: true,
    description: 'Push menu changes',
  },
  {
    id: 'stock.read',
    label: 'Read stock levels',
    critical: false,
    idempotencyRequired: false,
    description: 'Stock per item',
  },
  {
    id: 'reports.export',
    label: 'Export reports',
    critical: false,
    idempotencyRequired: false,
    description: 'Daily reports',
  },
];

export const PROVIDERS: Provider[] = [
  {
    id: 'Pk7Qx2Lm',
    name: 'Mkate Payments',
    category: 'payments',
    summary: 'Card and mobile money acquiring',
    country: 'KE',
  },
  { id: 'Vr3Nw8Ta', name: 'Sokoni POS', category: 'pos', summary: 'Point of sale for restaurants', country: 'TZ' },
  { id: 'Hd9Ys4Bc', name: 'Ghala Stock', category: 'inventory', summary: 'Inventory and purchasing', country: 'UG' },
];

export const CONNECTORS: Connector[] = [
  {
    id: 'Cn4Tz7Ka',
    providerId: 'Pk7Qx2Lm',
    name: 'Mkate Checkout',
    category: 'payments',
    capabilities: ['payments.capture', 'orders.read'],
    activationSeconds: 3,
  },
  {
    id: 'Cn8Wd2Pe',
    providerId: 'Vr3Nw8Ta',
    name: 'Sokoni Orders',
    category: 'pos',
    capabilities: ['orders.read', 'orders.write', 'menu.sync'],
    activationSeconds: 0.3,
  },
  {
    id: 'Cn1Gh6Rf',
    providerId: 'Vr3Nw8Ta',
    name: 'Sokoni Reports',
    category: 'reporting',
    capabilities: ['reports.export', 'orders.read'],
    activationSeconds: 0.3,
  },
  {
    id: 'Cn5Jq3Mu',
    providerId: 'Hd9Ys4Bc',
    name: 'Ghala Sync',
    category: 'inventory',
    capabilities: ['stock.read', 'menu.sync'],
    activationSeconds: 3,
  },
];

export function capability(id: string): Capability | undefined {
  return CAPABILITIES.find((c) => c.id === id);
}
export function connector(id: string): Connector | undefined {
  return CONNECTORS.find((c) => c.id === id);
}

/** The Connector as served (the activation delay stays internal). */
export function publicConnector(c: Connector): Record<string, unknown> {
  return { id: c.id, providerId: c.providerId, name: c.name, category: c.category, capabilities: c.capabilities };
}
