// The catalog wisteria serves: providers, connectors and capabilities (fixed seed data, like a Flyway seed).
export interface Capability {
  id: string;
  label: string;
  critical: boolean;
  idempotencyRequired: boolean;
  description: string;
}

export interface Provider {
  id: string;
  name: string;
  category: string;
  summary: string;
  country: string;
}

export interface Connector {
  id: string;
  providerId: string;
  name: string;
  category: string;
  capabilities: string[];
  status: string;
}

export const ENVIRONMENTS = ['development', 'sandbox', 'pilot', 'production'] as const;

export const CAPABILITIES: Capability[] = [
  { id: 'orders.read', label: 'Read orders', critical: false, idempotencyRequired: false, description: 'Read orders.' },
  {
    id: 'orders.write',
    label: 'Write orders',
    critical: true,
    idempotencyRequired: true,
    description: 'Create orders.',
  },
  {
    id: 'menu.sync',
    label: 'Synchronise menu',
    critical: false,
    idempotencyRequired: true,
    description: 'Push menus.',
  },
  {
    id: 'payments.capture',
    label: 'Capture payments',
    critical: true,
    idempotencyRequired: true,
    description: 'Capture.',
  },
  { id: 'inventory.read', label: 'Read inventory', critical: false, idempotencyRequired: false, description: 'Stock.' },
  {
    id: 'reservations.manage',
    label: 'Manage reservations',
    critical: false,
    idempotencyRequired: true,
    description: 'Tables.',
  },
];

export const PROVIDERS: Provider[] = [
  { id: 'prv-lumen-pos', name: 'Lumen POS', category: 'pos', summary: 'Point of sale for restaurants.', country: 'DE' },
  { id: 'prv-courier-go', name: 'CourierGo', category: 'delivery', summary: 'Delivery platform.', country: 'NL' },
  { id: 'prv-paywise', name: 'Paywise', category: 'payments', summary: 'Card payments.', country: 'AT' },
  { id: 'prv-tablebook', name: 'TableBook', category: 'reservations', summary: 'Table reservations.', country: 'CH' },
];

export const CONNECTORS: Connector[] = [
  {
    id: 'cnr-lumen-orders',
    providerId: 'prv-lumen-pos',
    name: 'Lumen orders',
    category: 'pos',
    capabilities: ['orders.read', 'orders.write', 'menu.sync'],
    status: 'AVAILABLE',
  },
  {
    id: 'cnr-lumen-stock',
    providerId: 'prv-lumen-pos',
    name: 'Lumen stock',
    category: 'pos',
    capabilities: ['inventory.read'],
    status: 'AVAILABLE',
  },
  {
    id: 'cnr-courier-orders',
    providerId: 'prv-courier-go',
    name: 'CourierGo orders',
    category: 'delivery',
    capabilities: ['orders.read', 'menu.sync'],
    status: 'AVAILABLE',
  },
  {
    id: 'cnr-paywise-cards',
    providerId: 'prv-paywise',
    name: 'Paywise cards',
    category: 'payments',
    capabilities: ['payments.capture', 'orders.read'],
    status: 'AVAILABLE',
  },
  {
    id: 'cnr-tablebook',
    providerId: 'prv-tablebook',
    name: 'TableBook sync',
    category: 'reservations',
    capabilities: ['reservations.manage'],
    status: 'AVAILABLE',
  },
];

export function capabilityById(id: string): Capability | undefined {
  return CAPABILITIES.find((c) => c.id === id);
}

export function connectorById(id: string): Connector | undefined {
  return CONNECTORS.find((c) => c.id === id);
}
