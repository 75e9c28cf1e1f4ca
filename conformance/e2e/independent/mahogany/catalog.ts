// The network's catalog: providers, connectors and capabilities (hospitality sample data, invented).

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
export interface Capability {
  id: string;
  label: string;
  critical: boolean;
  idempotencyRequired: boolean;
}

export const CAPABILITIES: Capability[] = [
  { id: 'menu.read', label: 'Read menus', critical: false, idempotencyRequired: false },
  { id: 'menu.sync', label: 'Synchronise menus', critical: false, idempotencyRequired: true },
  { id: 'orders.read', label: 'Read orders', critical: false, idempotencyRequired: false },
  { id: 'orders.create', label: 'Create orders', critical: true, idempotencyRequired: true },
  { id: 'payments.capture', label: 'Capture payments', critical: true, idempotencyRequired: true },
  { id: 'payments.refund', label: 'Refund payments', critical: true, idempotencyRequired: true },
  { id: 'reservations.read', label: 'Read reservations', critical: false, idempotencyRequired: false },
  { id: 'reservations.write', label: 'Write reservations', critical: true, idempotencyRequired: true },
  { id: 'guests.read', label: 'Read guest profiles', critical: false, idempotencyRequired: false },
  { id: 'invoices.export', label: 'Export invoices', critical: false, idempotencyRequired: true },
];

export const PROVIDERS: Provider[] = [
  { id: 'gastrolink', name: 'GastroLink', category: 'pos', summary: 'Point-of-sale systems', country: 'DE' },
  { id: 'tablewise', name: 'Tablewise', category: 'reservations', summary: 'Table reservations', country: 'AT' },
  { id: 'payvault', name: 'PayVault', category: 'payments', summary: 'Card payments', country: 'NL' },
  { id: 'ledgerline', name: 'LedgerLine', category: 'accounting', summary: 'Bookkeeping exports', country: 'CH' },
];

export const CONNECTORS: Connector[] = [
  {
    id: 'gastrolink-pos',
    providerId: 'gastrolink',
    name: 'GastroLink POS',
    category: 'pos',
    capabilities: ['menu.read', 'menu.sync', 'orders.read', 'orders.create'],
    status: 'released',
  },
  {
    id: 'gastrolink-kitchen',
    providerId: 'gastrolink',
    name: 'GastroLink Kitchen Display',
    category: 'pos',
    capabilities: ['orders.read'],
    status: 'released',
  },
  {
    id: 'tablewise-booking',
    providerId: 'tablewise',
    name: 'Tablewise Booking',
    category: 'reservations',
    capabilities: ['reservations.read', 'reservations.write', 'guests.read'],
    status: 'released',
  },
  {
    id: 'payvault-terminal',
    providerId: 'payvault',
    name: 'PayVault Terminal',
    category: 'payments',
    capabilities: ['payments.capture', 'payments.refund', 'orders.read'],
    status: 'released',
  },
  {
    id: 'ledgerline-export',
    providerId: 'ledgerline',
    name: 'LedgerLine Export',
    category: 'accounting',
    capabilities: ['invoices.export', 'orders.read'],
    status: 'released',
  },
];

export const capabilityById = (id: string) => CAPABILITIES.find((c) => c.id === id);
export const connectorById = (id: string) => CONNECTORS.find((c) => c.id === id);
