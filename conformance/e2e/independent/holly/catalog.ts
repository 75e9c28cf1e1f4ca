// The network catalog: providers, connectors, capabilities. Ids are short resource-name segments.
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
  { id: 'menu.read', label: 'Read the menu', critical: false, idempotencyRequired: false },
  { id: 'menu.publish', label: 'Publish the menu', critical: false, idempotencyRequired: true },
  { id: 'orders.receive', label: 'Receive orders', critical: true, idempotencyRequired: true },
  { id: 'orders.status', label: 'Report order status', critical: false, idempotencyRequired: true },
  { id: 'payments.capture', label: 'Capture payments', critical: true, idempotencyRequired: true },
  { id: 'payments.refund', label: 'Refund payments', critical: true, idempotencyRequired: true },
  { id: 'table.reserve', label: 'Reserve tables', critical: false, idempotencyRequired: true },
  { id: 'stock.sync', label: 'Synchronise stock', critical: false, idempotencyRequired: false },
];

export const PROVIDERS: Provider[] = [
  { id: 'northwind-pay', name: 'Northwind Pay', category: 'payments', summary: 'Card and wallet payments' },
  { id: 'tablewise', name: 'Tablewise', category: 'reservations', summary: 'Table reservations and waitlists' },
  { id: 'courierly', name: 'Courierly', category: 'delivery', summary: 'Delivery marketplace orders' },
  { id: 'ledgerline', name: 'Ledgerline', category: 'accounting', summary: 'Bookkeeping exports' },
];

export const CONNECTORS: Connector[] = [
  {
    id: 'northwind-pay-terminal',
    providerId: 'northwind-pay',
    name: 'Northwind terminal',
    category: 'payments',
    capabilities: ['payments.capture', 'payments.refund'],
  },
  {
    id: 'northwind-pay-online',
    providerId: 'northwind-pay',
    name: 'Northwind online checkout',
    category: 'payments',
    capabilities: ['payments.capture', 'payments.refund', 'orders.status'],
  },
  {
    id: 'tablewise-booking',
    providerId: 'tablewise',
    name: 'Tablewise booking',
    category: 'reservations',
    capabilities: ['table.reserve', 'menu.read'],
  },
  {
    id: 'courierly-orders',
    providerId: 'courierly',
    name: 'Courierly orders',
    category: 'delivery',
    capabilities: ['orders.receive', 'orders.status', 'menu.read', 'menu.publish'],
  },
  {
    id: 'ledgerline-export',
    providerId: 'ledgerline',
    name: 'Ledgerline export',
    category: 'accounting',
    capabilities: ['stock.sync'],
  },
];

export function capability(id: string): Capability | undefined {
  return CAPABILITIES.find((c) => c.id === id);
}

export function connector(id: string): Connector | undefined {
  return CONNECTORS.find((c) => c.id === id);
}
