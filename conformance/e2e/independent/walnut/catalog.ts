// The catalog, as a Django fixture would load it: UUID4 primary keys for providers and connectors,
// slugs for capabilities (a capability is referenced by name in every request body).
export interface Provider {
  id: string;
  name: string;
  category: string;
  summary: string;
  slug: string;
}
export interface Connector {
  id: string;
  providerId: string;
  name: string;
  category: string;
  capabilities: string[];
  /** Connectors not certified for production are decided "not allowed" there (reason given). */
  production_certified: boolean;
}
export interface Capability {
  id: string;
  label: string;
  critical: boolean;
  idempotencyRequired: boolean;
  description: string;
}

const P = {
  tillpoint: '53521f33-ac37-4ef4-9e53-c99402f79093',
  paynorth: 'f1c903ec-45ee-459e-af91-12ad9348b30b',
  courierly: 'e122bc45-f5e1-44b4-b44e-c869fe1557a8',
  ledgerbook: 'e2be3c29-b3d1-403c-a07a-ff51426d966b',
};

export const PROVIDERS: Provider[] = [
  {
    id: '53521f33-ac37-4ef4-9e53-c99402f79093',
    slug: 'tillpoint',
    name: 'Tillpoint',
    category: 'pos',
    summary: 'Point-of-sale terminals for restaurants',
  },
  {
    id: 'f1c903ec-45ee-459e-af91-12ad9348b30b',
    slug: 'paynorth',
    name: 'PayNorth',
    category: 'payments',
    summary: 'Card acquiring and payouts',
  },
  {
    id: 'e122bc45-f5e1-44b4-b44e-c869fe1557a8',
    slug: 'courierly',
    name: 'Courierly',
    category: 'delivery',
    summary: 'Last-mile delivery dispatch',
  },
  {
    id: 'e2be3c29-b3d1-403c-a07a-ff51426d966b',
    slug: 'ledgerbook',
    name: 'Ledgerbook',
    category: 'accounting',
    summary: 'Bookkeeping exports',
  },
];

export const CAPABILITIES: Capability[] = [
  {
    id: 'menu.sync',
    label: 'Synchronise the menu',
    critical: false,
    idempotencyRequired: false,
    description: 'Push menu items to the system',
  },
  {
    id: 'orders.read',
    label: 'Read orders',
    critical: false,
    idempotencyRequired: false,
    description: 'Read incoming orders',
  },
  {
    id: 'orders.create',
    label: 'Create orders',
    critical: true,
    idempotencyRequired: true,
    description: 'Place orders in the system',
  },
  {
    id: 'payments.capture',
    label: 'Capture payments',
    critical: true,
    idempotencyRequired: true,
    description: 'Capture authorised card payments',
  },
  {
    id: 'payments.refund',
    label: 'Refund payments',
    critical: true,
    idempotencyRequired: true,
    description: 'Refund captured payments',
  },
  {
    id: 'delivery.dispatch',
    label: 'Dispatch a courier',
    critical: true,
    idempotencyRequired: true,
    description: 'Book a courier for an order',
  },
  {
    id: 'delivery.track',
    label: 'Track deliveries',
    critical: false,
    idempotencyRequired: false,
    description: 'Follow a courier on its way',
  },
  {
    id: 'ledger.export',
    label: 'Export ledger entries',
    critical: false,
    idempotencyRequired: true,
    description: 'Export daily sales to the books',
  },
];

export const CONNECTORS: Connector[] = [
  {
    id: 'f34b1bd7-9427-45e0-a171-d674182f5e85',
    providerId: P.tillpoint,
    name: 'Tillpoint Cloud POS',
    category: 'pos',
    capabilities: ['menu.sync', 'orders.read', 'orders.create'],
    production_certified: true,
  },
  {
    id: '1c9d6754-3d63-4639-90b6-f6f018753201',
    providerId: P.tillpoint,
    name: 'Tillpoint Kitchen Display',
    category: 'pos',
    capabilities: ['orders.read'],
    production_certified: false,
  },
  {
    id: '21d5f043-dbfd-4359-8812-231cdceb4206',
    providerId: P.paynorth,
    name: 'PayNorth Acquiring',
    category: 'payments',
    capabilities: ['payments.capture', 'payments.refund'],
    production_certified: true,
  },
  {
    id: '7607c05e-31b2-4e88-b096-5d69feaccdd3',
    providerId: P.courierly,
    name: 'Courierly Dispatch',
    category: 'delivery',
    capabilities: ['delivery.dispatch', 'delivery.track', 'orders.read'],
    production_certified: true,
  },
  {
    id: 'd37f2382-cbd6-499c-b11c-ae24825dbe7d',
    providerId: P.ledgerbook,
    name: 'Ledgerbook Export',
    category: 'accounting',
    capabilities: ['ledger.export'],
    production_certified: false,
  },
];

export function findConnector(id: string): Connector | undefined {
  return CONNECTORS.find((c) => c.id === id);
}

export function findCapability(id: string): Capability | undefined {
  return CAPABILITIES.find((c) => c.id === id);
}

/** The decision a capability check (and a connection creation) is made by. */
export function decide(connector: Connector, capability: string, environment: string) {
  const cap = findCapability(capability);
  const base = {
    connectorId: connector.id,
    capability,
    critical: cap?.critical ?? false,
    idempotencyRequired: cap?.idempotencyRequired ?? false,
  };
  if (!cap) return { ...base, allowed: false, reason: 'unknown_capability: not in the capability catalog' };
  if (!connector.capabilities.includes(capability)) {
    return { ...base, allowed: false, reason: 'not_offered: the connector does not offer this capability' };
  }
  if (environment === 'production' && !connector.production_certified) {
    return { ...base, allowed: false, reason: 'not_certified: the connector is not certified for production' };
  }
  return { ...base, allowed: true, reason: 'offered: the connector offers this capability in this environment' };
}
