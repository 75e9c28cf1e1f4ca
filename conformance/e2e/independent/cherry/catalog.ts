// The network's catalog, seeded like a priv/repo/seeds.exs: providers, connectors and capabilities with slug ids.

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

export const CAPABILITIES: Capability[] = [
  {
    id: 'menu.sync',
    label: 'Menu synchronisation',
    critical: false,
    idempotencyRequired: false,
    description: 'Publishes the menu',
  },
  {
    id: 'orders.receive',
    label: 'Receive orders',
    critical: true,
    idempotencyRequired: true,
    description: 'Takes orders in',
  },
  {
    id: 'orders.status',
    label: 'Order status updates',
    critical: false,
    idempotencyRequired: true,
    description: 'Reports order progress',
  },
  {
    id: 'payments.capture',
    label: 'Capture payments',
    critical: true,
    idempotencyRequired: true,
    description: 'Captures card payments',
  },
  {
    id: 'payments.refund',
    label: 'Refund payments',
    critical: true,
    idempotencyRequired: true,
    description: 'Refunds payments',
  },
  {
    id: 'reservations.read',
    label: 'Read reservations',
    critical: false,
    idempotencyRequired: false,
    description: 'Reads table bookings',
  },
  {
    id: 'inventory.read',
    label: 'Read stock levels',
    critical: false,
    idempotencyRequired: false,
    description: 'Reads stock',
  },
];

export const PROVIDERS: Provider[] = [
  { id: 'orchard-pay', name: 'Orchard Pay', category: 'payments', summary: 'Card and wallet payments', country: 'DE' },
  {
    id: 'stonefruit-delivery',
    name: 'Stonefruit Delivery',
    category: 'delivery',
    summary: 'Delivery platform',
    country: 'AT',
  },
  { id: 'pit-pos', name: 'Pit POS', category: 'pos', summary: 'Point of sale', country: 'CH' },
  {
    id: 'blossom-tables',
    name: 'Blossom Tables',
    category: 'reservations',
    summary: 'Table reservations',
    country: 'DE',
  },
];

export const CONNECTORS: Connector[] = [
  {
    id: 'orchard-pay-terminal',
    providerId: 'orchard-pay',
    name: 'Orchard Pay Terminal',
    category: 'payments',
    capabilities: ['payments.capture', 'payments.refund'],
    status: 'available',
  },
  {
    id: 'stonefruit-orders',
    providerId: 'stonefruit-delivery',
    name: 'Stonefruit Orders',
    category: 'delivery',
    capabilities: ['orders.receive', 'orders.status', 'menu.sync'],
    status: 'available',
  },
  {
    id: 'pit-pos-cloud',
    providerId: 'pit-pos',
    name: 'Pit POS Cloud',
    category: 'pos',
    capabilities: ['menu.sync', 'inventory.read', 'orders.receive'],
    status: 'available',
  },
  {
    id: 'blossom-tables-api',
    providerId: 'blossom-tables',
    name: 'Blossom Tables API',
    category: 'reservations',
    capabilities: ['reservations.read'],
    status: 'beta',
  },
];

export function capability(id: string): Capability | undefined {
  return CAPABILITIES.find((c) => c.id === id);
}

export function connector(id: string): Connector | undefined {
  return CONNECTORS.find((c) => c.id === id);
}

/** The public shape of a capability: the contract's fields plus a description. */
export function capabilityView(c: Capability): Record<string, unknown> {
  return {
    id: c.id,
    type: 'capability',
    label: c.label,
    critical: c.critical,
    idempotencyRequired: c.idempotencyRequired,
    description: c.description,
  };
}

export function providerView(p: Provider): Record<string, unknown> {
  return { ...p, type: 'provider' };
}

export function connectorView(c: Connector): Record<string, unknown> {
  return { ...c, capabilities: [...c.capabilities], type: 'connector' };
}
