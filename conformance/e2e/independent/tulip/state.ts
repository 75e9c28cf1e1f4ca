// The in-memory stand-in for tulip's PostgreSQL schema (doobie repositories): catalog, tenants, connections,
// idempotency records, stream logs, webhook receivers, deliveries and audit chains, one store shared by both
// listeners.
import { generateKeyPairSync, type KeyObject } from 'node:crypto';
import { isoInstant, javaInstant, type Rec } from './http.ts';

export interface TulipOptions {
  /** Calls per sliding window per (access, tenant, environment). */
  rateLimit?: number;
  windowMs?: number;
  /** Access token lifetime in seconds. */
  tokenTtlSec?: number;
  /** Audit page size when `limit` is absent, and its clamp. */
  auditDefaultLimit?: number;
  auditMaxLimit?: number;
  /** Milliseconds before a pending connection becomes active (the provider's confirmation). */
  activationMs?: number;
  /** Require Service-Version on authenticated calls (tulip's default: optional). */
  requireServiceVersion?: boolean;
  /** Timestamps as java.time.Instant prints them (micros) instead of JavaScript's millis. */
  javaInstants?: boolean;
  /** Connection states as circe derives a Scala enum (`Pending`, `Active`) instead of snake case. */
  pascalStates?: boolean;
  /** The audit proof: a signed chain-head text, or a compact JWS (EdDSA) whose payload is the chain head. */
  auditProof?: 'head-text' | 'jws';
  /** Stream messages without an `event:` line (fs2's `ServerSentEvent(data, eventType = None)`). */
  unnamedStreamEvents?: boolean;
  /** Webhook bodies as CloudEvents 1.0 structured JSON instead of tulip's own envelope. */
  cloudEvents?: boolean;
  /** The registration answer as `{ webhook, secret: { value } }` instead of a flat record with `signingKey`. */
  nestedWebhookAnswer?: boolean;
  /** Audit entries under `items` with an opaque base64 `cursor` instead of `entries` and `before`. */
  auditCursorPages?: boolean;
  /** A repeated query parameter refused 400, as tapir decodes `query[Option[String]]` (http4s' matchers take the first). */
  singleValuedQuery?: boolean;
  /** An unknown Service-Version: refused 400 (default) or served as the current version. */
  unknownVersion?: 'refuse' | 'current';
  /** Connections listed newest first (doobie's `ORDER BY created_at DESC`) instead of oldest first. */
  newestConnectionsFirst?: boolean;
  /** Status changes relayed from the outbox after this many ms (stream and webhooks), not at once. */
  outboxDelayMs?: number;
}

export interface Capability {
  id: string;
  label: string;
  critical: boolean;
  idempotencyRequired: boolean;
}

export const PROVIDERS: Rec[] = [
  { id: 'nordpay', name: 'NordPay', category: 'payments', summary: 'Card and wallet acquiring', region: 'EU' },
  { id: 'kitchenflow', name: 'KitchenFlow', category: 'kitchen', summary: 'Kitchen display systems', region: 'EU' },
  { id: 'seatly', name: 'Seatly', category: 'reservations', summary: 'Table reservations', region: 'EU' },
];

export const CAPABILITIES: Capability[] = [
  { id: 'payments.capture', label: 'Capture payments', critical: true, idempotencyRequired: true },
  { id: 'payments.refund', label: 'Refund payments', critical: true, idempotencyRequired: true },
  { id: 'orders.read', label: 'Read orders', critical: false, idempotencyRequired: false },
  { id: 'orders.push', label: 'Push orders to the kitchen', critical: true, idempotencyRequired: true },
  { id: 'tables.read', label: 'Read table plans', critical: false, idempotencyRequired: false },
  { id: 'reservations.write', label: 'Write reservations', critical: false, idempotencyRequired: true },
];

export const CONNECTORS: Rec[] = [
  {
    id: 'nordpay-terminal',
    providerId: 'nordpay',
    name: 'NordPay Terminal',
    category: 'payments',
    capabilities: ['payments.capture', 'payments.refund', 'orders.read'],
  },
  {
    id: 'nordpay-online',
    providerId: 'nordpay',
    name: 'NordPay Online',
    category: 'payments',
    capabilities: ['payments.capture'],
  },
  {
    id: 'kitchenflow-kds',
    providerId: 'kitchenflow',
    name: 'KitchenFlow KDS',
    category: 'kitchen',
    capabilities: ['orders.read', 'orders.push'],
  },
  {
    id: 'seatly-book',
    providerId: 'seatly',
    name: 'Seatly Booking',
    category: 'reservations',
    capabilities: ['tables.read', 'reservations.write'],
  },
];

export const ENVIRONMENTS = ['development', 'sandbox', 'pilot', 'production'];

export interface StreamMessage {
  seq: number;
  event: string;
  data: string;
}

export class Store {
  readonly tokens = new Map<string, { clientId: string; exp: number }>();
  readonly connections = new Map<string, Rec[]>();
  readonly idempotency = new Map<string, { fingerprint: string; data: unknown; status: number }>();
  readonly streamLog = new Map<string, StreamMessage[]>();
  readonly listeners = new Map<string, Set<(m: StreamMessage) => void>>();
  readonly webhooks = new Map<string, Rec>();
  readonly deliveries = new Map<string, Rec>();
  readonly audit = new Map<string, Rec[]>();
  readonly rateWindows = new Map<string, number[]>();
  readonly timers = new Set<NodeJS.Timeout>();
  readonly signingKey: { privateKey: KeyObject; publicKey: KeyObject; keyId: string };

  readonly options: Required<TulipOptions>;
  readonly client: { id: string; secret: string; tenants: string[] };
  readonly allTenants: string[];

  constructor(
    options: Required<TulipOptions>,
    client: { id: string; secret: string; tenants: string[] },
    allTenants: string[],
  ) {
    this.options = options;
    this.client = client;
    this.allTenants = allTenants;
    const { privateKey, publicKey } = generateKeyPairSync('ed25519');
    this.signingKey = { privateKey, publicKey, keyId: `tulip-audit-${Date.now().toString(36)}` };
  }

  /** A timer the store cancels on close (fs2's resource-scoped fibers). */
  now(ms?: number): string {
    return this.options.javaInstants ? javaInstant(ms) : isoInstant(ms);
  }

  state(name: 'pending' | 'active'): string {
    return this.options.pascalStates ? name[0]?.toUpperCase() + name.slice(1) : name;
  }

  later(ms: number, fn: () => void): void {
    const t = setTimeout(() => {
      this.timers.delete(t);
      fn();
    }, ms);
    this.timers.add(t);
  }

  tenantConnections(tenant: string): Rec[] {
    const list = this.connections.get(tenant) ?? [];
    this.connections.set(tenant, list);
    return list;
  }
}
