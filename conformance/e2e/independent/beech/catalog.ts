// The seeded catalog (db/seeds.rb): friendly_id slugs as ids, since a connectorId must be 2 to 120 characters
// and an Active Record integer id like "7" would be too short to send back.
const SEEDED_AT = '2026-06-01T08:00:00.000Z';

export interface Provider {
  id: string;
  name: string;
  category: string;
  summary: string;
  created_at: string;
}
export interface Connector {
  id: string;
  providerId: string;
  name: string;
  category: string;
  capabilities: string[];
  provider_id: string;
}
export interface Capability {
  id: string;
  label: string;
  critical: boolean;
  idempotencyRequired: boolean;
}

export const providers: Provider[] = [
  { id: 'paylane', name: 'Paylane', category: 'payments', summary: 'Card and wallet payments', created_at: SEEDED_AT },
  {
    id: 'tablebook',
    name: 'Tablebook',
    category: 'reservations',
    summary: 'Table reservations',
    created_at: SEEDED_AT,
  },
  {
    id: 'kitchenops',
    name: 'KitchenOps',
    category: 'pos',
    summary: 'Point of sale and kitchen display',
    created_at: SEEDED_AT,
  },
  { id: 'ledgerly', name: 'Ledgerly', category: 'accounting', summary: 'Bookkeeping exports', created_at: SEEDED_AT },
];

const connector = (
  id: string,
  providerId: string,
  name: string,
  category: string,
  capabilities: string[],
): Connector => ({
  id,
  providerId,
  name,
  category,
  capabilities,
  provider_id: providerId,
});

export const connectors: Connector[] = [
  connector('paylane-checkout', 'paylane', 'Paylane Checkout', 'payments', [
    'payments.charge',
    'payments.refund',
    'orders.read',
  ]),
  connector('paylane-terminal', 'paylane', 'Paylane Terminal', 'payments', ['payments.charge']),
  connector('tablebook-sync', 'tablebook', 'Tablebook Sync', 'reservations', [
    'reservations.read',
    'reservations.write',
  ]),
  connector('kitchenops-pos', 'kitchenops', 'KitchenOps POS', 'pos', ['orders.read', 'orders.write', 'menu.sync']),
  connector('ledgerly-export', 'ledgerly', 'Ledgerly Export', 'accounting', ['orders.read', 'reports.export']),
];

export const capabilities: Capability[] = [
  { id: 'payments.charge', label: 'Charge a payment', critical: true, idempotencyRequired: true },
  { id: 'payments.refund', label: 'Refund a payment', critical: true, idempotencyRequired: true },
  { id: 'orders.read', label: 'Read orders', critical: false, idempotencyRequired: false },
  { id: 'orders.write', label: 'Write orders', critical: true, idempotencyRequired: true },
  { id: 'menu.sync', label: 'Synchronise the menu', critical: false, idempotencyRequired: true },
  { id: 'reservations.read', label: 'Read reservations', critical: false, idempotencyRequired: false },
  { id: 'reservations.write', label: 'Write reservations', critical: false, idempotencyRequired: true },
  { id: 'reports.export', label: 'Export reports', critical: false, idempotencyRequired: false },
];

export function capabilityOf(id: string): Capability | undefined {
  return capabilities.find((c) => c.id === id);
}
export function connectorOf(id: string): Connector | undefined {
  return connectors.find((c) => c.id === id);
}
