// The fixed catalog: providers, connectors and capabilities (invented test data only, as a sandbox holds).

export interface Capability {
  id: string;
  name: string;
  label: string;
  critical: boolean;
  idempotencyRequired: boolean;
  description: string;
}
export interface Provider {
  id: string;
  name: string;
  displayName: string;
  category: string;
  summary: string;
}
export interface Connector {
  id: string;
  name: string;
  providerId: string;
  category: string;
  capabilities: string[];
  displayName: string;
}

const cap = (id: string, label: string, critical: boolean, idempotencyRequired: boolean): Capability => ({
  id,
  name: `capabilities/${id}`,
  label,
  critical,
  idempotencyRequired,
  description: `${label} through the connector.`,
});

export const CAPABILITIES: Capability[] = [
  cap('orders.read', 'Read orders', false, false),
  cap('orders.write', 'Create and update orders', true, true),
  cap('payments.capture', 'Capture payments', true, true),
  cap('payments.refund', 'Refund payments', true, true),
  cap('menu.sync', 'Synchronise menus', false, true),
  cap('reservations.read', 'Read table reservations', false, false),
  cap('reservations.write', 'Book table reservations', false, true),
  cap('delivery.dispatch', 'Dispatch couriers', true, true),
];

const prov = (id: string, name: string, category: string, summary: string): Provider => ({
  id,
  name,
  displayName: name,
  category,
  summary,
});

export const PROVIDERS: Provider[] = [
  prov('prov-tillwise', 'Tillwise', 'pos', 'Point-of-sale systems for restaurants (invented test provider).'),
  prov('prov-coinlane', 'Coinlane', 'payments', 'Card and wallet payments (invented test provider).'),
  prov('prov-ridebell', 'Ridebell', 'delivery', 'Courier dispatch (invented test provider).'),
  prov('prov-tablenook', 'Tablenook', 'reservations', 'Table reservations (invented test provider).'),
];

const conn = (id: string, providerId: string, displayName: string, category: string, caps: string[]): Connector => ({
  id,
  name: `connectors/${id}`,
  providerId,
  category,
  capabilities: caps,
  displayName,
});

export const CONNECTORS: Connector[] = [
  conn('tillwise-pos', 'prov-tillwise', 'Tillwise POS', 'pos', ['orders.read', 'orders.write', 'menu.sync']),
  conn('tillwise-menu', 'prov-tillwise', 'Tillwise Menu Sync', 'pos', ['menu.sync']),
  conn('coinlane-checkout', 'prov-coinlane', 'Coinlane Checkout', 'payments', ['payments.capture', 'payments.refund']),
  conn('ridebell-dispatch', 'prov-ridebell', 'Ridebell Dispatch', 'delivery', ['delivery.dispatch', 'orders.read']),
  conn('tablenook-book', 'prov-tablenook', 'Tablenook Booking', 'reservations', [
    'reservations.read',
    'reservations.write',
  ]),
];

export const ENVIRONMENTS = ['development', 'sandbox', 'pilot', 'production'] as const;
export type Environment = (typeof ENVIRONMENTS)[number];

// Connector and provider records carry a `name` beside `id`; a connector's public `name` field is
// contractually a display name, so the resource name goes to `resourceName`.
export function publicConnector(c: Connector): Record<string, unknown> {
  return {
    id: c.id,
    providerId: c.providerId,
    name: c.displayName,
    resourceName: c.name,
    category: c.category,
    capabilities: c.capabilities,
  };
}
export function publicProvider(p: Provider): Record<string, unknown> {
  return { id: p.id, name: p.name, resourceName: `providers/${p.id}`, category: p.category, summary: p.summary };
}
export function publicCapability(c: Capability): Record<string, unknown> {
  return {
    id: c.id,
    label: c.label,
    critical: c.critical,
    idempotencyRequired: c.idempotencyRequired,
    resourceName: c.name,
    description: c.description,
  };
}
