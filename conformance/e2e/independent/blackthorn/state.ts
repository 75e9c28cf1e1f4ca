// The in-memory store shared by both addresses: the catalog, tenants, connections, receivers, events and
// audit chains. A Clojure team keeps this in one atom; here it is one object handed to every handler.
import { randomUUID } from 'node:crypto';

// biome-ignore lint/suspicious/noExplicitAny: JSON records, as elsewhere in the kit's folders
export type Rec = Record<string, any>;

export const VERSIONS = ['2026-07-01', '2026-06-12'] as const;
export const CURRENT = '2026-07-01';
export const ENVIRONMENTS = ['development', 'sandbox', 'pilot', 'production'];
export const WEBHOOK_EVENTS = ['connection.created', 'connection.activated', 'order.created', 'order.paid'];

export interface Options {
  rateLimit?: number;
  windowMs?: number;
  tokenTtlSec?: number;
  auditOldestFirst?: boolean;
  auditDefaultLimit?: number;
  activationMs?: number;
}

export interface Store {
  opts: Required<Options>;
  clientId: string;
  clientSecret: string;
  released: Set<string>;
  tenants: Set<string>;
  tokens: Map<string, { clientId: string; expires: number }>;
  providers: Rec[];
  connectors: Rec[];
  capabilities: Rec[];
  connections: Map<string, Rec[]>;
  webhooks: Map<string, Rec>;
  deliveries: Map<string, Rec>;
  idempotency: Map<string, { fingerprint: string; status: number; body: Rec }>;
  events: Rec[];
  listeners: Set<(e: Rec) => void>;
  audit: Map<string, Rec[]>;
  timers: Set<NodeJS.Timeout>;
}

/** Java's Instant.toString: ISO-8601 UTC, which is what the stack's java.time serialises to. */
export const instant = (ms = Date.now()) => new Date(ms).toISOString();
export const uuid = () => randomUUID();

function catalog() {
  const cap = (id: string, label: string, critical: boolean, idem: boolean) => ({
    id,
    label,
    critical,
    idempotencyRequired: idem,
    'introduced-in': '2026-06-12',
  });
  const capabilities = [
    cap('orders.read', 'Read orders', false, false),
    cap('orders.write', 'Create orders', true, true),
    cap('payments.capture', 'Capture payments', true, true),
    cap('menu.sync', 'Synchronise menus', false, true),
    cap('tables.read', 'Read table plans', false, false),
  ];
  const providers = [
    { id: 'prv-quillpay', name: 'Quillpay', category: 'payments', summary: 'Card and wallet payments' },
    { id: 'prv-tablewise', name: 'Tablewise', category: 'reservations', summary: 'Table bookings' },
    { id: 'prv-larder', name: 'Larder POS', category: 'pos', summary: 'Point of sale for kitchens' },
  ].map((p) => ({ ...p, 'home-region': 'eu-central' }));
  const connectors = [
    {
      id: 'con-quillpay-cards',
      providerId: 'prv-quillpay',
      name: 'Quillpay cards',
      category: 'payments',
      capabilities: ['payments.capture', 'orders.read'],
    },
    {
      id: 'con-tablewise-book',
      providerId: 'prv-tablewise',
      name: 'Tablewise bookings',
      category: 'reservations',
      capabilities: ['tables.read'],
    },
    {
      id: 'con-larder-pos',
      providerId: 'prv-larder',
      name: 'Larder POS',
      category: 'pos',
      capabilities: ['orders.read', 'orders.write', 'menu.sync'],
    },
  ].map((c) => ({ ...c, 'api-style': 'rest' }));
  return { providers, connectors, capabilities };
}

export function createStore(options: Options = {}): Store {
  const opts: Required<Options> = {
    rateLimit: 600,
    windowMs: 60_000,
    tokenTtlSec: 900,
    auditOldestFirst: false,
    auditDefaultLimit: 20,
    activationMs: 400,
    ...options,
  };
  return {
    opts,
    clientId: 'blackthorn-ci',
    clientSecret: `bts_${uuid().replaceAll('-', '')}`,
    released: new Set(['ten-copper-kettle', 'ten-iron-skillet']),
    tenants: new Set(['ten-copper-kettle', 'ten-iron-skillet', 'ten-salt-cellar']),
    tokens: new Map(),
    ...catalog(),
    connections: new Map(),
    webhooks: new Map(),
    deliveries: new Map(),
    idempotency: new Map(),
    events: [],
    listeners: new Set(),
    audit: new Map(),
    timers: new Set(),
  };
}

/** A timer the store cancels on close, so a stopped deployment leaves nothing running. */
export function later(store: Store, ms: number, fn: () => void) {
  const t = setTimeout(() => {
    store.timers.delete(t);
    fn();
  }, ms);
  store.timers.add(t);
}
