// The in-memory "Slick tables" of buttonwood: one store shared by both listening addresses. A Scala team keeps
// case classes and TableQuery rows; here they are plain records in maps and arrays, mutated synchronously so a
// burst of concurrent same-key calls sees one consistent store (the single-threaded event loop is the transaction).
import { randomBytes, randomUUID } from 'node:crypto';

// biome-ignore lint/suspicious/noExplicitAny: the folder's JSON record style
export type Rec = Record<string, any>;

export interface ButtonwoodOptions {
  /** Token-bucket capacity (calls per window) of the throttle directive. */
  rateLimit?: number;
  /** Length of the refill window in ms. */
  windowMs?: number;
  /** Access-token lifetime in seconds (Akka team's default: 300). */
  tokenTtlSec?: number;
  /** Default and maximum page size of the audit log (Slick drop/take). */
  auditPageSize?: number;
  auditMaxPageSize?: number;
  /** Encoding of the audit chain's digests. */
  auditEncoding?: 'hex' | 'base64';
  /** How often the SSE source emits a keep-alive comment. */
  keepAliveMs?: number;
  /** Audit paging: Slick drop/take by `offset` with a Link header, or 1-based `page` numbers in the body. */
  auditPaging?: 'offset' | 'page';
  /** Audit order (not shown): newest first by default. */
  auditOldestFirst?: boolean;
  /** A stream opened without a cursor replays the journal from its start (else it starts live). */
  streamFromStart?: boolean;
  /** Service-Version mandatory (a missing header refused with 400), as a strict header directive would. */
  serviceVersionRequired?: boolean;
}

export const VERSION = '2026-07-01';
export const VERSIONS = ['2026-06-12', '2026-07-01'];
export const ENVIRONMENTS = ['development', 'sandbox', 'pilot', 'production'];
export const WEBHOOK_EVENTS = ['connection.created', 'connection.activated', 'order.created', 'order.paid'];

/**
 * java.time.Instant.toString: Instant.now() on a Linux JVM carries microseconds, printed as 3, 6 or 9 digits as
 * needed and none at all when the fraction is zero; a computed instant (now plus a TTL) carries milliseconds.
 */
export function instant(ms?: number): string {
  const micros =
    ms === undefined ? Math.floor((performance.timeOrigin + performance.now()) * 1000) : Math.floor(ms) * 1000;
  const base = new Date(Math.floor(micros / 1000)).toISOString().slice(0, 19);
  const frac = micros % 1_000_000;
  if (frac === 0) return `${base}Z`;
  const digits = String(frac).padStart(6, '0');
  return `${base}.${frac % 1000 === 0 ? digits.slice(0, 3) : digits}Z`;
}

export const newId = (): string => randomUUID();
export const secret = (bytes = 32): string => randomBytes(bytes).toString('base64url');

export interface Tenant {
  id: string;
  released: boolean;
}

export interface AuditEntry {
  seq: number;
  at: string;
  tenant: string;
  action: string;
  subject: string;
  requestId: string;
  prevHash: string;
  hash: string;
}

export interface Webhook {
  id: string;
  tenant: string;
  url: string;
  events: string[];
  signingKey: string;
  createdAt: string;
}

export interface Delivery {
  id: string;
  webhookId: string;
  eventId: string;
  event: string;
  body: string;
  attempts: { at: string; status: number | null; error?: string }[];
  state: 'pending' | 'delivered' | 'failed';
}

export interface StreamMessage {
  seq: number;
  kind: string;
  payload: Rec;
}

export class Store {
  readonly options: Required<ButtonwoodOptions>;
  readonly clientId = 'buttonwood-ci';
  readonly clientSecret = secret(24);
  readonly tenants: Tenant[] = [
    { id: 'acme-bistro', released: true },
    { id: 'harbor-cafe', released: true },
    { id: 'northwind-grill', released: false },
  ];
  readonly tokens = new Map<string, { clientId: string; expiresAt: number }>();
  readonly connections: Rec[] = [];
  readonly idempotency = new Map<string, { fingerprint: string; status: number; body: Rec; expiresAt: number }>();
  readonly issuedKeys = new Map<string, { operation: string; expiresAt: string }>();
  readonly webhooks = new Map<string, Webhook>();
  readonly deliveries: Delivery[] = [];
  readonly audit = new Map<string, AuditEntry[]>();
  /** Per-tenant stream (consecutive per tenant) and the public stream (global, redacted). */
  readonly streams = new Map<string, StreamMessage[]>();
  readonly publicStream: StreamMessage[] = [];
  readonly listeners = new Set<(tenant: string | null, m: StreamMessage) => void>();
  readonly timers = new Set<NodeJS.Timeout>();
  /** Open SSE responses, ended by `close()`. */
  readonly closers = new Set<() => void>();

  constructor(options: ButtonwoodOptions = {}) {
    this.options = {
      rateLimit: options.rateLimit ?? 600,
      windowMs: options.windowMs ?? 60_000,
      tokenTtlSec: options.tokenTtlSec ?? 300,
      auditPageSize: options.auditPageSize ?? 20,
      auditMaxPageSize: options.auditMaxPageSize ?? 100,
      auditEncoding: options.auditEncoding ?? 'hex',
      keepAliveMs: options.keepAliveMs ?? 15_000,
      auditPaging: options.auditPaging ?? 'offset',
      auditOldestFirst: options.auditOldestFirst ?? false,
      serviceVersionRequired: options.serviceVersionRequired ?? false,
      streamFromStart: options.streamFromStart ?? false,
    };
  }

  /** Schedules work that `close()` cancels (the actor system's scheduler). */
  later(ms: number, fn: () => void): void {
    const t = setTimeout(() => {
      this.timers.delete(t);
      fn();
    }, ms);
    this.timers.add(t);
  }

  /** Publishes a state change on the tenant's stream and a redacted copy on the public one. */
  publish(tenant: string, kind: string, payload: Rec): void {
    const own = this.streams.get(tenant) ?? [];
    this.streams.set(tenant, own);
    const m = { seq: own.length + 1, kind, payload };
    own.push(m);
    const pub = { seq: this.publicStream.length + 1, kind, payload: { kind, at: payload.at } };
    this.publicStream.push(pub);
    for (const l of this.listeners) {
      l(tenant, m);
      l(null, pub);
    }
  }
}
