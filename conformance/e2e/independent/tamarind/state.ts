// The one in-memory store both listeners share, in the shape the Flask app keeps in SQLAlchemy tables:
// integer autoincrement primary keys per table, rendered as strings only where the contract types an id
// as a string (a connection's id), and snake_case for every column the contract does not name.

import { type TamarindOptions, withDefaults } from './options.ts';

export type { TamarindOptions } from './options.ts';

/** A JSON object as parsed from a request body or built for a response. */
export type Json = Record<string, unknown>;

export interface Connection {
  pk: number;
  tenant: string;
  connector_id: string;
  environment: string;
  scope_label: string;
  state: string;
  capabilities: string[];
  created_at: string;
  updated_at: string;
}

export interface Webhook {
  pk: number;
  tenant: string;
  url: string;
  events: string[];
  secret: string;
  created_at: string;
  deleted: boolean;
}

export interface Delivery {
  pk: number;
  webhook_pk: number;
  event_id: number | string;
  event: string;
  body: string;
  status: 'queued' | 'succeeded' | 'retrying' | 'failed';
  attempts: number;
  response_status: number | null;
  redelivery_of: number | null;
  created_at: string;
  last_attempt_at: string | null;
}

export interface AuditEntry {
  id: number;
  tenant: string;
  action: string;
  actor: string;
  resource_type: string;
  resource_id: string;
  at: string;
  prev_hash: string | null;
  entry_hash: string;
}

export interface StoredResponse {
  fingerprint: string;
  status: number;
  body: Json;
  operation: string;
  expires_at: number;
}

/** Autoincrement counters, one per table, as PostgreSQL sequences would hand them out. */
export class Sequences {
  private readonly next = new Map<string, number>();
  take(table: string): number {
    const n = (this.next.get(table) ?? 0) + 1;
    this.next.set(table, n);
    return n;
  }
}

export class Store {
  readonly seq = new Sequences();
  readonly connections: Connection[] = [];
  readonly webhooks: Webhook[] = [];
  readonly deliveries: Delivery[] = [];
  readonly audit: AuditEntry[] = [];
  /** Idempotency records keyed by client, tenant and key (Redis keys in production). */
  readonly idempotency = new Map<string, StoredResponse>();
  readonly options: Required<TamarindOptions>;
  constructor(options: TamarindOptions = {}) {
    this.options = withDefaults(options);
  }
}

/** The sandbox's invented tenants: two released to the partner client, one that exists but is not. */
export const TENANTS = {
  main: 'harbor-bistro',
  other: 'lantern-cafe',
  foreign: 'northwind-diner',
} as const;

export const VERSION = '2026-07-01';
export const VERSIONS = ['2026-06-12', '2026-07-01'] as const;
export const ENVIRONMENTS = ['development', 'sandbox', 'pilot', 'production'] as const;
export const BASE = '/api/public/v1';

/**
 * Python's `datetime.now(timezone.utc).isoformat()`: microseconds and a `+00:00` offset rather than `Z`
 * (both RFC 3339 date-times); the sub-millisecond digits come from the monotonic clock.
 */
export function isoformat(ms: number): string {
  const micros = String(Math.floor((performance.now() % 1) * 1000)).padStart(3, '0');
  return new Date(ms).toISOString().replace('Z', `${micros}+00:00`);
}

export const nowIso = (): string => isoformat(Date.now());
