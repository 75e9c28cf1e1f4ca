// cassia's store: what the Clojure team keeps in PostgreSQL (bigserial ids, exposed as prefixed strings)
// held here in one in-memory atom-like object that both listeners share.
import { generateKeyPairSync, type KeyObject } from 'node:crypto';

// biome-ignore lint/suspicious/noExplicitAny: JSON records, as the folder's other deployments use them
export type Rec = Record<string, any>;

export interface CassiaOptions {
  /** Token-bucket capacity per access, tenant and environment. */
  burst?: number;
  /** Tokens refilled per second. */
  refillPerSecond?: number;
  /** Access token lifetime in seconds. */
  tokenTtl?: number;
  /** Default and maximum page size of GET /connections and the audit log. */
  pageLimit?: number;
  /** Audit proof: a signed sha256 chain (default) or a chain whose first link is 64 zeros. */
  auditGenesis?: 'nil' | 'zeros';
  /** Whether Service-Version is required (default: optional, unknown values refused). */
  requireServiceVersion?: boolean;
  /** SSE heartbeat comment interval (Pedestal's default is 10 s). */
  heartbeatMs?: number;
  /** A stream opened without a cursor starts at message 1 instead of live (both legal: not shown). */
  streamFromStart?: boolean;
  /** Client authentication at the token endpoint: both methods (default) or client_secret_post only. */
  tokenAuth?: 'both' | 'post';
  /** An idempotent replay of a webhook creation leaves out the signing key (issued exactly once). */
  replayRedactsKey?: boolean;
}

export const VERSION = '2026-07-01';
export const VERSIONS = ['2026-06-12', '2026-07-01'];
export const ENVIRONMENTS = ['development', 'sandbox', 'pilot', 'production'];
export const DEPLOYMENT_ENV = 'sandbox';
export const EVENT_NAMES = ['connection.created', 'connection.activated', 'order.created', 'order.paid'];

/** java.time Instant as Cheshire writes it: microseconds, as the JVM's clock gives them. */
export function instant(ms = Date.now()): string {
  const micros = String(Number(process.hrtime.bigint() / 1000n) % 1000).padStart(3, '0');
  return new Date(ms).toISOString().replace('Z', `${micros}Z`);
}

export interface Store {
  opts: Required<CassiaOptions>;
  serial: Map<string, number>;
  tenants: Map<string, { name: string; released: boolean }>;
  clients: Map<string, { secret: string; tenants: string[] }>;
  tokens: Map<string, { clientId: string; expires: number }>;
  connections: Rec[];
  idem: Map<string, { hash: string; status: number; body: Rec; at: number }>;
  events: Rec[];
  listeners: Set<(e: Rec) => void>;
  webhooks: Rec[];
  deliveries: Rec[];
  audit: Rec[];
  buckets: Map<string, { tokens: number; at: number }>;
  signingKey: { privateKey: KeyObject; publicKey: KeyObject };
  timers: Set<NodeJS.Timeout>;
}

/** A bigserial sequence per table, exposed as `<prefix>_<n>` (the team's choice of id format). */
export function nextId(store: Store, prefix: string): string {
  const n = (store.serial.get(prefix) ?? 1000) + 1;
  store.serial.set(prefix, n);
  return `${prefix}_${n}`;
}

export function createStore(options: CassiaOptions = {}): Store {
  const opts: Required<CassiaOptions> = {
    burst: 100,
    refillPerSecond: 20,
    tokenTtl: 900,
    pageLimit: 25,
    auditGenesis: 'nil',
    requireServiceVersion: false,
    heartbeatMs: 10_000,
    streamFromStart: false,
    tokenAuth: 'both',
    replayRedactsKey: false,
    ...options,
  };
  return {
    opts,
    serial: new Map(),
    tenants: new Map([
      ['tn-larkspur-bistro', { name: 'Larkspur Bistro', released: true }],
      ['tn-quayside-deli', { name: 'Quayside Deli', released: true }],
      ['tn-ember-grill', { name: 'Ember Grill', released: false }],
    ]),
    clients: new Map([
      ['cassia-ci', { secret: 'cs_9f4c1e7a2b8d', tenants: ['tn-larkspur-bistro', 'tn-quayside-deli'] }],
    ]),
    tokens: new Map(),
    connections: [],
    idem: new Map(),
    events: [],
    listeners: new Set(),
    webhooks: [],
    deliveries: [],
    audit: [],
    buckets: new Map(),
    signingKey: generateKeyPairSync('ed25519'),
    timers: new Set(),
  };
}

/** Publishes a status message on the stream: consecutive numbers from 1, each exactly once. */
export function publish(store: Store, type: string, tenant: string, data: Rec): Rec {
  const e = { seq: store.events.length + 1, type, tenant, at: instant(), data };
  store.events.push(e);
  for (const l of store.listeners) l(e);
  return e;
}
