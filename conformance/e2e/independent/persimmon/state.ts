// The one in-memory store both addresses share (a Persistent `SqlBackend` pool in the original), the
// invented catalog and the tenants. Ids are Persistent's auto-increment keys rendered as strings.
import type { Rec } from './http.ts';

export interface PersimmonOptions {
  /** Token bucket size (X-RateLimit-Limit) and refill per second. */
  bucketSize?: number;
  refillPerSecond?: number;
  /** Access token lifetime in seconds (servant-auth's `makeJWT` expiry). */
  tokenSeconds?: number;
  /** Audit digests as cryptonite's `convertToBase Base16` (hex) or `Base64`. */
  auditEncoding?: 'hex' | 'base64';
  /** The audit log's default page size (a `limit` above `auditMaxLimit` is clamped). */
  auditPageSize?: number;
  auditMaxLimit?: number;
  /** The first entry's link: 32 zero bytes, or no `prevHash` key at all (aeson's omitNothingFields on a Maybe). */
  auditGenesis?: 'zeros' | 'omitted';
  /** Stream messages and webhook deliveries relayed by a background outbox worker this long after the change. */
  outboxDelayMs?: number;
}

export const ENVIRONMENTS = ['development', 'sandbox', 'pilot', 'production'] as const;

export const TENANTS = { main: 'tn-harbor-kitchen', other: 'tn-quay-bakery', foreign: 'tn-inland-foundry' };
/** Tenants that exist; only the first two are released to the test client. */
export const RELEASED = new Set([TENANTS.main, TENANTS.other]);
export const KNOWN = new Set([...RELEASED, TENANTS.foreign]);

export const CLIENT = { id: 'persimmon-ci', secret: 'pk-sandbox-0f3c9d1e7a5b42c8' };

export const PROVIDERS: Rec[] = [
  {
    id: 'prv-kestrel',
    name: 'Kestrel Payments',
    category: 'payments',
    summary: 'Card and wallet acquiring',
    region: 'EU',
  },
  { id: 'prv-lumen', name: 'Lumen POS', category: 'pos', summary: 'Point of sale terminals', region: 'EU' },
  { id: 'prv-tern', name: 'Tern Couriers', category: 'delivery', summary: 'Same-day courier network', region: 'EU' },
];

export const CAPABILITIES: Rec[] = [
  { id: 'payments.capture', label: 'Capture a payment', critical: true, idempotencyRequired: true },
  { id: 'payments.refund', label: 'Refund a payment', critical: true, idempotencyRequired: true },
  { id: 'orders.read', label: 'Read orders', critical: false, idempotencyRequired: false },
  { id: 'orders.push', label: 'Push orders to the till', critical: false, idempotencyRequired: true },
  { id: 'menu.sync', label: 'Synchronise the menu', critical: false, idempotencyRequired: false },
  { id: 'courier.dispatch', label: 'Dispatch a courier', critical: true, idempotencyRequired: true },
];

export const CONNECTORS: Rec[] = [
  {
    id: 'con-kestrel-acquiring',
    providerId: 'prv-kestrel',
    name: 'Kestrel Acquiring',
    category: 'payments',
    capabilities: ['payments.capture', 'payments.refund'],
  },
  {
    id: 'con-lumen-till',
    providerId: 'prv-lumen',
    name: 'Lumen Till',
    category: 'pos',
    capabilities: ['orders.read', 'orders.push', 'menu.sync'],
  },
  {
    id: 'con-tern-dispatch',
    providerId: 'prv-tern',
    name: 'Tern Dispatch',
    category: 'delivery',
    capabilities: ['courier.dispatch', 'orders.read'],
  },
];

export interface Webhook {
  id: string;
  tenant: string;
  url: string;
  events: string[];
  secret: string;
  createdAt: string;
}

export interface Delivery {
  id: string;
  webhookId: string;
  eventId: string;
  eventType: string;
  body: string;
  status: 'pending' | 'succeeded' | 'failed';
  responseStatus?: number;
  attempt: number;
  redeliveryOf?: string;
  requestedAt: string;
}

export interface AuditEntry {
  seq: number;
  at: string;
  action: string;
  actor: string;
  target: Rec;
  prevHash?: string;
  hash: string;
}

/** The whole state: one per started deployment, shared by the main and alternate listeners. */
export class Store {
  private nextKey = 1;
  connections = new Map<string, Rec & { tenant: string }>();
  webhooks = new Map<string, Webhook>();
  deliveries = new Map<string, Delivery>();
  audit = new Map<string, AuditEntry[]>();
  readonly options: PersimmonOptions;
  constructor(options: PersimmonOptions) {
    this.options = options;
  }
  /** Persistent's `insert` hands out the next key of one sequence; every table here draws from it. */
  key(): string {
    return String(this.nextKey++);
  }
}
