// The network catalog (seeded like a Flyway V1__catalog.sql would seed the Panache entities).
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
  domain: string;
}

export const PROVIDERS: Provider[] = [
  { id: 'prv-lumen-pay', name: 'Lumen Pay', category: 'payments', summary: 'Card and wallet acquiring', country: 'DE' },
  {
    id: 'prv-tablewise',
    name: 'Tablewise',
    category: 'reservations',
    summary: 'Table booking platform',
    country: 'AT',
  },
  { id: 'prv-kitchenflow', name: 'KitchenFlow', category: 'pos', summary: 'Point of sale for kitchens', country: 'DE' },
  { id: 'prv-ledgerly', name: 'Ledgerly', category: 'accounting', summary: 'Bookkeeping exports', country: 'CH' },
];

export const CAPABILITIES: Capability[] = [
  { id: 'payments.capture', label: 'Capture payments', critical: true, idempotencyRequired: true, domain: 'payments' },
  { id: 'payments.refund', label: 'Refund payments', critical: true, idempotencyRequired: true, domain: 'payments' },
  { id: 'orders.read', label: 'Read orders', critical: false, idempotencyRequired: false, domain: 'orders' },
  { id: 'orders.write', label: 'Create orders', critical: true, idempotencyRequired: true, domain: 'orders' },
  {
    id: 'reservations.sync',
    label: 'Synchronise reservations',
    critical: false,
    idempotencyRequired: true,
    domain: 'reservations',
  },
  { id: 'menu.publish', label: 'Publish menus', critical: false, idempotencyRequired: false, domain: 'catalog' },
  {
    id: 'ledger.export',
    label: 'Export ledger entries',
    critical: false,
    idempotencyRequired: true,
    domain: 'accounting',
  },
];

export const CONNECTORS: Connector[] = [
  {
    id: 'con-lumen-terminal',
    providerId: 'prv-lumen-pay',
    name: 'Lumen Terminal',
    category: 'payments',
    capabilities: ['payments.capture', 'payments.refund'],
    protocol: 'rest',
  },
  {
    id: 'con-lumen-online',
    providerId: 'prv-lumen-pay',
    name: 'Lumen Online',
    category: 'payments',
    capabilities: ['payments.capture', 'orders.read'],
    protocol: 'rest',
  },
  {
    id: 'con-tablewise-sync',
    providerId: 'prv-tablewise',
    name: 'Tablewise Sync',
    category: 'reservations',
    capabilities: ['reservations.sync', 'orders.read'],
    protocol: 'webhook',
  },
  {
    id: 'con-kitchenflow-pos',
    providerId: 'prv-kitchenflow',
    name: 'KitchenFlow POS',
    category: 'pos',
    capabilities: ['orders.read', 'orders.write', 'menu.publish'],
    protocol: 'grpc',
  },
  {
    id: 'con-ledgerly-export',
    providerId: 'prv-ledgerly',
    name: 'Ledgerly Export',
    category: 'accounting',
    capabilities: ['ledger.export'],
    protocol: 'sftp',
  },
];

export const capabilityById = (id: string) => CAPABILITIES.find((c) => c.id === id);
export const connectorById = (id: string) => CONNECTORS.find((c) => c.id === id);
