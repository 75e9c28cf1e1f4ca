// Teak's in-memory store: what a Crystal team keeps in Granite models (snowflake-like Int64 primary keys,
// serialized as decimal strings because the interface types every id as a string), held in one object
// so the main and the alternate listener serve the same data.
import { randomBytes } from 'node:crypto';

// biome-ignore lint/suspicious/noExplicitAny: free-form JSON records, as elsewhere in the kit's folders
export type Rec = Record<string, any>;

export interface TeakOptions {
  /** Calls per window and client/tenant/environment (Kemal rate-limit middleware). */
  rateLimit?: number;
  windowMs?: number;
  /** Access-token lifetime in seconds. */
  tokenTtlSec?: number;
  /** Audit-log page size cap (Granite `limit` clamp) and the order of its pages. */
  auditMaxPerPage?: number;
  auditOldestFirst?: boolean;
  /** Numbered pages with a Link header (default), or an opaque `cursor` with `data.next_cursor`. */
  auditPaging?: 'pages' | 'cursor';
  /** The chain head signed with Ed25519 on every page. */
  auditSigned?: boolean;
  /** `post`: the token route reads client_id/client_secret from the form only and refuses HTTP Basic. */
  tokenAuth?: 'both' | 'post';
  /** A Service-Version header required on every API call (400 without it). */
  versionRequired?: boolean;
}

export const VERSION = '2026-07-01';
export const VERSIONS = ['2026-07-01', '2026-06-12'] as const;
export const ENVIRONMENTS = ['development', 'sandbox', 'pilot', 'production'] as const;
export const WEBHOOK_EVENTS = [
  'connection.created',
  'connection.state_changed',
  'order.created',
  'order.paid',
] as const;

// A snowflake: milliseconds since the team's epoch, a worker number and a per-millisecond sequence.
const EPOCH = 1_577_836_800_000n; // 2020-01-01
let lastMs = 0n;
let seqInMs = 0n;
export function snowflake(worker = 7n): string {
  const now = BigInt(Date.now());
  seqInMs = now === lastMs ? (seqInMs + 1n) & 0xfffn : 0n;
  lastMs = now;
  return (((now - EPOCH) << 22n) | (worker << 12n) | seqInMs).toString();
}

export const CAPABILITIES: Rec[] = [
  { id: 'menu.sync', label: 'Menu synchronisation', critical: false, idempotencyRequired: false },
  { id: 'order.ingest', label: 'Order intake', critical: true, idempotencyRequired: true },
  { id: 'payment.capture', label: 'Payment capture', critical: true, idempotencyRequired: true },
  { id: 'table.reserve', label: 'Table reservation', critical: false, idempotencyRequired: true },
  { id: 'stock.read', label: 'Stock levels', critical: false, idempotencyRequired: false },
];

export const PROVIDERS: Rec[] = [
  { id: 'prv-grillhouse', name: 'Grillhouse POS', category: 'pos', summary: 'Point of sale for grills' },
  { id: 'prv-paywharf', name: 'PayWharf', category: 'payments', summary: 'Card acquiring' },
  { id: 'prv-tablebook', name: 'TableBook', category: 'reservations', summary: 'Table booking' },
];

export const CONNECTORS: Rec[] = [
  {
    id: 'con-grillhouse-v3',
    providerId: 'prv-grillhouse',
    name: 'Grillhouse v3',
    category: 'pos',
    capabilities: ['menu.sync', 'order.ingest', 'stock.read'],
  },
  {
    id: 'con-paywharf',
    providerId: 'prv-paywharf',
    name: 'PayWharf Gateway',
    category: 'payments',
    capabilities: ['payment.capture'],
  },
  {
    id: 'con-tablebook',
    providerId: 'prv-tablebook',
    name: 'TableBook Sync',
    category: 'reservations',
    capabilities: ['table.reserve', 'menu.sync'],
  },
];

export interface Store {
  options: Required<TeakOptions>;
  clientId: string;
  clientSecret: string;
  /** Tenants that exist; `released` are the ones the client may act for. */
  tenants: string[];
  released: Set<string>;
  tokens: Map<string, { clientId: string; expiresAt: number }>;
  connections: Map<string, Rec[]>;
  idempotency: Map<string, { fingerprint: string; status: number; body: Rec; at: number }>;
  rate: Map<string, { windowStart: number; count: number }>;
  webhooks: Map<string, Rec>;
  deliveries: Map<string, Rec[]>;
  audit: Map<string, Rec[]>;
}

export function createStore(options: TeakOptions = {}): Store {
  return {
    options: {
      rateLimit: options.rateLimit ?? 600,
      windowMs: options.windowMs ?? 60_000,
      tokenTtlSec: options.tokenTtlSec ?? 900,
      auditMaxPerPage: options.auditMaxPerPage ?? 100,
      auditOldestFirst: options.auditOldestFirst ?? false,
      auditSigned: options.auditSigned ?? false,
      auditPaging: options.auditPaging ?? 'pages',
      tokenAuth: options.tokenAuth ?? 'both',
      versionRequired: options.versionRequired ?? false,
    },
    clientId: `teak_cli_${randomBytes(6).toString('hex')}`,
    clientSecret: `teak_sec_${randomBytes(24).toString('hex')}`,
    tenants: ['bistro-lindenhof', 'cafe-am-hafen', 'grill-nordstern'],
    released: new Set(['bistro-lindenhof', 'cafe-am-hafen']),
    tokens: new Map(),
    connections: new Map(),
    idempotency: new Map(),
    rate: new Map(),
    webhooks: new Map(),
    deliveries: new Map(),
    audit: new Map(),
  };
}
