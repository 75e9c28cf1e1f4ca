// The one in-memory store both listeners share, laid out as the Zig service holds it: fixed-capacity
// tables, u64 counters for every id (served as decimal strings, the interface types ids as strings),
// and the invented catalog compiled in as constant arrays.
// biome-ignore lint/suspicious/noExplicitAny: JSON records of any shape, as read from and written to the wire
export type Rec = Record<string, any>;

export const VERSION = '2026-07-01';
export const VERSIONS = ['2026-07-01', '2026-06-12'] as const;
export const BASE = '/api/public/v1';
export const ENVIRONMENTS = ['development', 'sandbox', 'pilot', 'production'] as const;
/** Event names a receiver may subscribe to (the interface's samples plus our own connection events). */
export const EVENT_NAMES = ['connection.created', 'connection.state_changed', 'order.created', 'order.paid'];
/** Explicit limits, as the Zig team declares them next to their buffers. */
export const LIMITS = { maxBody: 65_536, maxAuditPage: 200, defaultAuditPage: 50, ringSize: 4096 } as const;

export const PROVIDERS = [
  { id: 'prv-1', name: 'Northwind Payments', category: 'payments', summary: 'Card and wallet acceptance' },
  { id: 'prv-2', name: 'Larkspur Logistics', category: 'delivery', summary: 'Courier dispatch and tracking' },
  { id: 'prv-3', name: 'Quillbook POS', category: 'pos', summary: 'Point of sale for venues' },
];
export const CAPABILITIES = [
  { id: 'payments.capture', label: 'Capture a payment', critical: true, idempotencyRequired: true },
  { id: 'payments.refund', label: 'Refund a payment', critical: true, idempotencyRequired: true },
  { id: 'orders.read', label: 'Read orders', critical: false, idempotencyRequired: false },
  { id: 'delivery.dispatch', label: 'Dispatch a courier', critical: true, idempotencyRequired: true },
  { id: 'menu.sync', label: 'Synchronise the menu', critical: false, idempotencyRequired: false },
];
export const CONNECTORS = [
  {
    id: 'con-1',
    providerId: 'prv-1',
    name: 'Northwind Card',
    category: 'payments',
    capabilities: ['payments.capture', 'payments.refund', 'orders.read'],
  },
  {
    id: 'con-2',
    providerId: 'prv-2',
    name: 'Larkspur Courier',
    category: 'delivery',
    capabilities: ['delivery.dispatch', 'orders.read'],
  },
  {
    id: 'con-3',
    providerId: 'prv-3',
    name: 'Quillbook Register',
    category: 'pos',
    capabilities: ['orders.read', 'menu.sync'],
  },
];

export interface Options {
  /** Calls per window and access (client, tenant, environment). */
  rateLimit?: number;
  windowMs?: number;
  /** Access token lifetime in seconds. */
  tokenTtlSec?: number;
  /** Audit log order: oldest first (the append order, default) or newest first. */
  auditNewestFirst?: boolean;
  /** std.json's default: a body with a field the struct does not declare is refused. */
  rejectUnknownFields?: boolean;
  /** Delay before a new connection leaves `provisioning` for `active`. */
  activateAfterMs?: number;
  /** Client authentication methods the token endpoint reads. */
  tokenAuth?: 'both' | 'post';
  /** A stream connection's lifetime budget: the server ends it after this long (0: never). */
  streamMaxMs?: number;
  /** An unknown connector on a capability check: 404, or a decision "not allowed". */
  unknownConnector?: 'not_found' | 'decision';
  /** Entries per page of a delivery log. */
  deliveryPage?: number;
  /** Service-Version mandatory on every API call (a missing header is 400). */
  versionRequired?: boolean;
  /** One audit chain over all tenants (one u64 sequence); each tenant reads its own entries of it. */
  auditGlobalChain?: boolean;
  /** Deliveries leave through an outbox flushed after this delay. */
  deliveryDelayMs?: number;
  /** Largest audit page; with `auditLimitStrict` a larger `limit` is refused (400) instead of clamped. */
  auditMaxPage?: number;
  auditLimitStrict?: boolean;
  /** The public stream carries keepalives only: state changes go to the tenants' streams. */
  publicStreamQuiet?: boolean;
  /** Idempotency keys per tenant (default) or per client, the tenant then being part of the content. */
  idemScope?: 'tenant' | 'client';
  /** A replayed receiver registration omits the signing key (the table never holds secrets). */
  replayOmitsKey?: boolean;
}

export interface Store {
  opts: Required<Options>;
  environment: string;
  counters: Record<string, number>;
  tokens: Map<string, { clientId: string; expires: number }>;
  connections: Map<string, Rec[]>;
  webhooks: Map<string, Rec>;
  deliveries: Rec[];
  idem: Map<string, { digest: string; status: number; body: Rec }>;
  audit: Map<string, Rec[]>;
  windows: Map<string, { start: number; used: number }>;
  timers: Set<NodeJS.Timeout>;
}

export function newStore(options: Options = {}): Store {
  return {
    opts: {
      rateLimit: options.rateLimit ?? 600,
      windowMs: options.windowMs ?? 60_000,
      tokenTtlSec: options.tokenTtlSec ?? 900,
      auditNewestFirst: options.auditNewestFirst ?? false,
      rejectUnknownFields: options.rejectUnknownFields ?? true,
      activateAfterMs: options.activateAfterMs ?? 150,
      tokenAuth: options.tokenAuth ?? 'both',
      streamMaxMs: options.streamMaxMs ?? 0,
      unknownConnector: options.unknownConnector ?? 'not_found',
      deliveryPage: options.deliveryPage ?? 100,
      versionRequired: options.versionRequired ?? false,
      auditGlobalChain: options.auditGlobalChain ?? false,
      deliveryDelayMs: options.deliveryDelayMs ?? 0,
      replayOmitsKey: options.replayOmitsKey ?? false,
      idemScope: options.idemScope ?? 'tenant',
      publicStreamQuiet: options.publicStreamQuiet ?? false,
      auditMaxPage: options.auditMaxPage ?? LIMITS.maxAuditPage,
      auditLimitStrict: options.auditLimitStrict ?? false,
    },
    environment: 'sandbox',
    counters: {},
    tokens: new Map(),
    connections: new Map(),
    webhooks: new Map(),
    deliveries: [],
    idem: new Map(),
    audit: new Map(),
    windows: new Map(),
    timers: new Set(),
  };
}

/** The next value of a named u64 counter (ids start at 1, as `+= 1` before use does). */
export function nextId(store: Store, name: string): number {
  const n = (store.counters[name] ?? 0) + 1;
  store.counters[name] = n;
  return n;
}

export function nowIso(): string {
  return new Date().toISOString();
}
