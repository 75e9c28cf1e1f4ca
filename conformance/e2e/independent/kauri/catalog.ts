// Seeded catalog, as a Camel `bean:` registry would hold it after startup: providers, connectors, capabilities.
export interface Provider {
  id: string;
  name: string;
  category: string;
  summary: string;
  homeRegion: string;
}
export interface Connector {
  id: string;
  providerId: string;
  name: string;
  category: string;
  capabilities: string[];
  camelComponent: string;
}
export interface Capability {
  id: string;
  label: string;
  critical: boolean;
  idempotencyRequired: boolean;
  kafkaTopic: string;
}

export const PROVIDERS: Provider[] = [
  { id: 'tui-pos', name: 'Tui POS', category: 'pos', summary: 'Point of sale for cafes and bars', homeRegion: 'nz' },
  {
    id: 'pohutukawa-pay',
    name: 'Pohutukawa Pay',
    category: 'payments',
    summary: 'Card and wallet payments',
    homeRegion: 'nz',
  },
  {
    id: 'weka-delivery',
    name: 'Weka Delivery',
    category: 'delivery',
    summary: 'Courier and delivery platform',
    homeRegion: 'au',
  },
  { id: 'kiwi-books', name: 'Kiwi Books', category: 'accounting', summary: 'Ledger and invoicing', homeRegion: 'nz' },
];

export const CAPABILITIES: Capability[] = [
  { id: 'orders.read', label: 'Read orders', critical: false, idempotencyRequired: false, kafkaTopic: 'orders' },
  { id: 'orders.create', label: 'Create orders', critical: true, idempotencyRequired: true, kafkaTopic: 'orders' },
  { id: 'menu.sync', label: 'Synchronise menu', critical: false, idempotencyRequired: false, kafkaTopic: 'menu' },
  {
    id: 'payments.capture',
    label: 'Capture payments',
    critical: true,
    idempotencyRequired: true,
    kafkaTopic: 'payments',
  },
  {
    id: 'payments.refund',
    label: 'Refund payments',
    critical: true,
    idempotencyRequired: true,
    kafkaTopic: 'payments',
  },
  {
    id: 'ledger.export',
    label: 'Export ledger entries',
    critical: false,
    idempotencyRequired: true,
    kafkaTopic: 'ledger',
  },
];

export const CONNECTORS: Connector[] = [
  {
    id: 'tui-pos-orders',
    providerId: 'tui-pos',
    name: 'Tui POS orders',
    category: 'pos',
    capabilities: ['orders.read', 'orders.create', 'menu.sync'],
    camelComponent: 'rest',
  },
  {
    id: 'tui-pos-menu',
    providerId: 'tui-pos',
    name: 'Tui POS menu',
    category: 'pos',
    capabilities: ['menu.sync'],
    camelComponent: 'rest',
  },
  {
    id: 'pohutukawa-pay-cards',
    providerId: 'pohutukawa-pay',
    name: 'Pohutukawa card payments',
    category: 'payments',
    capabilities: ['payments.capture', 'payments.refund'],
    camelComponent: 'http',
  },
  {
    id: 'weka-delivery-dispatch',
    providerId: 'weka-delivery',
    name: 'Weka dispatch',
    category: 'delivery',
    capabilities: ['orders.read'],
    camelComponent: 'kafka',
  },
  {
    id: 'kiwi-books-ledger',
    providerId: 'kiwi-books',
    name: 'Kiwi Books ledger',
    category: 'accounting',
    capabilities: ['ledger.export', 'orders.read'],
    camelComponent: 'sftp',
  },
];

export const ENVIRONMENTS = ['development', 'sandbox', 'pilot', 'production'] as const;
export type Environment = (typeof ENVIRONMENTS)[number];

export function capability(id: string): Capability | undefined {
  return CAPABILITIES.find((c) => c.id === id);
}
export function connector(id: string): Connector | undefined {
  return CONNECTORS.find((c) => c.id === id);
}
