// The in-memory stand-in for the Oracle schema: sequences, the catalog tables, tenants and connections.
import type { Rec } from './http.ts';

export interface AilanthusOptions {
  /** Resilience4j limitForPeriod: calls per window per client, tenant and environment. */
  rateLimit?: number;
  /** Resilience4j limitRefreshPeriod in milliseconds. */
  windowMs?: number;
  /** Access token lifetime in seconds (IDCS default 3600). */
  tokenTtlSec?: number;
  /** Audit pages oldest first (ORDER BY seq ASC) instead of newest first. */
  auditOldestFirst?: boolean;
  /** The first row's previous hash: omitted (a null JSON-B drops) or 128 zero digits. */
  auditGenesis?: 'omit' | 'zeros';
  /** ORDS-style maximum page size of the audit log and delivery log. */
  maxPageSize?: number;
  /** The next page of the audit and delivery logs as a Link header too (else only offset, limit, hasMore). */
  pagingLinkHeader?: boolean;
  /** JSON-P's PRETTY_PRINTING for stream messages (several `data:` lines) and delivery bodies. */
  prettyJson?: boolean;
  /** A version filter that refuses a call without Service-Version (400) instead of assuming the current one. */
  requireServiceVersion?: boolean;
}

/** An Oracle sequence: NEXTVAL from a start value. */
export class Sequence {
  private value: number;
  constructor(start: number) {
    this.value = start;
  }
  next(): number {
    this.value += 1;
    return this.value;
  }
}

export const ENVIRONMENTS = ['development', 'sandbox', 'pilot', 'production'];

export const PROVIDERS: Rec[] = [
  { id: 'PRV-KESTREL', name: 'Kestrel Payments', category: 'payments', summary: 'Card and wallet acquiring' },
  { id: 'PRV-OSPREY', name: 'Osprey Logistics', category: 'delivery', summary: 'Last-mile courier dispatch' },
  { id: 'PRV-HERON', name: 'Heron POS', category: 'point-of-sale', summary: 'Till and kitchen systems' },
];

export const CAPABILITIES: Rec[] = [
  { id: 'payment.capture', label: 'Capture a payment', critical: true, idempotencyRequired: true },
  { id: 'payment.refund', label: 'Refund a payment', critical: true, idempotencyRequired: true },
  { id: 'order.read', label: 'Read orders', critical: false, idempotencyRequired: false },
  { id: 'order.create', label: 'Create orders', critical: false, idempotencyRequired: true },
  { id: 'courier.dispatch', label: 'Dispatch a courier', critical: false, idempotencyRequired: true },
  { id: 'menu.sync', label: 'Synchronise the menu', critical: false, idempotencyRequired: false },
];

export const CONNECTORS: Rec[] = [
  {
    id: 'CON-KESTREL-ACQ',
    providerId: 'PRV-KESTREL',
    name: 'Kestrel Acquiring',
    category: 'payments',
    capabilities: ['payment.capture', 'payment.refund'],
  },
  {
    id: 'CON-OSPREY-DISPATCH',
    providerId: 'PRV-OSPREY',
    name: 'Osprey Dispatch',
    category: 'delivery',
    capabilities: ['courier.dispatch', 'order.read'],
  },
  {
    id: 'CON-HERON-TILL',
    providerId: 'PRV-HERON',
    name: 'Heron Till',
    category: 'point-of-sale',
    capabilities: ['order.read', 'order.create', 'menu.sync'],
  },
];

export const capabilityOf = (id: string) => CAPABILITIES.find((c) => c.id === id);
export const connectorOf = (id: string) => CONNECTORS.find((c) => c.id === id);

export interface Store {
  options: Required<AilanthusOptions>;
  clients: Map<string, { secret: string; tenants: string[] }>;
  tenants: string[];
  connSeq: Sequence;
  connections: Rec[];
}

export function newStore(options: AilanthusOptions = {}): Store {
  return {
    options: {
      rateLimit: options.rateLimit ?? 600,
      windowMs: options.windowMs ?? 60_000,
      tokenTtlSec: options.tokenTtlSec ?? 3600,
      auditOldestFirst: options.auditOldestFirst ?? false,
      auditGenesis: options.auditGenesis ?? 'omit',
      maxPageSize: options.maxPageSize ?? 100,
      pagingLinkHeader: options.pagingLinkHeader ?? true,
      prettyJson: options.prettyJson ?? false,
      requireServiceVersion: options.requireServiceVersion ?? false,
    },
    // One confidential client released to two of the three tenants; the third exists but is not released (403).
    clients: new Map([['ailanthus-ci', { secret: 'ail-secret-7c1e9b', tenants: ['T-ROSEHIP', 'T-QUAYSIDE'] }]]),
    tenants: ['T-ROSEHIP', 'T-QUAYSIDE', 'T-FOXGLOVE'],
    connSeq: new Sequence(100_000),
    connections: [],
  };
}
