// The fixed catalog kapok serves: providers, connectors and capabilities. Ids are stable UUIDv7s derived
// from names, so a restart serves the same catalog.
import { stableId } from './http-util.ts';

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

const cap = (id: string, label: string, critical: boolean, idempotencyRequired: boolean): Capability => ({
  id,
  label,
  critical,
  idempotencyRequired,
});

export const CAPABILITIES: Capability[] = [
  cap('orders.read', 'Read orders', false, false),
  cap('orders.write', 'Create and change orders', true, true),
  cap('menu.sync', 'Synchronise the menu', false, true),
  cap('payments.capture', 'Capture payments', true, true),
  cap('payments.refund', 'Refund payments', true, true),
  cap('reservations.manage', 'Manage reservations', false, true),
  cap('inventory.read', 'Read stock levels', false, false),
];

function provider(name: string, category: string, summary: string): Provider {
  return { id: stableId(`provider:${name}`), name, category, summary };
}

export const PROVIDERS: Provider[] = [
  provider('Tillwise', 'pos', 'Point-of-sale terminals for restaurants'),
  provider('Paynest', 'payments', 'Card and wallet payments'),
  provider('Tablebook', 'reservations', 'Table reservations and guest lists'),
  provider('Stockroom', 'inventory', 'Stock and supplier management'),
];

function connector(p: Provider, name: string, capabilities: string[]): Connector {
  return { id: stableId(`connector:${name}`), providerId: p.id, name, category: p.category, capabilities };
}

const [pos, pay, res, inv] = PROVIDERS as [Provider, Provider, Provider, Provider];

export const CONNECTORS: Connector[] = [
  connector(pos, 'Tillwise Orders', ['orders.read', 'orders.write', 'menu.sync']),
  connector(pos, 'Tillwise Menu', ['menu.sync']),
  connector(pay, 'Paynest Checkout', ['payments.capture', 'payments.refund', 'orders.read']),
  connector(res, 'Tablebook Sync', ['reservations.manage']),
  connector(inv, 'Stockroom Feed', ['inventory.read', 'orders.read']),
];

export const capabilityById = (id: string) => CAPABILITIES.find((c) => c.id === id);
export const connectorById = (id: string) => CONNECTORS.find((c) => c.id === id);

export const ENVIRONMENTS = ['development', 'sandbox', 'pilot', 'production'];
