// The catalog of sassafras: fixed GUIDs (seeded from a migration, as an EF Core team would) and dotted capability names.
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
export interface Capability {
  id: string;
  label: string;
  critical: boolean;
  idempotencyRequired: boolean;
}

export const CAPABILITIES: Capability[] = [
  { id: 'orders.read', label: 'Read orders', critical: false, idempotencyRequired: false },
  { id: 'orders.write', label: 'Create and update orders', critical: false, idempotencyRequired: true },
  { id: 'menu.sync', label: 'Synchronise menus', critical: false, idempotencyRequired: true },
  { id: 'payments.capture', label: 'Capture payments', critical: true, idempotencyRequired: true },
  { id: 'payments.refund', label: 'Refund payments', critical: true, idempotencyRequired: true },
  { id: 'deliveries.track', label: 'Track deliveries', critical: false, idempotencyRequired: false },
];

export const PROVIDERS: Provider[] = [
  {
    id: '3f0c9a4e-5b1d-4c2e-9a7f-1d2e3f4a5b6c',
    name: 'Tillwright POS',
    category: 'pos',
    summary: 'Point-of-sale systems for restaurants.',
  },
  {
    id: '7a1b2c3d-4e5f-4a6b-8c7d-9e0f1a2b3c4d',
    name: 'Coinbridge Payments',
    category: 'payments',
    summary: 'Card and wallet payments.',
  },
  {
    id: 'b5c6d7e8-f9a0-4b1c-8d2e-3f4a5b6c7d8e',
    name: 'Swiftcourier',
    category: 'delivery',
    summary: 'Last-mile delivery partners.',
  },
];

export const CONNECTORS: Connector[] = [
  {
    id: 'c1a2b3c4-d5e6-4f70-8a91-b2c3d4e5f601',
    providerId: PROVIDERS[0]?.id ?? '',
    name: 'Tillwright Cloud',
    category: 'pos',
    capabilities: ['orders.read', 'orders.write', 'menu.sync'],
  },
  {
    id: 'c1a2b3c4-d5e6-4f70-8a91-b2c3d4e5f602',
    providerId: PROVIDERS[0]?.id ?? '',
    name: 'Tillwright Legacy',
    category: 'pos',
    capabilities: ['orders.read'],
  },
  {
    id: 'c1a2b3c4-d5e6-4f70-8a91-b2c3d4e5f603',
    providerId: PROVIDERS[1]?.id ?? '',
    name: 'Coinbridge Gateway',
    category: 'payments',
    capabilities: ['payments.capture', 'payments.refund'],
  },
  {
    id: 'c1a2b3c4-d5e6-4f70-8a91-b2c3d4e5f604',
    providerId: PROVIDERS[2]?.id ?? '',
    name: 'Swiftcourier Dispatch',
    category: 'delivery',
    capabilities: ['deliveries.track', 'orders.read'],
  },
];

export function capabilityById(id: string): Capability | undefined {
  return CAPABILITIES.find((c) => c.id === id);
}

export function connectorById(id: string): Connector | undefined {
  return CONNECTORS.find((c) => c.id === id);
}
