// The network catalog: providers, connectors, capabilities. Ids are stable slugs with a type prefix.
export interface Capability {
  id: string;
  label: string;
  critical: boolean;
  idempotencyRequired: boolean;
  domain: string;
}

export const CAPABILITIES: Capability[] = [
  { id: 'orders.read', label: 'Read orders', critical: false, idempotencyRequired: false, domain: 'orders' },
  { id: 'orders.write', label: 'Create orders', critical: true, idempotencyRequired: true, domain: 'orders' },
  { id: 'payments.capture', label: 'Capture payments', critical: true, idempotencyRequired: true, domain: 'payments' },
  { id: 'payments.refund', label: 'Refund payments', critical: true, idempotencyRequired: true, domain: 'payments' },
  { id: 'menu.sync', label: 'Synchronise menus', critical: false, idempotencyRequired: false, domain: 'menu' },
  { id: 'tables.reserve', label: 'Reserve tables', critical: false, idempotencyRequired: true, domain: 'tables' },
];

export const PROVIDERS = [
  { id: 'prv_tillwave', name: 'Tillwave', category: 'pos', summary: 'Point-of-sale terminals', region: 'eu' },
  { id: 'prv_paybridge', name: 'PayBridge', category: 'payments', summary: 'Card acquiring', region: 'eu' },
  { id: 'prv_tablehop', name: 'TableHop', category: 'reservations', summary: 'Table bookings', region: 'us' },
];

export const CONNECTORS = [
  {
    id: 'cnr_tillwave_pos',
    providerId: 'prv_tillwave',
    name: 'Tillwave POS',
    category: 'pos',
    capabilities: ['orders.read', 'orders.write', 'menu.sync'],
  },
  {
    id: 'cnr_paybridge_cards',
    providerId: 'prv_paybridge',
    name: 'PayBridge Cards',
    category: 'payments',
    capabilities: ['payments.capture', 'payments.refund'],
  },
  {
    id: 'cnr_tablehop_book',
    providerId: 'prv_tablehop',
    name: 'TableHop Booking',
    category: 'reservations',
    capabilities: ['tables.reserve', 'orders.read'],
  },
];

export function capability(id: string): Capability | undefined {
  return CAPABILITIES.find((c) => c.id === id);
}

export function connector(id: string) {
  return CONNECTORS.find((c) => c.id === id);
}

/** A capability with its flags as connections and decisions repeat them (the catalog's own). */
export function capFlags(id: string): { critical: boolean; idempotencyRequired: boolean } {
  const c = capability(id);
  return { critical: c?.critical ?? false, idempotencyRequired: c?.idempotencyRequired ?? true };
}
