// The store of one sorrel deployment, shared by its main and alternate listener (the port of an Exposed schema on
// PostgreSQL: identity `Long` ids for rows the team owns, ULIDs for ids partners keep, such as connections).
import { randomBytes } from 'node:crypto';

// biome-ignore lint/suspicious/noExplicitAny: JSON records as Jackson's ObjectNode, read field by field.
export type Rec = Record<string, any>;

export interface SorrelOptions {
  /** bucket4j bucket size per client, tenant and environment (calls per window). */
  rateLimit?: number;
  /** Refill interval of the bucket (the window). */
  windowMs?: number;
  /** Keycloak's access token lifespan (its default is 300 s). */
  tokenTtlSeconds?: number;
  /** Sign each audit page's chain head with Ed25519 besides the hash chain. */
  signedProof?: boolean;
  /** The largest audit page (`limit` above it is clamped). */
  auditMaxLimit?: number;
  /**
   * The internal ObjectMapper with WRITE_DATES_AS_TIMESTAMPS left on (nanoseconds off): the audit log and the
   * delivery log (fields not shown) write instants as epoch milliseconds; interface fields stay RFC 3339.
   */
  epochDates?: boolean;
  /** Refuse a call without Service-Version (400): the team pins clients to a version from day one. */
  requireServiceVersion?: boolean;
  /** How long the provisioning worker takes to move a connection from PENDING to ACTIVE. */
  provisionMs?: number;
}

export const VERSION = '2026-07-01';
export const VERSIONS = ['2026-06-12', '2026-07-01'] as const;
export const ENVIRONMENTS = ['development', 'sandbox', 'pilot', 'production'] as const;
export const WEBHOOK_EVENTS = [
  'connection.created',
  'connection.activated',
  'connection.paused',
  'order.created',
  'order.paid',
] as const;

const CROCKFORD = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';

/** A ULID (48-bit time, 80 random bits, Crockford base32), as the team's `ulid-creator` writes them. */
export function ulid(): string {
  let time = Date.now();
  let head = '';
  for (let i = 0; i < 10; i++) {
    head = CROCKFORD.charAt(time % 32) + head;
    time = Math.floor(time / 32);
  }
  const rnd = randomBytes(16);
  let tail = '';
  for (let i = 0; i < 16; i++) tail += CROCKFORD.charAt((rnd[i] ?? 0) % 32);
  return head + tail;
}

let lastMicro = 0;
/** JavaTimeModule writes an `Instant` with microseconds (`2026-11-28T06:00:00.123456Z`); kept strictly rising. */
export function instant(): string {
  const micro = Math.max(Date.now() * 1000, lastMicro + 1);
  lastMicro = micro;
  const iso = new Date(Math.floor(micro / 1000)).toISOString();
  return `${iso.slice(0, -1)}${String(micro % 1000).padStart(3, '0')}Z`;
}

/** An instant of a record whose fields are not shown: RFC 3339, or epoch milliseconds with `epochDates`. */
export function stamp(store: Store): string | number {
  return store.options.epochDates ? Date.now() : instant();
}

export interface Tenant {
  id: string;
  released: boolean;
}

export interface Store {
  options: Required<SorrelOptions>;
  tenants: Tenant[];
  clients: Map<string, { secret: string; tenants: string[] }>;
  tokens: Map<string, { clientId: string; expiresAt: number }>;
  connections: Rec[];
  idempotency: Map<string, { fingerprint: string; status: number; body: Rec; operation: string }>;
  issuedKeys: Map<string, Rec>;
  events: Rec[];
  webhooks: Rec[];
  deliveries: Rec[];
  audit: Map<string, Rec[]>;
  buckets: Map<string, { windowStart: number; used: number }>;
  seq: { webhook: number; delivery: number };
  timers: Set<NodeJS.Timeout>;
  listeners: Set<(event: Rec) => void>;
}

export function createStore(options: SorrelOptions = {}): Store {
  const tenants = [
    { id: 'trattoria-nord', released: true },
    { id: 'bistro-sued', released: true },
    { id: 'cafe-ost', released: false },
  ];
  return {
    options: {
      rateLimit: options.rateLimit ?? 600,
      windowMs: options.windowMs ?? 60_000,
      tokenTtlSeconds: options.tokenTtlSeconds ?? 300,
      signedProof: options.signedProof ?? false,
      auditMaxLimit: options.auditMaxLimit ?? 200,
      epochDates: options.epochDates ?? false,
      requireServiceVersion: options.requireServiceVersion ?? false,
      provisionMs: options.provisionMs ?? 800,
    },
    tenants,
    clients: new Map([
      [
        'ncs-conformance',
        { secret: randomBytes(24).toString('base64url'), tenants: ['trattoria-nord', 'bistro-sued'] },
      ],
    ]),
    tokens: new Map(),
    connections: [],
    idempotency: new Map(),
    issuedKeys: new Map(),
    events: [],
    webhooks: [],
    deliveries: [],
    audit: new Map(),
    buckets: new Map(),
    seq: { webhook: 0, delivery: 0 },
    timers: new Set(),
    listeners: new Set(),
  };
}

/** A timer the store can cancel on close (the coroutine scope of the worker). */
export function later(store: Store, ms: number, fn: () => void): void {
  const t = setTimeout(() => {
    store.timers.delete(t);
    fn();
  }, ms);
  store.timers.add(t);
}
