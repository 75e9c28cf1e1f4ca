// The in-memory store, shaped like the Mnesia tables a Gleam/OTP team keeps: one table per record kind,
// keyed by id, every row tagged with its tenant. One store is shared by both listening addresses.
import { generateKeyPairSync, randomBytes } from 'node:crypto';

// biome-ignore lint/suspicious/noExplicitAny: JSON records, as elsewhere in the independent deployments
export type Rec = Record<string, any>;

export interface BayberryOptions {
  /** Calls per window per client, tenant and environment (the Hammer-style bucket). */
  rateLimit?: number;
  windowMs?: number;
  /** Access token lifetime in seconds. */
  tokenLifetimeS?: number;
  /** Audit log page order and the largest page `limit` may ask for. */
  auditOldestFirst?: boolean;
  auditMaxLimit?: number;
  /** Token endpoint client authentication: both methods (default), or only client_secret_post. */
  tokenAuth?: 'both' | 'post';
  /** An unknown connector on a capability check decided "not allowed" instead of a 404. */
  unknownConnectorDecision?: boolean;
  /** A stream opened without a cursor replays the tenant's whole log first. */
  streamReplayAll?: boolean;
  /** Delivery log page size (newest first, `next_page` path); absent: one page. */
  deliveryPageSize?: number;
  /** Service-Version required on every call under /api/public/v1 (400 without it). */
  versionRequired?: boolean;
  /** A connection's approval actor moves it from `pending` to `active` after this many ms. */
  activateAfterMs?: number;
  /** The delivery log (added in 2026-07-01) refused with 404 to a caller asking for 2026-06-12. */
  deliveryLogSinceCurrent?: boolean;
  /** Opening the audit log (its first page) is itself audited, after the answer: an `audit.read` entry. */
  auditOpenings?: boolean;
  /** Idempotency keys scoped per tenant across all operations, not per operation. */
  keyPerTenant?: boolean;
  /** The public channel carries a numbered `service.heartbeat` every this many ms. */
  publicHeartbeatMs?: number;
}

export const VERSION = '2026-07-01';
export const VERSIONS = ['2026-07-01', '2026-06-12'];
export const ENVIRONMENTS = ['development', 'sandbox', 'pilot', 'production'];
export const EVENT_NAMES = ['connection.created', 'connection.state_changed', 'order.created', 'order.paid'];

/** UUIDv7 (time-ordered), the `youid` package's default in a Gleam codebase. */
export function uuid7(): string {
  const b = randomBytes(16);
  const ms = BigInt(Date.now());
  for (let i = 0; i < 6; i++) b[i] = Number((ms >> BigInt(8 * (5 - i))) & 0xffn);
  b[6] = ((b[6] ?? 0) & 0x0f) | 0x70;
  b[8] = ((b[8] ?? 0) & 0x3f) | 0x80;
  const h = b.toString('hex');
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20)}`;
}

/** birl.to_iso8601: milliseconds and an explicit +00:00 offset instead of Z (both are RFC 3339). */
export function iso(ms = Date.now()): string {
  return new Date(ms).toISOString().replace('Z', '+00:00');
}

export const providers: Rec[] = [
  { id: 'harbor-pay', name: 'Harbor Pay', category: 'payments', summary: 'Card and wallet acquiring', region: 'eu' },
  { id: 'tidal-pos', name: 'Tidal POS', category: 'point_of_sale', summary: 'Tills and kitchen screens', region: 'eu' },
  { id: 'quay-books', name: 'Quay Books', category: 'accounting', summary: 'Ledger and VAT exports', region: 'uk' },
];

export const capabilities: Rec[] = [
  { id: 'payments.capture', label: 'Capture payments', critical: true, idempotencyRequired: true },
  { id: 'payments.refund', label: 'Refund payments', critical: true, idempotencyRequired: true },
  { id: 'orders.read', label: 'Read orders', critical: false, idempotencyRequired: false },
  { id: 'orders.write', label: 'Write orders', critical: false, idempotencyRequired: true },
  { id: 'ledger.export', label: 'Export ledger', critical: false, idempotencyRequired: false },
];

export const connectors: Rec[] = [
  {
    id: 'harbor-pay-card',
    providerId: 'harbor-pay',
    name: 'Harbor card',
    category: 'payments',
    capabilities: ['payments.capture', 'payments.refund', 'orders.read'],
  },
  {
    id: 'tidal-pos-orders',
    providerId: 'tidal-pos',
    name: 'Tidal orders',
    category: 'point_of_sale',
    capabilities: ['orders.read', 'orders.write'],
  },
  {
    id: 'quay-books-ledger',
    providerId: 'quay-books',
    name: 'Quay ledger',
    category: 'accounting',
    capabilities: ['ledger.export', 'orders.read'],
  },
];

export function capability(id: string): Rec | undefined {
  return capabilities.find((c) => c.id === id);
}

export class Store {
  tokens = new Map<string, { clientId: string; expires: number }>();
  connections: Rec[] = [];
  /** Idempotency records by tenant|route|key. */
  idem = new Map<string, { fingerprint: string; status: number; body: Rec; expires: number }>();
  issuedKeys = new Map<string, Rec>();
  webhooks: Rec[] = [];
  deliveries: Rec[] = [];
  audit = new Map<string, Rec[]>();
  events = new Map<string, Rec[]>();
  rate = new Map<string, { start: number; count: number }>();
  closed = false;
  /** The audit log's signing key, made at start like a key an OTP app loads at boot. */
  auditKey = generateKeyPairSync('ed25519');
  readonly options: BayberryOptions;
  constructor(options: BayberryOptions) {
    this.options = options;
  }
}
