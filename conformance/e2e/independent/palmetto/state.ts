// The in-memory "database" of palmetto: JDBI DAOs over Postgres tables become maps, and every id comes from a
// Postgres-style sequence (nextval), served as a decimal string as Jackson's ToStringSerializer writes a long.
import type { Rec } from './http.ts';

export const ENVIRONMENTS = ['development', 'sandbox', 'pilot', 'production'];

export interface PalmettoOptions {
  /** Calls per window for one client, tenant and environment (the RateLimiter bundle's config). */
  rateLimit?: number;
  windowMs?: number;
  /** Access token lifetime in seconds (Dropwizard's oauth config `tokenTtl`). */
  tokenTtlSeconds?: number;
  /** The audit resource's page cap (`@Max` on `limit`). */
  auditMaxPerPage?: number;
  /** The first audit row's previous hash: 64 zeros (the Flyway seed) or null. */
  auditGenesis?: 'zeros' | 'null';
  /** How the audit page names the next one: a `next` path in data, or an RFC 8288 Link header. */
  auditPaging?: 'field' | 'link';
  /** The delivery executor's scheduling delay (a ScheduledExecutorService polling its outbox). */
  deliveryDelayMs?: number;
}

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
  event: string;
  body: string;
  attempts: Rec[];
  status: string;
  createdAt: string;
}

export interface StreamEvent {
  seq: number;
  event: string;
  data: string;
}

/** A Postgres sequence: `nextval('..._seq')`, starting where a Flyway migration would start it. */
export class Sequence {
  private n: number;
  constructor(start: number) {
    this.n = start - 1;
  }
  next(): number {
    this.n += 1;
    return this.n;
  }
}

export const PROVIDERS: Rec[] = [
  { id: '101', name: 'Lowcountry Payments', category: 'payments', summary: 'Card and wallet acceptance.' },
  { id: '102', name: 'Harbor POS', category: 'point-of-sale', summary: 'Till and order terminals.' },
  { id: '103', name: 'Sweetgrass Delivery', category: 'delivery', summary: 'Last-mile courier network.' },
];

export const CAPABILITIES: Rec[] = [
  { id: 'payments.capture', label: 'Capture a payment', critical: true, idempotencyRequired: true },
  { id: 'payments.refund', label: 'Refund a payment', critical: true, idempotencyRequired: true },
  { id: 'orders.read', label: 'Read orders', critical: false, idempotencyRequired: false },
  { id: 'orders.write', label: 'Create orders', critical: false, idempotencyRequired: true },
  { id: 'menu.sync', label: 'Synchronise the menu', critical: false, idempotencyRequired: false },
  { id: 'courier.dispatch', label: 'Dispatch a courier', critical: true, idempotencyRequired: true },
];

export const CONNECTORS: Rec[] = [
  {
    id: '2001',
    providerId: '101',
    name: 'Lowcountry Card Present',
    category: 'payments',
    capabilities: ['payments.capture', 'payments.refund'],
    status: 'GA',
  },
  {
    id: '2002',
    providerId: '102',
    name: 'Harbor Terminal',
    category: 'point-of-sale',
    capabilities: ['orders.read', 'orders.write', 'menu.sync'],
    status: 'GA',
  },
  {
    id: '2003',
    providerId: '103',
    name: 'Sweetgrass Dispatch',
    category: 'delivery',
    capabilities: ['courier.dispatch', 'orders.read'],
    status: 'BETA',
  },
];

export const capabilityById = (id: string): Rec | undefined => CAPABILITIES.find((c) => c.id === id);

/** One store shared by both listening addresses (one database behind two load-balancer names). */
export class Store {
  readonly seq = new Sequence(1000);
  readonly auditSeq = new Sequence(1);
  readonly connections = new Map<string, Rec[]>();
  readonly webhooks = new Map<string, Webhook>();
  readonly deliveries = new Map<string, Delivery>();
  readonly audit = new Map<string, Rec[]>();
  /** Per tenant stream log; the public stream has its own numbering and no tenant data. */
  readonly streams = new Map<string, StreamEvent[]>();
  readonly options: Required<PalmettoOptions>;
  constructor(options: Required<PalmettoOptions>) {
    this.options = options;
  }

  list<T>(map: Map<string, T[]>, tenant: string): T[] {
    let l = map.get(tenant);
    if (!l) {
      l = [];
      map.set(tenant, l);
    }
    return l;
  }
}
