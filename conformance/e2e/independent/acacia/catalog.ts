// The "system API" data behind the experience API: catalog, tenants and OAuth clients (invented test data).
export interface Provider {
  id: string;
  name: string;
  category: string;
  summary: string;
  region: string;
}
export interface Connector {
  id: string;
  providerId: string;
  name: string;
  category: string;
  capabilities: string[];
  slaTier: string;
}
export interface Capability {
  id: string;
  label: string;
  critical: boolean;
  idempotencyRequired: boolean;
  domain: string;
}

export const PROVIDERS: Provider[] = [
  {
    id: 'PRV-NORTHWIND-PAY',
    name: 'Northwind Payments',
    category: 'payments',
    summary: 'Card and wallet acceptance',
    region: 'EU',
  },
  {
    id: 'PRV-TILLCRAFT',
    name: 'Tillcraft POS',
    category: 'point-of-sale',
    summary: 'Counter and table service tills',
    region: 'EU',
  },
  {
    id: 'PRV-ROUTEWISE',
    name: 'Routewise Couriers',
    category: 'delivery',
    summary: 'Last-mile courier dispatch',
    region: 'US',
  },
  { id: 'PRV-LEDGERLY', name: 'Ledgerly', category: 'accounting', summary: 'Bookkeeping exports', region: 'EU' },
];

export const CAPABILITIES: Capability[] = [
  { id: 'payments.capture', label: 'Capture a payment', critical: true, idempotencyRequired: true, domain: 'payments' },
  { id: 'payments.refund', label: 'Refund a payment', critical: true, idempotencyRequired: true, domain: 'payments' },
  { id: 'orders.read', label: 'Read orders', critical: false, idempotencyRequired: false, domain: 'orders' },
  {
    id: 'orders.write',
    label: 'Create and update orders',
    critical: true,
    idempotencyRequired: true,
    domain: 'orders',
  },
  { id: 'menu.sync', label: 'Synchronise the menu', critical: false, idempotencyRequired: true, domain: 'catalog' },
  {
    id: 'delivery.dispatch',
    label: 'Dispatch a courier',
    critical: true,
    idempotencyRequired: true,
    domain: 'delivery',
  },
  { id: 'delivery.track', label: 'Track a courier', critical: false, idempotencyRequired: false, domain: 'delivery' },
  { id: 'ledger.export', label: 'Export bookings', critical: false, idempotencyRequired: false, domain: 'accounting' },
];

export const CONNECTORS: Connector[] = [
  {
    id: 'CNR-NORTHWIND-CARDS',
    providerId: 'PRV-NORTHWIND-PAY',
    name: 'Northwind Cards',
    category: 'payments',
    capabilities: ['payments.capture', 'payments.refund'],
    slaTier: 'gold',
  },
  {
    id: 'CNR-TILLCRAFT-COUNTER',
    providerId: 'PRV-TILLCRAFT',
    name: 'Tillcraft Counter',
    category: 'point-of-sale',
    capabilities: ['orders.read', 'orders.write', 'menu.sync'],
    slaTier: 'silver',
  },
  {
    id: 'CNR-TILLCRAFT-KDS',
    providerId: 'PRV-TILLCRAFT',
    name: 'Tillcraft Kitchen Display',
    category: 'point-of-sale',
    capabilities: ['orders.read'],
    slaTier: 'bronze',
  },
  {
    id: 'CNR-ROUTEWISE-DISPATCH',
    providerId: 'PRV-ROUTEWISE',
    name: 'Routewise Dispatch',
    category: 'delivery',
    capabilities: ['delivery.dispatch', 'delivery.track', 'orders.read'],
    slaTier: 'gold',
  },
  {
    id: 'CNR-LEDGERLY-EXPORT',
    providerId: 'PRV-LEDGERLY',
    name: 'Ledgerly Export',
    category: 'accounting',
    capabilities: ['ledger.export'],
    slaTier: 'silver',
  },
];

export const ENVIRONMENTS = ['development', 'sandbox', 'pilot', 'production'];

/** Tenants known to the business groups; only released ones may be acted for. */
export const TENANTS = {
  main: 'acacia-retail-eu',
  other: 'acacia-retail-us',
  foreign: 'acacia-wholesale',
};

export interface Client {
  clientId: string;
  clientSecret: string;
  tenants: string[];
  slaTier: string;
}

export const CLIENT: Client = {
  clientId: 'acacia-exp-api-client',
  clientSecret: 'acacia-sandbox-5f1c7e2a9b3d4068',
  tenants: [TENANTS.main, TENANTS.other],
  slaTier: 'gold',
};

export function capabilityById(id: string): Capability | undefined {
  return CAPABILITIES.find((c) => c.id === id);
}
export function connectorById(id: string): Connector | undefined {
  return CONNECTORS.find((c) => c.id === id);
}
