// The network catalog, as a seed migration would insert it. Ids are slugs (these rows are reference data).
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
  protocol: string;
}
export interface Capability {
  id: string;
  label: string;
  critical: boolean;
  idempotencyRequired: boolean;
}

export const PROVIDERS: Provider[] = [
  {
    id: 'northwind-pos',
    name: 'Northwind POS',
    category: 'pos',
    summary: 'Point of sale for restaurants',
    country: 'DE',
  },
  {
    id: 'tidewater-pay',
    name: 'Tidewater Pay',
    category: 'payments',
    summary: 'Card and wallet payments',
    country: 'NL',
  },
  {
    id: 'larkspur-delivery',
    name: 'Larkspur Delivery',
    category: 'delivery',
    summary: 'Courier marketplace',
    country: 'AT',
  },
];

export const CAPABILITIES: Capability[] = [
  { id: 'orders.read', label: 'Read orders', critical: false, idempotencyRequired: false },
  { id: 'orders.write', label: 'Create and change orders', critical: true, idempotencyRequired: true },
  { id: 'menu.sync', label: 'Synchronise the menu', critical: false, idempotencyRequired: true },
  { id: 'payments.capture', label: 'Capture payments', critical: true, idempotencyRequired: true },
  { id: 'payments.refund', label: 'Refund payments', critical: true, idempotencyRequired: true },
  { id: 'tables.read', label: 'Read table layout', critical: false, idempotencyRequired: false },
];

export const CONNECTORS: Connector[] = [
  {
    id: 'northwind-pos-v3',
    providerId: 'northwind-pos',
    name: 'Northwind POS v3',
    category: 'pos',
    capabilities: ['orders.read', 'orders.write', 'menu.sync', 'tables.read'],
    protocol: 'rest',
  },
  {
    id: 'tidewater-checkout',
    providerId: 'tidewater-pay',
    name: 'Tidewater Checkout',
    category: 'payments',
    capabilities: ['payments.capture', 'payments.refund'],
    protocol: 'rest',
  },
  {
    id: 'larkspur-dispatch',
    providerId: 'larkspur-delivery',
    name: 'Larkspur Dispatch',
    category: 'delivery',
    capabilities: ['orders.read', 'menu.sync'],
    protocol: 'webhook',
  },
];

export const capabilityById = (id: string): Capability | undefined => CAPABILITIES.find((c) => c.id === id);
export const connectorById = (id: string): Connector | undefined => CONNECTORS.find((c) => c.id === id);
