// The one in-memory "database" both listeners share: tables with integer ids per table (Rails style,
// written as strings), the catalog (slug ids, friendly_id style) and the tenants.
import type { ServerResponse } from 'node:http';

export interface MangroveOptions {
  /** Calls per window per token and tenant (Rack::Attack throttle). */
  rateLimit?: number;
  windowMs?: number;
  /** How long a connection stays `provisioning` before it turns `ready`. */
  provisionMs?: number;
  /** One "second" of the Sidekiq retry schedule, in ms (1000 in production, short in tests). */
  retrySecondMs?: number;
  /** Oldest first instead of newest first on the audit log. */
  auditOldestFirst?: boolean;
  /** The first entry's link: `null` (none before it) or `zeros` (base64 of 32 zero bytes). */
  auditGenesis?: 'null' | 'zeros';
  /** Kaminari's max_per_page: a larger `per_page`/`limit` is clamped to it. */
  auditMaxPerPage?: number;
  /** Redelivery retries the logged delivery itself (same id, attempts + 1) instead of logging a new one. */
  redeliverInPlace?: boolean;
  /** Access token lifetime in seconds (Doorkeeper's default: 2 h). */
  tokenTtlS?: number;
}

export const ENVIRONMENTS = ['development', 'sandbox', 'pilot', 'production'] as const;
export const WEBHOOK_EVENTS = ['connection.created', 'connection.ready'] as const;

export const PROVIDERS = [
  { id: 'northwind-pay', name: 'Northwind Pay', category: 'payments', summary: 'Card and wallet payments' },
  { id: 'tidewater-pos', name: 'Tidewater POS', category: 'point-of-sale', summary: 'Tills and kitchen screens' },
  { id: 'saltmarsh-books', name: 'Saltmarsh Books', category: 'accounting', summary: 'Ledgers and exports' },
];

export const CAPABILITIES = [
  { id: 'payments.capture', label: 'Capture payments', critical: true, idempotencyRequired: true },
  { id: 'payments.refund', label: 'Refund payments', critical: true, idempotencyRequired: true },
  { id: 'orders.read', label: 'Read orders', critical: false, idempotencyRequired: false },
  { id: 'orders.write', label: 'Write orders', critical: false, idempotencyRequired: true },
  { id: 'menu.sync', label: 'Synchronise menus', critical: false, idempotencyRequired: false },
  { id: 'ledger.export', label: 'Export ledger', critical: false, idempotencyRequired: false },
];

export const CONNECTORS = [
  {
    id: 'northwind-checkout',
    providerId: 'northwind-pay',
    name: 'Northwind Checkout',
    category: 'payments',
    capabilities: ['payments.capture', 'payments.refund'],
  },
  {
    id: 'tidewater-orders',
    providerId: 'tidewater-pos',
    name: 'Tidewater Orders',
    category: 'point-of-sale',
    capabilities: ['orders.read', 'orders.write', 'menu.sync'],
  },
  {
    id: 'tidewater-menu',
    providerId: 'tidewater-pos',
    name: 'Tidewater Menu',
    category: 'point-of-sale',
    capabilities: ['menu.sync'],
  },
  {
    id: 'saltmarsh-ledger',
    providerId: 'saltmarsh-books',
    name: 'Saltmarsh Ledger',
    category: 'accounting',
    capabilities: ['ledger.export', 'orders.read'],
  },
];

export interface Connection {
  id: string;
  tenant: string;
  connectorId: string;
  environment: string;
  scopeLabel: string;
  state: string;
  capabilities: { capability: string; critical: boolean; idempotencyRequired: boolean }[];
  nextStep: string;
  createdAt: string;
  updated_at: string;
}

export interface Webhook {
  id: string;
  tenant: string;
  url: string;
  events: string[];
  secret: string;
  active: boolean;
  created_at: string;
}

export interface Delivery {
  id: string;
  webhook_id: string;
  tenant: string;
  event_id: string;
  event: string;
  body: string;
  status: 'pending' | 'succeeded' | 'failed';
  attempts: number;
  response_status: number | null;
  redelivery_of: string | null;
  created_at: string;
  last_attempt_at: string | null;
  next_retry_at: string | null;
}

export interface StreamMessage {
  seq: number;
  event: string;
  data: string;
}

export interface Store {
  options: Required<MangroveOptions>;
  seq: Record<string, number>;
  connections: Connection[];
  webhooks: Webhook[];
  deliveries: Delivery[];
  stream: StreamMessage[];
  sseClients: Set<ServerResponse>;
  timers: Set<NodeJS.Timeout>;
  closed: boolean;
}

export function newStore(options: MangroveOptions = {}): Store {
  return {
    options: {
      rateLimit: options.rateLimit ?? 1000,
      windowMs: options.windowMs ?? 60_000,
      provisionMs: options.provisionMs ?? 250,
      retrySecondMs: options.retrySecondMs ?? 1000,
      auditOldestFirst: options.auditOldestFirst ?? false,
      auditGenesis: options.auditGenesis ?? 'null',
      auditMaxPerPage: options.auditMaxPerPage ?? 100,
      tokenTtlS: options.tokenTtlS ?? 7200,
      redeliverInPlace: options.redeliverInPlace ?? false,
    },
    seq: {},
    connections: [],
    webhooks: [],
    deliveries: [],
    stream: [],
    sseClients: new Set(),
    timers: new Set(),
    closed: false,
  };
}

/** The next id of a table ("1", "2", ...), like a Postgres sequence. */
export function nextId(store: Store, table: string): string {
  store.seq[table] = (store.seq[table] ?? 0) + 1;
  return String(store.seq[table]);
}

/** A timer the store cancels on close, so a closed deployment leaves nothing running. */
export function later(store: Store, ms: number, fn: () => void): void {
  if (store.closed) return;
  const t = setTimeout(() => {
    store.timers.delete(t);
    if (!store.closed) fn();
  }, ms);
  store.timers.add(t);
}
