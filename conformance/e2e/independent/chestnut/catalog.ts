// The catalog: invented test data only (a sandbox), ids in the Kubernetes DNS-label style.
export interface Capability {
  id: string;
  label: string;
  critical: boolean;
  idempotencyRequired: boolean;
}
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

export const CAPABILITIES: Capability[] = [
  { id: 'orders.read', label: 'Read orders', critical: false, idempotencyRequired: false },
  { id: 'orders.write', label: 'Create orders', critical: true, idempotencyRequired: true },
  { id: 'payments.capture', label: 'Capture payments', critical: true, idempotencyRequired: true },
  { id: 'menu.sync', label: 'Synchronise menus', critical: false, idempotencyRequired: false },
  { id: 'tables.reserve', label: 'Reserve tables', critical: false, idempotencyRequired: true },
  { id: 'refunds.issue', label: 'Issue refunds', critical: true, idempotencyRequired: true },
];

export const PROVIDERS: Provider[] = [
  {
    id: 'prv-kettle-pos',
    name: 'Kettle POS',
    category: 'point-of-sale',
    summary: 'Invented till system for test venues',
  },
  { id: 'prv-copperpay', name: 'CopperPay', category: 'payments', summary: 'Invented card acquirer for the sandbox' },
  { id: 'prv-tablewise', name: 'Tablewise', category: 'reservations', summary: 'Invented booking platform' },
];

export const CONNECTORS: Connector[] = [
  {
    id: 'con-kettle-orders',
    providerId: 'prv-kettle-pos',
    name: 'Kettle orders',
    category: 'point-of-sale',
    capabilities: ['orders.read', 'orders.write', 'menu.sync'],
  },
  {
    id: 'con-kettle-menu',
    providerId: 'prv-kettle-pos',
    name: 'Kettle menu feed',
    category: 'point-of-sale',
    capabilities: ['menu.sync'],
  },
  {
    id: 'con-copperpay-cards',
    providerId: 'prv-copperpay',
    name: 'CopperPay cards',
    category: 'payments',
    capabilities: ['payments.capture', 'refunds.issue'],
  },
  {
    id: 'con-tablewise-bookings',
    providerId: 'prv-tablewise',
    name: 'Tablewise bookings',
    category: 'reservations',
    capabilities: ['tables.reserve', 'orders.read'],
  },
];

export function capability(id: string): Capability | undefined {
  return CAPABILITIES.find((c) => c.id === id);
}

export function connector(id: string): Connector | undefined {
  return CONNECTORS.find((c) => c.id === id);
}
