// banyan's catalog: providers, connectors and capabilities (invented test data only, as a sandbox holds).
export interface Provider {
  id: string;
  name: string;
  category: string;
  summary: string;
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
}

export const ENVIRONMENTS = ['development', 'sandbox', 'pilot', 'production'];

export const PROVIDERS: Provider[] = [
  { id: 'prv-tillpoint', name: 'Tillpoint', category: 'pos', summary: 'Point-of-sale terminals for venues' },
  { id: 'prv-paywave', name: 'Paywave', category: 'payments', summary: 'Card and wallet acceptance' },
  { id: 'prv-ledgerly', name: 'Ledgerly', category: 'accounting', summary: 'Bookkeeping exports' },
  { id: 'prv-tablebook', name: 'Tablebook', category: 'reservations', summary: 'Table reservations' },
];

export const CAPABILITIES: Capability[] = [
  { id: 'orders.read', label: 'Read orders', critical: false, idempotencyRequired: false },
  { id: 'orders.write', label: 'Create orders', critical: true, idempotencyRequired: true },
  { id: 'payments.capture', label: 'Capture payments', critical: true, idempotencyRequired: true },
  { id: 'payments.refund', label: 'Refund payments', critical: true, idempotencyRequired: true },
  { id: 'ledger.export', label: 'Export ledger entries', critical: false, idempotencyRequired: true },
  { id: 'reservations.read', label: 'Read reservations', critical: false, idempotencyRequired: false },
  { id: 'menu.sync', label: 'Synchronise menus', critical: false, idempotencyRequired: false },
];

export const CONNECTORS: Connector[] = [
  {
    id: 'con-tillpoint-pos',
    providerId: 'prv-tillpoint',
    name: 'Tillpoint POS',
    category: 'pos',
    capabilities: ['orders.read', 'orders.write', 'menu.sync'],
  },
  {
    id: 'con-paywave-cards',
    providerId: 'prv-paywave',
    name: 'Paywave Cards',
    category: 'payments',
    capabilities: ['payments.capture', 'payments.refund'],
  },
  {
    id: 'con-ledgerly-export',
    providerId: 'prv-ledgerly',
    name: 'Ledgerly Export',
    category: 'accounting',
    capabilities: ['ledger.export', 'orders.read'],
  },
  {
    id: 'con-tablebook-sync',
    providerId: 'prv-tablebook',
    name: 'Tablebook Sync',
    category: 'reservations',
    capabilities: ['reservations.read'],
  },
];

export const capabilityById = (id: string) => CAPABILITIES.find((c) => c.id === id);
export const connectorById = (id: string) => CONNECTORS.find((c) => c.id === id);
