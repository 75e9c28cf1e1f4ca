// The shared state of both base addresses: catalog, tenants, connections, the global event sequence.
import { randomUUID } from 'node:crypto';

export type Capability = { id: string; label: string; critical: boolean; idempotencyRequired: boolean };
export type Provider = { id: string; name: string; category: string; summary: string };
export type Connector = { id: string; providerId: string; name: string; category: string; capabilities: string[] };

export type Connection = {
  id: string;
  connectorId: string;
  environment: string;
  scopeLabel: string;
  state: string;
  capabilities: { capability: string; critical: boolean; idempotencyRequired: boolean }[];
  nextStep: string;
  createdAt: string;
};

export type StreamEvent = { id: number; type: string; occurredAt: string; data: Record<string, unknown> };

export const ENVIRONMENTS = ['development', 'sandbox', 'pilot', 'production'];

export const CAPABILITIES: Capability[] = [
  { id: 'orders.read', label: 'Read orders', critical: false, idempotencyRequired: false },
  { id: 'orders.write', label: 'Submit orders', critical: true, idempotencyRequired: true },
  { id: 'payments.capture', label: 'Capture payments', critical: true, idempotencyRequired: true },
  { id: 'payments.refund', label: 'Refund payments', critical: true, idempotencyRequired: true },
  { id: 'menu.sync', label: 'Synchronise menus', critical: false, idempotencyRequired: false },
  { id: 'inventory.read', label: 'Read stock levels', critical: false, idempotencyRequired: false },
  { id: 'reservations.write', label: 'Book tables', critical: false, idempotencyRequired: true },
];

export const PROVIDERS: Provider[] = [
  { id: 'contoso-pay', name: 'Contoso Pay', category: 'payments', summary: 'Card and wallet payments.' },
  { id: 'fabrikam-pos', name: 'Fabrikam POS', category: 'pos', summary: 'Point of sale for venues.' },
  { id: 'northwind-delivery', name: 'Northwind Delivery', category: 'delivery', summary: 'Delivery platforms.' },
  { id: 'adventure-tables', name: 'Adventure Tables', category: 'reservations', summary: 'Table bookings.' },
];

export const CONNECTORS: Connector[] = [
  {
    id: 'contoso-pay-terminal',
    providerId: 'contoso-pay',
    name: 'Contoso Pay Terminal',
    category: 'payments',
    capabilities: ['payments.capture', 'payments.refund'],
  },
  {
    id: 'contoso-pay-online',
    providerId: 'contoso-pay',
    name: 'Contoso Pay Online',
    category: 'payments',
    capabilities: ['payments.capture'],
  },
  {
    id: 'fabrikam-pos-cloud',
    providerId: 'fabrikam-pos',
    name: 'Fabrikam POS Cloud',
    category: 'pos',
    capabilities: ['orders.read', 'orders.write', 'menu.sync', 'inventory.read'],
  },
  {
    id: 'northwind-orders',
    providerId: 'northwind-delivery',
    name: 'Northwind Orders',
    category: 'delivery',
    capabilities: ['orders.read', 'orders.write', 'menu.sync'],
  },
  {
    id: 'adventure-tables-api',
    providerId: 'adventure-tables',
    name: 'Adventure Tables API',
    category: 'reservations',
    capabilities: ['reservations.write'],
  },
];

// Case-sensitive GUID-like tenant ids.
export const TENANTS = {
  main: '3f2b8c1e-6a4d-4e8f-9b21-7c5d0a9e4f13',
  other: 'a71c0d92-5e3b-4b6a-8f47-2d9e61c8b305',
  foreign: 'c94e7a10-2f8d-4c1b-a6e3-58b0d7f21e9a',
};

export type Store = {
  released: Set<string>;
  connections: Map<string, Connection[]>;
  events: StreamEvent[];
  nextSequence: number;
  listeners: Set<(event: StreamEvent) => void>;
};

export function createStore(): Store {
  return {
    released: new Set([TENANTS.main, TENANTS.other]),
    connections: new Map(),
    events: [],
    nextSequence: 1000,
    listeners: new Set(),
  };
}

export function knownTenant(tenant: string): boolean {
  return Object.values(TENANTS).includes(tenant);
}

export function capabilityById(id: string): Capability | undefined {
  return CAPABILITIES.find((c) => c.id === id);
}

export function newId(): string {
  return randomUUID();
}

// One global public sequence, consecutive from 1000; every message reaches the live listeners once.
export function publish(store: Store, type: string, data: Record<string, unknown>): StreamEvent {
  const event: StreamEvent = { id: store.nextSequence, type, occurredAt: new Date().toISOString(), data };
  store.nextSequence += 1;
  store.events.push(event);
  for (const listener of store.listeners) listener(event);
  return event;
}

export function tenantConnections(store: Store, tenant: string): Connection[] {
  let list = store.connections.get(tenant);
  if (!list) {
    list = [];
    store.connections.set(tenant, list);
  }
  return list;
}
