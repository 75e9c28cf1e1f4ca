// The catalog: fixed seed data (a real team loads it into KV at deploy time).
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
  { id: 'menu.sync', label: 'Synchronise the menu', critical: false, idempotencyRequired: true },
  { id: 'payments.capture', label: 'Capture payments', critical: true, idempotencyRequired: true },
  { id: 'payments.refund', label: 'Refund payments', critical: true, idempotencyRequired: true },
  { id: 'tables.status', label: 'Table status', critical: false, idempotencyRequired: false },
];

export const PROVIDERS: Provider[] = [
  { id: 'kassa-nord', name: 'Kassa Nord', category: 'pos', summary: 'Point-of-sale systems for restaurants' },
  { id: 'paywave', name: 'PayWave', category: 'payments', summary: 'Card and wallet payments' },
  { id: 'tablefox', name: 'TableFox', category: 'reservations', summary: 'Table bookings and floor plans' },
];

export const CONNECTORS: Connector[] = [
  {
    id: 'kassa-nord.pos-v2',
    providerId: 'kassa-nord',
    name: 'Kassa Nord POS v2',
    category: 'pos',
    capabilities: ['orders.read', 'orders.write', 'menu.sync'],
  },
  {
    id: 'paywave.terminal',
    providerId: 'paywave',
    name: 'PayWave Terminal',
    category: 'payments',
    capabilities: ['payments.capture', 'payments.refund'],
  },
  {
    id: 'tablefox.floor',
    providerId: 'tablefox',
    name: 'TableFox Floor',
    category: 'reservations',
    capabilities: ['tables.status', 'orders.read'],
  },
];

export const capabilityById = (id: string) => CAPABILITIES.find((c) => c.id === id);
export const connectorById = (id: string) => CONNECTORS.find((c) => c.id === id);
