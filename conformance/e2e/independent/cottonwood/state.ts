// The in-memory store (what Drizzle tables would hold) and the invented catalog: one store shared by
// both listening addresses, so the main and alternate address serve the same data.
import { nanoid, type Rec } from './http.ts';
import { type CottonwoodOptions, withDefaults } from './options.ts';

export type { CottonwoodOptions } from './options.ts';

export const ENVIRONMENTS = ['development', 'sandbox', 'pilot', 'production'] as const;

export const CLIENT_ID = 'cw_client_ci';
export const CLIENT_SECRET = 'cw_secret_sandbox_only_not_a_real_key';
export const TENANTS = { main: 'tnt_harbor-bistro', other: 'tnt_lindenhof-cafe', foreign: 'tnt_quayside-deli' };

export const capabilities = [
  { id: 'orders.read', label: 'Read orders', critical: false, idempotencyRequired: false },
  { id: 'orders.write', label: 'Create orders', critical: true, idempotencyRequired: true },
  { id: 'payments.capture', label: 'Capture payments', critical: true, idempotencyRequired: true },
  { id: 'menu.sync', label: 'Synchronise menus', critical: false, idempotencyRequired: false },
  { id: 'tables.reserve', label: 'Reserve tables', critical: false, idempotencyRequired: true },
];

export const providers = [
  {
    id: 'prv_brightpay',
    name: 'BrightPay',
    category: 'payments',
    summary: 'Card terminals and online payments',
    region: 'EU',
  },
  {
    id: 'prv_menuloop',
    name: 'MenuLoop',
    category: 'ordering',
    summary: 'Online ordering and menu sync',
    region: 'EU',
  },
  { id: 'prv_seatwise', name: 'Seatwise', category: 'reservations', summary: 'Table reservations', region: 'EU' },
];

export const connectors = [
  {
    id: 'con_brightpay-terminal',
    providerId: 'prv_brightpay',
    name: 'BrightPay Terminal',
    category: 'payments',
    capabilities: ['payments.capture', 'orders.read'],
  },
  {
    id: 'con_menuloop-orders',
    providerId: 'prv_menuloop',
    name: 'MenuLoop Orders',
    category: 'ordering',
    capabilities: ['orders.read', 'orders.write', 'menu.sync'],
  },
  {
    id: 'con_seatwise-booking',
    providerId: 'prv_seatwise',
    name: 'Seatwise Booking',
    category: 'reservations',
    capabilities: ['tables.reserve'],
  },
];

export interface Webhook {
  id: string;
  tenant: string;
  url: string;
  events: string[];
  secret: string;
  createdAt: string;
}

export interface Delivery {
  id: string;
  webhookId: string;
  eventId: string;
  eventType: string;
  body: string;
  status: 'queued' | 'succeeded' | 'failed';
  attempts: number;
  responseStatus: number | null;
  createdAt: string;
  lastAttemptAt: string | null;
  redeliveryOf: string | null;
}

export interface Store {
  options: Required<CottonwoodOptions>;
  tokens: Map<string, { clientId: string; expiresAt: number }>;
  connections: Rec[];
  webhooks: Webhook[];
  deliveries: Delivery[];
  timers: Set<NodeJS.Timeout>;
}

export function capabilityOf(id: string) {
  return capabilities.find((c) => c.id === id);
}

function seedConnection(tenant: string, connectorId: string, state: string, scopeLabel: string): Rec {
  const connector = connectors.find((c) => c.id === connectorId);
  const caps = (connector?.capabilities ?? []).map((id) => {
    const c = capabilityOf(id);
    return { capability: id, critical: c?.critical ?? false, idempotencyRequired: c?.idempotencyRequired ?? false };
  });
  return {
    tenant,
    id: nanoid(),
    connectorId,
    environment: 'sandbox',
    scopeLabel,
    state,
    capabilities: caps,
    nextStep: state === 'paused' ? 'resume_in_portal' : 'none',
    createdAt: '2026-11-02T09:30:00.000Z',
  };
}

export function createStore(o: CottonwoodOptions = {}): Store {
  return {
    options: withDefaults(o),
    tokens: new Map(),
    connections: [
      seedConnection(TENANTS.main, 'con_brightpay-terminal', 'active', 'Harbor Bistro, Pier 3'),
      seedConnection(TENANTS.main, 'con_seatwise-booking', 'paused', 'Harbor Bistro terrace'),
      seedConnection(TENANTS.other, 'con_menuloop-orders', 'active', 'Lindenhof Cafe'),
    ],
    webhooks: [],
    deliveries: [],
    timers: new Set(),
  };
}

/** The connection as the contract shows it: the tenant column stays internal. */
export function publicConnection(c: Rec): Rec {
  const { tenant: _tenant, ...rest } = c;
  return rest;
}
