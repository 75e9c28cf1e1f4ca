// The shared state of both ironwood addresses: catalog, tenants, connections, webhooks, idempotency records
// and issued keys. Catalog ids are lower-kebab names (ARM resource-name style); created ids are GUIDs.

export interface Capability {
  id: string;
  label: string;
  critical: boolean;
  idempotencyRequired: boolean;
}

export interface Connector {
  id: string;
  providerId: string;
  name: string;
  category: string;
  capabilities: string[];
}

export interface Provider {
  id: string;
  name: string;
  category: string;
  summary: string;
}

export interface Connection {
  id: string;
  connectorId: string;
  environment: string;
  scopeLabel: string;
  state: string;
  capabilities: { capability: string; critical: boolean; idempotencyRequired: boolean }[];
  nextStep: string;
  createdAt: string;
}

export interface Webhook {
  id: string;
  tenant: string;
  url: string;
  events: string[];
  signingKey: string;
  createdAt: string;
  deleted: boolean;
}

export interface Delivery {
  id: string;
  webhookId: string;
  tenant: string;
  eventId: string;
  eventType: string;
  body: string;
  status: string;
  attempts: number;
  responseStatus: number | null;
  createdAt: string;
  lastAttemptAt: string | null;
  redeliveryOf: string | null;
}

export const CAPABILITIES: Capability[] = [
  { id: 'orders.read', label: 'Read orders', critical: false, idempotencyRequired: false },
  { id: 'orders.write', label: 'Create orders', critical: true, idempotencyRequired: true },
  { id: 'payments.capture', label: 'Capture payments', critical: true, idempotencyRequired: true },
  { id: 'payments.refund', label: 'Refund payments', critical: true, idempotencyRequired: true },
  { id: 'menu.sync', label: 'Synchronise menus', critical: false, idempotencyRequired: false },
  { id: 'tables.reserve', label: 'Reserve tables', critical: false, idempotencyRequired: true },
];

export const PROVIDERS: Provider[] = [
  { id: 'northwind-pay', name: 'Northwind Pay', category: 'payments', summary: 'Card and wallet payments.' },
  { id: 'tailspin-pos', name: 'Tailspin POS', category: 'point-of-sale', summary: 'Tills and order capture.' },
  { id: 'wingtip-tables', name: 'Wingtip Tables', category: 'reservations', summary: 'Table bookings.' },
];

export const CONNECTORS: Connector[] = [
  {
    id: 'northwind-pay-cards',
    providerId: 'northwind-pay',
    name: 'Northwind Pay cards',
    category: 'payments',
    capabilities: ['payments.capture', 'payments.refund'],
  },
  {
    id: 'tailspin-pos-orders',
    providerId: 'tailspin-pos',
    name: 'Tailspin POS orders',
    category: 'point-of-sale',
    capabilities: ['orders.read', 'orders.write', 'menu.sync'],
  },
  {
    id: 'wingtip-tables-booking',
    providerId: 'wingtip-tables',
    name: 'Wingtip Tables booking',
    category: 'reservations',
    capabilities: ['tables.reserve', 'orders.read'],
  },
];

/** A stored idempotent outcome: who sent it, what it was and what it answered. */
export interface IdempotencyRecord {
  fingerprint: string;
  status: number;
  data: Record<string, unknown>;
  expiresAt: number;
}

export interface State {
  released: Set<string>;
  known: Set<string>;
  connections: Map<string, Connection[]>;
  webhooks: Map<string, Webhook>;
  deliveries: Map<string, Delivery>;
  idempotency: Map<string, IdempotencyRecord>;
  issuedKeys: Map<string, { operation: string; expiresAt: number }>;
  tokens: Map<string, { clientId: string; expiresAt: number }>;
}

export function newState(released: string[], unreleased: string[]): State {
  return {
    released: new Set(released),
    known: new Set([...released, ...unreleased]),
    connections: new Map(),
    webhooks: new Map(),
    deliveries: new Map(),
    idempotency: new Map(),
    issuedKeys: new Map(),
    tokens: new Map(),
  };
}

export function capability(id: string): Capability | undefined {
  return CAPABILITIES.find((c) => c.id === id);
}

export function tenantConnections(state: State, tenant: string): Connection[] {
  let list = state.connections.get(tenant);
  if (!list) {
    list = [];
    state.connections.set(tenant, list);
  }
  return list;
}
