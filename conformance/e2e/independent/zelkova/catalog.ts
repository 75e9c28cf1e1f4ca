// The catalog, as the seed rows of zelkova's `catalog` schema (PostgREST would serve these tables as is).
export interface Capability {
  id: string;
  label: string;
  critical: boolean;
  idempotencyRequired: boolean;
}

export const PROVIDERS = [
  {
    id: 'prv-tablewise',
    name: 'Tablewise',
    category: 'reservations',
    summary: 'table reservations and waitlists',
    region: 'eu',
  },
  { id: 'prv-tillbird', name: 'Tillbird', category: 'payments', summary: 'card payments and payouts', region: 'eu' },
  {
    id: 'prv-larder',
    name: 'Larder Logistics',
    category: 'inventory',
    summary: 'stock levels and purchase orders',
    region: 'eu',
  },
];

export const CAPABILITIES: Capability[] = [
  { id: 'reservations.read', label: 'read reservations', critical: false, idempotencyRequired: false },
  { id: 'reservations.write', label: 'create and change reservations', critical: false, idempotencyRequired: true },
  { id: 'payments.capture', label: 'capture card payments', critical: true, idempotencyRequired: true },
  { id: 'payments.refund', label: 'refund payments', critical: true, idempotencyRequired: true },
  { id: 'inventory.read', label: 'read stock levels', critical: false, idempotencyRequired: false },
  { id: 'orders.submit', label: 'submit purchase orders', critical: false, idempotencyRequired: true },
];

export const CONNECTORS = [
  {
    id: 'con-tablewise-v2',
    providerId: 'prv-tablewise',
    name: 'Tablewise API v2',
    category: 'reservations',
    capabilities: ['reservations.read', 'reservations.write'],
  },
  {
    id: 'con-tillbird-pos',
    providerId: 'prv-tillbird',
    name: 'Tillbird POS',
    category: 'payments',
    capabilities: ['payments.capture', 'payments.refund'],
  },
  {
    id: 'con-larder-edi',
    providerId: 'prv-larder',
    name: 'Larder EDI',
    category: 'inventory',
    capabilities: ['inventory.read', 'orders.submit'],
  },
];

export const capabilityById = (id: string) => CAPABILITIES.find((c) => c.id === id);
export const connectorById = (id: string) => CONNECTORS.find((c) => c.id === id);
