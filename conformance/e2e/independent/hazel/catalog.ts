// The read-only catalog: providers, connectors and capabilities (seeded, stable ids across restarts).
import { catalogUuid } from './ids.ts';

export type Capability = { id: string; label: string; critical: boolean; idempotencyRequired: boolean; domain: string };
export type Provider = { id: string; name: string; category: string; summary: string; country: string };
export type Connector = {
  id: string;
  providerId: string;
  name: string;
  category: string;
  capabilities: string[];
  lifecycle: 'ga' | 'beta';
};

export const CAPABILITIES: Capability[] = [
  { id: 'orders.read', label: 'Read orders', critical: false, idempotencyRequired: false, domain: 'orders' },
  {
    id: 'orders.write',
    label: 'Create and change orders',
    critical: true,
    idempotencyRequired: true,
    domain: 'orders',
  },
  { id: 'payments.capture', label: 'Capture payments', critical: true, idempotencyRequired: true, domain: 'payments' },
  { id: 'payments.refund', label: 'Refund payments', critical: true, idempotencyRequired: true, domain: 'payments' },
  { id: 'menu.sync', label: 'Synchronise the menu', critical: false, idempotencyRequired: true, domain: 'menu' },
  { id: 'tables.reserve', label: 'Reserve tables', critical: false, idempotencyRequired: true, domain: 'reservations' },
  {
    id: 'invoices.export',
    label: 'Export invoices',
    critical: false,
    idempotencyRequired: false,
    domain: 'accounting',
  },
  { id: 'stock.read', label: 'Read stock levels', critical: false, idempotencyRequired: false, domain: 'inventory' },
];

function provider(name: string, category: string, summary: string, country: string): Provider {
  return { id: catalogUuid(`provider:${name}`), name, category, summary, country };
}

export const PROVIDERS: Provider[] = [
  provider('Lindenpay', 'payments', 'Card and wallet payments for hospitality.', 'DE'),
  provider('Tablewise', 'reservations', 'Table reservations and guest lists.', 'AT'),
  provider('Kassenwerk', 'pos', 'Point-of-sale systems for restaurants.', 'DE'),
  provider('Ledgerly', 'accounting', 'Bookkeeping and invoice archives.', 'CH'),
];

function connector(
  providerName: string,
  name: string,
  capabilities: string[],
  lifecycle: 'ga' | 'beta' = 'ga',
): Connector {
  const p = PROVIDERS.find((x) => x.name === providerName);
  if (!p) throw new Error(`unknown provider ${providerName}`);
  return {
    id: catalogUuid(`connector:${name}`),
    providerId: p.id,
    name,
    category: p.category,
    capabilities,
    lifecycle,
  };
}

export const CONNECTORS: Connector[] = [
  connector('Lindenpay', 'Lindenpay Terminal', ['payments.capture', 'payments.refund', 'orders.read']),
  connector('Lindenpay', 'Lindenpay Online', ['payments.capture', 'orders.read'], 'beta'),
  connector('Tablewise', 'Tablewise Booking', ['tables.reserve', 'orders.read']),
  connector('Kassenwerk', 'Kassenwerk POS', ['orders.read', 'orders.write', 'menu.sync', 'stock.read']),
  connector('Kassenwerk', 'Kassenwerk Kitchen Display', ['orders.read']),
  connector('Ledgerly', 'Ledgerly Export', ['invoices.export', 'orders.read']),
];

export function capabilityById(id: string): Capability | undefined {
  return CAPABILITIES.find((c) => c.id === id);
}

export function connectorById(id: string): Connector | undefined {
  return CONNECTORS.find((c) => c.id === id);
}
