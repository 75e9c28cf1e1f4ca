// The in-memory store of pawpaw: what Micronaut Data repositories would hold in tables (catalog, connections,
// idempotency records, webhooks, delivery attempts, the audit trail), shared by both listening addresses.
import { generateKeyPairSync, type KeyObject, randomBytes } from 'node:crypto';

// biome-ignore lint/suspicious/noExplicitAny: JSON bodies and records, as elsewhere in the folder
export type Rec = Record<string, any>;

export const VERSION = '2026-07-01';
export const VERSIONS = ['2026-06-12', '2026-07-01'] as const;
export const ENVIRONMENTS = ['development', 'sandbox', 'pilot', 'production'] as const;
/** Jackson writes Kotlin enum constants by name: the connection states are upper-case constants. */
export const STATES = ['REQUESTED', 'PROVISIONING', 'ACTIVE', 'PAUSED'] as const;
export const EVENTS = [
  'connection.created',
  'connection.activated',
  'connection.paused',
  'order.created',
  'order.paid',
];

export interface PawpawOptions {
  /** Calls per window per access, tenant and environment (Micronaut's rate limiter config). */
  rateLimit?: number;
  windowMs?: number;
  /** Access token lifetime in seconds (micronaut.security.token.generator.access-token.expiration). */
  tokenTtlSeconds?: number;
  /** Audit pages sorted by seq ascending instead of the default descending. */
  auditOldestFirst?: boolean;
  /** Largest page size (Micronaut Data's max-page-size); default 100. */
  auditMaxPageSize?: number;
  /** Without a position, the stream replays from the first message (a `findBySeqGreaterThan(cursor ?: 0)` query). */
  streamFromStart?: boolean;
  /** The AuditTrail columns as the entity names them: `hash`/`prevHash` (default) or `rowMac`/`previousRowMac`. */
  auditMacNames?: boolean;
  /** Client authentication the token endpoint accepts: both (default) or client_secret_post only. */
  tokenAuth?: 'both' | 'post';
  /** A capability id not in the catalog is looked up like an entity: 404 not_found (else decided "not allowed"). */
  unknownCapability404?: boolean;
  /** The stream is ended after this many ms (an idle/response timeout in front of Netty); 0: never. */
  streamMaxMs?: number;
  /** Deliveries go through an outbox the @Scheduled job relays (else sent at once). */
  outbox?: boolean;
  /** jackson.serialization.indentOutput: JSON answers and stream data pretty-printed (data over several lines). */
  indentOutput?: boolean;
  /** The delivery-log controller is @Version("2026-07-01"): a 2026-06-12 caller finds no route (404). */
  versionedDeliveryLog?: boolean;
  /** Dates as ZonedDateTime in the server's zone: the UTC offset in minutes (0 writes `Z`). */
  utcOffsetMinutes?: number;
  /** The audit filter also records refused authenticated calls (method, path, status, code; never the body). */
  auditRefused?: boolean;
  /** The rate-limit filter also counts public routes, per client address (own limit, same window). */
  limitPublic?: number;
  /** The @Scheduled fixed delay of delivery retries and audit checkpoints. */
  schedulerMs?: number;
}

export const CATALOG = {
  providers: [
    { id: 'kassen-nord', name: 'Kassen Nord GmbH', category: 'pos', summary: 'Point-of-sale terminals', country: 'DE' },
    { id: 'lieferblitz', name: 'Lieferblitz', category: 'delivery', summary: 'Delivery platform', country: 'AT' },
    { id: 'zahlwerk', name: 'Zahlwerk', category: 'payments', summary: 'Card acquiring', country: 'DE' },
  ],
  connectors: [
    {
      id: 'kassen-nord-pos-v2',
      providerId: 'kassen-nord',
      name: 'Kassen Nord POS v2',
      category: 'pos',
      capabilities: ['orders.read', 'orders.write', 'menu.sync'],
    },
    {
      id: 'lieferblitz-orders',
      providerId: 'lieferblitz',
      name: 'Lieferblitz Orders',
      category: 'delivery',
      capabilities: ['orders.read', 'orders.write', 'delivery.status'],
    },
    {
      id: 'zahlwerk-acquiring',
      providerId: 'zahlwerk',
      name: 'Zahlwerk Acquiring',
      category: 'payments',
      capabilities: ['payments.capture', 'payments.refund'],
    },
  ],
  capabilities: [
    { id: 'orders.read', label: 'Read orders', critical: false, idempotencyRequired: false },
    { id: 'orders.write', label: 'Write orders', critical: true, idempotencyRequired: true },
    { id: 'menu.sync', label: 'Synchronise menu', critical: false, idempotencyRequired: true },
    { id: 'delivery.status', label: 'Delivery status', critical: false, idempotencyRequired: false },
    { id: 'payments.capture', label: 'Capture payments', critical: true, idempotencyRequired: true },
    { id: 'payments.refund', label: 'Refund payments', critical: true, idempotencyRequired: true },
  ],
};

