// The read-only catalog (Marten documents seeded at start): providers, connectors, capabilities.
export interface Provider {
  id: string;
  name: string;
  category: string;
  summary: string;
  Country: string;
}
export interface Connector {
  id: string;
  providerId: string;
  name: string;
  category: string;
  capabilities: string[];
  Status: string;
}
export interface Capability {
  id: string;
  label: string;
  critical: boolean;
  idempotencyRequired: boolean;
  Kind: string;
}

export const PROVIDERS: Provider[] = [
  { id: 'tillhaus', name: 'Tillhaus POS', category: 'pos', summary: 'Point of sale for restaurants', Country: 'DE' },
  { id: 'paylane', name: 'Paylane', category: 'payments', summary: 'Card and wallet payments', Country: 'NL' },
  { id: 'kurier', name: 'Kurier Direkt', category: 'delivery', summary: 'Last-mile delivery', Country: 'AT' },
  { id: 'tafelbuch', name: 'Tafelbuch', category: 'reservations', summary: 'Table reservations', Country: 'CH' },
];

export const CAPABILITIES: Capability[] = [
  { id: 'menu.read', label: 'Read the menu', critical: false, idempotencyRequired: false, Kind: 'Query' },
  { id: 'menu.write', label: 'Publish the menu', critical: false, idempotencyRequired: true, Kind: 'Command' },
  { id: 'orders.read', label: 'Read orders', critical: false, idempotencyRequired: false, Kind: 'Query' },
  { id: 'orders.create', label: 'Create orders', critical: true, idempotencyRequired: true, Kind: 'Command' },
  { id: 'payments.capture', label: 'Capture payments', critical: true, idempotencyRequired: true, Kind: 'Command' },
  { id: 'payments.refund', label: 'Refund payments', critical: true, idempotencyRequired: true, Kind: 'Command' },
  { id: 'delivery.dispatch', label: 'Dispatch a courier', critical: true, idempotencyRequired: true, Kind: 'Command' },
  { id: 'reservations.read', label: 'Read reservations', critical: false, idempotencyRequired: false, Kind: 'Query' },
];

export const CONNECTORS: Connector[] = [
  {
    id: 'tillhaus-orders',
    providerId: 'tillhaus',
    name: 'Tillhaus Orders',
    category: 'pos',
    capabilities: ['menu.read', 'menu.write', 'orders.read', 'orders.create'],
    Status: 'Available',
  },
  {
    id: 'tillhaus-menu',
    providerId: 'tillhaus',
    name: 'Tillhaus Menu Sync',
    category: 'pos',
    capabilities: ['menu.read', 'menu.write'],
    Status: 'Available',
  },
  {
    id: 'paylane-checkout',
    providerId: 'paylane',
    name: 'Paylane Checkout',
    category: 'payments',
    capabilities: ['payments.capture', 'payments.refund', 'orders.read'],
    Status: 'Available',
  },
  {
    id: 'kurier-dispatch',
    providerId: 'kurier',
    name: 'Kurier Dispatch',
    category: 'delivery',
    capabilities: ['delivery.dispatch', 'orders.read'],
    Status: 'Available',
  },
  {
    id: 'tafelbuch-bookings',
    providerId: 'tafelbuch',
    name: 'Tafelbuch Bookings',
    category: 'reservations',
    capabilities: ['reservations.read'],
    Status: 'Available',
  },
];

export const ENVIRONMENTS = ['development', 'sandbox', 'pilot', 'production'] as const;
export type Environment = (typeof ENVIRONMENTS)[number];

export function isEnvironment(v: unknown): v is Environment {
  return typeof v === 'string' && (ENVIRONMENTS as readonly string[]).includes(v);
}

export const capabilityById = (id: string) => CAPABILITIES.find((c) => c.id === id);
export const connectorById = (id: string) => CONNECTORS.find((c) => c.id === id);
