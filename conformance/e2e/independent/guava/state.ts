// The one in-memory store both listening addresses share, shaped like the team's Mojo::Pg tables: every
// row gets a serial integer id, the way `RETURNING id` hands them back, and the catalog is seeded once.
import { randomBytes } from 'node:crypto';

// biome-ignore lint/suspicious/noExplicitAny: JSON rows, the folder's Rec convention
export type Rec = Record<string, any>;

export interface GuavaOptions {
  /** Calls per window per client, tenant and environment (Mojolicious::Plugin::RateLimit style). */
  rateLimit?: number;
  windowMs?: number;
  /** Access token lifetime in seconds (OAuth2::Server's default is 3600). */
  tokenSeconds?: number;
  /** Audit log listed oldest first instead of newest first. */
  auditOldestFirst?: boolean;
  /** The largest audit page; a larger `limit` is clamped to it, not refused. */
  auditMaxPerPage?: number;
  /** Sign the chain head with Ed25519 (the proof then carries signature and public_key). */
  auditSigned?: boolean;
  /** The audit digest over the entry's Mojo::JSON text instead of the pipe-joined columns. */
  auditDigest?: 'columns' | 'mojo-json';
  /** Minion's backoff is (retries ** 4) + 15 seconds; tests shrink one "second" to this many ms. */
  backoffSecondMs?: number;
  /** Client authentication at the token endpoint: Basic or form fields, or form fields only (the plugin's params). */
  tokenAuth?: 'any' | 'post';
  /** Refuse calls without Service-Version (400), as an OpenAPI-required header would. */
  versionRequired?: boolean;
  /** How long a job waits before a Minion worker dequeues it (a worker polls; delivery is not instant). */
  jobDelayMs?: number;
}

export const VERSION = '2026-07-01';
export const VERSIONS = ['2026-07-01', '2026-06-12'];
export const PREFIX = '/api/public/v1';
export const ENVIRONMENTS = ['development', 'sandbox', 'pilot', 'production'];
export const EVENTS = ['connection.created', 'connection.live', 'order.created', 'order.paid'];

export const providers: Rec[] = [
  { id: 'kassenwerk', name: 'Kassenwerk', category: 'pos', summary: 'Point of sale for busy kitchens' },
  { id: 'zahlfix', name: 'Zahlfix', category: 'payments', summary: 'Card and wallet payments' },
  { id: 'tischbuch', name: 'Tischbuch', category: 'reservations', summary: 'Table bookings and waitlists' },
];

export const capabilities: Rec[] = [
  { id: 'orders.read', label: 'Read orders', critical: false, idempotencyRequired: false },
  { id: 'orders.write', label: 'Write orders', critical: true, idempotencyRequired: true },
  { id: 'payments.capture', label: 'Capture payments', critical: true, idempotencyRequired: true },
  { id: 'tables.read', label: 'Read table plan', critical: false, idempotencyRequired: false },
  { id: 'menu.sync', label: 'Synchronise the menu', critical: false, idempotencyRequired: true },
];

export const connectors: Rec[] = [
  {
    id: 'kassenwerk-pos',
    providerId: 'kassenwerk',
    name: 'Kassenwerk POS',
    category: 'pos',
    capabilities: ['orders.read', 'orders.write', 'menu.sync'],
  },
  {
    id: 'zahlfix-terminal',
    providerId: 'zahlfix',
    name: 'Zahlfix Terminal',
    category: 'payments',
    capabilities: ['payments.capture', 'orders.read'],
  },
  {
    id: 'tischbuch-web',
    providerId: 'tischbuch',
    name: 'Tischbuch Web',
    category: 'reservations',
    capabilities: ['tables.read'],
  },
];

/** Tenants that exist; only the first two are released to the test client (the third answers 403). */
export const TENANTS = ['guava-kitchen', 'guava-cellar', 'guava-harbour'];

export interface Store {
  options: Required<GuavaOptions>;
  clientId: string;
  clientSecret: string;
  released: Set<string>;
  serial: Map<string, number>;
  tokens: Map<string, { clientId: string; expires: number }>;
  connections: Rec[];
  idempotency: Map<string, { fingerprint: string; status: number; body: Rec; expires: number }>;
  keys: Rec[];
  webhooks: Rec[];
  jobs: Rec[];
  audit: Map<string, Rec[]>;
  events: Rec[];
  tenantEvents: Map<string, Rec[]>;
  listeners: Set<(event: Rec) => void>;
  windows: Map<string, { start: number; count: number }>;
  timers: Set<NodeJS.Timeout>;
  closed: boolean;
}

export function createStore(options: GuavaOptions = {}): Store {
  return {
    options: {
      rateLimit: options.rateLimit ?? 600,
      windowMs: options.windowMs ?? 60_000,
      tokenSeconds: options.tokenSeconds ?? 3600,
      auditOldestFirst: options.auditOldestFirst ?? false,
      auditDigest: options.auditDigest ?? 'columns',
      auditMaxPerPage: options.auditMaxPerPage ?? 100,
      auditSigned: options.auditSigned ?? false,
      backoffSecondMs: options.backoffSecondMs ?? 1000,
      tokenAuth: options.tokenAuth ?? 'any',
      jobDelayMs: options.jobDelayMs ?? 0,
      versionRequired: options.versionRequired ?? false,
    },
    clientId: 'guava-ci',
    // Issued at start, never a fixed key in source (the interface's rule for credentials).
    clientSecret: randomBytes(18).toString('base64url'),
    released: new Set(TENANTS.slice(0, 2)),
    serial: new Map(),
    tokens: new Map(),
    connections: [],
    idempotency: new Map(),
    keys: [],
    webhooks: [],
    jobs: [],
    audit: new Map(),
    events: [],
    tenantEvents: new Map(),
    listeners: new Set(),
    windows: new Map(),
    timers: new Set(),
    closed: false,
  };
}

/** The next value of a table's serial column, as Postgres would hand it out. */
export function nextId(store: Store, table: string): number {
  const n = (store.serial.get(table) ?? 0) + 1;
  store.serial.set(table, n);
  return n;
}