export interface Store {
  options: Required<PawpawOptions>;
  jwtSecret: Buffer;
  auditKey: Buffer;
  checkpointKey: { privateKey: KeyObject; publicKey: KeyObject };
  clients: Map<string, { secret: string; tenants: string[] }>;
  tenants: Set<string>;
  connections: Rec[];
  idempotency: Map<string, { fingerprint: string; status: number; data: Rec; key: string }>;
  rate: Map<string, { start: number; count: number }>;
  events: Rec[];
  streamListeners: Set<(e: Rec) => void>;
  webhooks: Rec[];
  deliveries: Rec[];
  audit: Map<string, Rec[]>;
  checkpoints: Map<string, Rec>;
  timers: NodeJS.Timeout[];
}

export function createStore(o: PawpawOptions = {}): Store {
  return {
    options: {
      rateLimit: o.rateLimit ?? 600,
      windowMs: o.windowMs ?? 60_000,
      tokenTtlSeconds: o.tokenTtlSeconds ?? 3600,
      auditOldestFirst: o.auditOldestFirst ?? false,
      auditMaxPageSize: o.auditMaxPageSize ?? 100,
      schedulerMs: o.schedulerMs ?? 1000,
      streamFromStart: o.streamFromStart ?? false,
      auditMacNames: o.auditMacNames ?? false,
      tokenAuth: o.tokenAuth ?? 'both',
      limitPublic: o.limitPublic ?? 0,
      auditRefused: o.auditRefused ?? false,
      unknownCapability404: o.unknownCapability404 ?? false,
      utcOffsetMinutes: o.utcOffsetMinutes ?? 0,
      streamMaxMs: o.streamMaxMs ?? 0,
      outbox: o.outbox ?? false,
      indentOutput: o.indentOutput ?? false,
      versionedDeliveryLog: o.versionedDeliveryLog ?? false,
    },
    jwtSecret: randomBytes(32),
    auditKey: randomBytes(32),
    checkpointKey: generateKeyPairSync('ed25519'),
    clients: new Map([
      ['pawpaw-ci', { secret: randomBytes(18).toString('base64url'), tenants: ['wirtshaus-a', 'wirtshaus-b'] }],
    ]),
    tenants: new Set(['wirtshaus-a', 'wirtshaus-b', 'wirtshaus-c']),
    connections: [],
    idempotency: new Map(),
    rate: new Map(),
    events: [],
    streamListeners: new Set(),
    webhooks: [],
    deliveries: [],
    audit: new Map(),
    checkpoints: new Map(),
    timers: [],
  };
}

/**
 * Jackson's JavaTimeModule writes an Instant with microseconds on Linux (2026-07-01T10:00:00.123456Z), a
 * ZonedDateTime with its offset (2026-07-01T12:00:00.123456+02:00).
 */
export function instant(d: Date = new Date(), offsetMinutes = 0): string {
  const micros = String(Number(process.hrtime.bigint() % 1000n)).padStart(3, '0');
  const local = new Date(d.getTime() + offsetMinutes * 60_000).toISOString().slice(0, -1);
  if (offsetMinutes === 0) return `${local}${micros}Z`;
  const abs = Math.abs(offsetMinutes);
  const hhmm = `${String(Math.floor(abs / 60)).padStart(2, '0')}:${String(abs % 60).padStart(2, '0')}`;
  return `${local}${micros}${offsetMinutes < 0 ? '-' : '+'}${hhmm}`;
}
