// The in-memory store, shaped like the SQLAlchemy models a Falcon team would declare: every table has an integer
// autoincrement primary key, exposed to clients as a string (the marshmallow schemas use fields.String for ids).
// The catalog is seeded with slugs instead: a catalog row is addressed by its slug, and connectorId must be 2-120
// characters, which "1" would not be.
import type { ServerResponse } from 'node:http';

// biome-ignore lint/suspicious/noExplicitAny: JSON records, as elsewhere in the independent deployments
export type Rec = Record<string, any>;

export const VERSION = '2026-07-01';
export const VERSIONS = ['2026-07-01', '2026-06-12'] as const;

export interface LocustOptions {
  /** Calls a window allows per client, tenant and environment (falcon-limiter's "600 per minute"). */
  rateLimit?: number;
  windowMs?: number;
  /** Lifetime of an access token in seconds. */
  tokenTtl?: number;
  /** The audit chain's first link: Python's None (null) or 64 zeros. */
  auditGenesis?: 'null' | 'zeros';
  /** The audit hash's serialization: explicit compact separators, or Python's default ones. */
  auditJson?: 'compact' | 'python';
  /** Largest audit page marshmallow's Range validator allows. */
  auditMaxLimit?: number;
  /** Client authentication at the token endpoint: Authlib's both, or only `client_secret_post`. */
  tokenAuth?: 'both' | 'post';
  /** Webhook and delivery ids as JSON numbers (their response fields are not shown). */
  numericIds?: boolean;
  /** Redelivery re-runs the logged delivery itself (same id, one more attempt) instead of a new one. */
  requeueSameDelivery?: boolean;
  /** Service-Version required on authenticated calls (400 without it). */
  versionRequired?: boolean;
  /** How long the RQ job takes to move a connection from provisioning to active. */
  activationMs?: number;
}

export const CAPABILITIES: Rec[] = [
  { id: 'orders.read', label: 'Read orders', critical: false, idempotencyRequired: false },
  { id: 'orders.write', label: 'Create and update orders', critical: true, idempotencyRequired: true },
  { id: 'payments.capture', label: 'Capture payments', critical: true, idempotencyRequired: true },
  { id: 'menu.sync', label: 'Synchronise menus', critical: false, idempotencyRequired: false },
  { id: 'tables.read', label: 'Read table plans', critical: false, idempotencyRequired: false },
];

export const PROVIDERS: Rec[] = [
  { id: 'tillpoint', name: 'Tillpoint POS', category: 'pos', summary: 'Point of sale for restaurants', country: 'DE' },
  { id: 'paywharf', name: 'Paywharf', category: 'payments', summary: 'Card payments and payouts', country: 'NL' },
  { id: 'seatly', name: 'Seatly', category: 'reservations', summary: 'Table reservations', country: 'AT' },
];

export const CONNECTORS: Rec[] = [
  {
    id: 'tillpoint-orders',
    providerId: 'tillpoint',
    name: 'Tillpoint orders',
    category: 'pos',
    capabilities: ['orders.read', 'orders.write', 'menu.sync'],
  },
  {
    id: 'paywharf-cards',
    providerId: 'paywharf',
    name: 'Paywharf card payments',
    category: 'payments',
    capabilities: ['payments.capture', 'orders.read'],
  },
  {
    id: 'seatly-tables',
    providerId: 'seatly',
    name: 'Seatly tables',
    category: 'reservations',
    capabilities: ['tables.read'],
  },
];

export const WEBHOOK_EVENTS = ['connection.created', 'connection.activated', 'order.created', 'order.paid'];

export interface Sse {
  tenant: string | null;
  res: ServerResponse;
}

/** One shared store behind both addresses (one database behind two load-balanced hosts). */
export class Store {
  private seq = new Map<string, number>();
  tenants = new Map<string, { released: boolean }>();
  clients = new Map<string, { secret: string; tenants: string[] }>();
  tokens = new Map<string, { clientId: string; expires: number }>();
  connections: Rec[] = [];
  idempotency = new Map<string, { fingerprint: string; status: number; body: Rec; at: number }>();
  issuedKeys: Rec[] = [];
  events = new Map<string, Rec[]>();
  streams = new Set<Sse>();
  webhooks: Rec[] = [];
  deliveries: Rec[] = [];
  audit = new Map<string, Rec[]>();
  limits = new Map<string, { start: number; count: number }>();
  timers = new Set<NodeJS.Timeout>();
  baseUrl = '';
  options: Required<LocustOptions>;

  constructor(options: LocustOptions = {}) {
    this.options = {
      rateLimit: 600,
      windowMs: 60_000,
      tokenTtl: 3600,
      auditGenesis: 'null',
      auditMaxLimit: 100,
      activationMs: 300,
      tokenAuth: 'both',
      auditJson: 'compact',
      numericIds: false,
      requeueSameDelivery: false,
      versionRequired: false,
      ...options,
    };
  }

  /** An autoincrement column per table (and per tenant for tenant-scoped sequences). */
  nextId(table: string): number {
    const n = (this.seq.get(table) ?? 0) + 1;
    this.seq.set(table, n);
    return n;
  }

  later(ms: number, fn: () => void): void {
    const t = setTimeout(() => {
      this.timers.delete(t);
      fn();
    }, ms);
    this.timers.add(t);
  }
}

/** `datetime.now(timezone.utc).isoformat()`: microseconds and `+00:00`, never `Z`. */
export function isoformat(ms: number = Date.now()): string {
  const d = new Date(ms).toISOString();
  return `${d.slice(0, 19)}.${d.slice(20, 23)}000+00:00`;
}
