// The shared dicts of the OpenResty original (lua_shared_dict catalog, tenants, connections, events...), one
// store for both listeners, and the invented catalog of a sandbox.
import type { Rec } from './http.ts';

export const ENVIRONMENTS = ['development', 'sandbox', 'pilot', 'production'];

export interface SourwoodOptions {
  /** Calls a rate-limit window allows per client, tenant and environment (resty.limit.count). */
  rateLimit?: number;
  windowMs?: number;
  /** Access-token lifetime in seconds (lua-resty-jwt exp claim). */
  tokenTtl?: number;
  /** Audit log order: newest first (LPUSH + LRANGE) by default. */
  auditOldestFirst?: boolean;
  /** The largest audit page. */
  auditMaxPage?: number;
  /**
   * The first audit entry's link: 64 zeros, or `null` (cjson.null; the hash then reads it as "", as Lua's
   * `prev_hash or ""` does).
   */
  auditGenesis?: 'zeros' | 'null';
  /** Stream messages without an `event:` line (the kind only inside `data`), as a minimal ngx.print writer sends. */
  sseUnnamed?: boolean;
  /** `token_type: "bearer"` in lower case (RFC 6749 §5.1: case-insensitive), as lua-resty-openidc examples answer. */
  lowerTokenType?: boolean;
  /** Client authentication at the token endpoint: both methods, or client_secret_post only. */
  tokenAuth?: 'both' | 'post';
  /** Service-Version: optional with unknown values refused (default), required, or lenient (unknown read as current). */
  serviceVersion?: 'optional' | 'required' | 'lenient';
  /** Seconds until a new connection turns from provisioning to active. */
  activateAfterMs?: number;
}

export const providers: Rec[] = [
  {
    id: 'prv-kestrel-pay',
    name: 'Kestrel Pay',
    category: 'payments',
    summary: 'Card and wallet acquiring',
    region: 'eu',
  },
  {
    id: 'prv-larkspur-pos',
    name: 'Larkspur POS',
    category: 'point-of-sale',
    summary: 'Till systems for venues',
    region: 'eu',
  },
  { id: 'prv-heron-books', name: 'Heron Books', category: 'accounting', summary: 'Ledger exports', region: 'global' },
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
    id: 'con-kestrel-online',
    providerId: 'prv-kestrel-pay',
    name: 'Kestrel Online',
    category: 'payments',
    capabilities: ['payments.capture', 'payments.refund'],
  },
  {
    id: 'con-larkspur-till',
    providerId: 'prv-larkspur-pos',
    name: 'Larkspur Till',
    category: 'point-of-sale',
    capabilities: ['orders.read', 'orders.write', 'payments.capture'],
  },
  {
    id: 'con-heron-ledger',
    providerId: 'prv-heron-books',
    name: 'Heron Ledger',
    category: 'accounting',
    capabilities: ['ledger.export', 'orders.read'],
  },
];

/** Tenants the OAuth client may act for; `sourwood-cellar` exists but is not released to it (403). */
export const TENANTS = { main: 'sourwood-tavern', other: 'sourwood-bakery', locked: 'sourwood-cellar' };
export const RELEASED = new Set([TENANTS.main, TENANTS.other]);
export const KNOWN = new Set([...RELEASED, TENANTS.locked]);

export interface Store {
  options: Required<SourwoodOptions>;
  connections: Map<string, Rec[]>;
  webhooks: Map<string, Rec>;
  attempts: Map<string, Rec[]>;
  audit: Map<string, Rec[]>;
  timers: Set<NodeJS.Timeout>;
}

export function createStore(options: SourwoodOptions = {}): Store {
  return {
    options: {
      rateLimit: options.rateLimit ?? 600,
      windowMs: options.windowMs ?? 60_000,
      tokenTtl: options.tokenTtl ?? 300,
      auditOldestFirst: options.auditOldestFirst ?? false,
      auditMaxPage: options.auditMaxPage ?? 100,
      activateAfterMs: options.activateAfterMs ?? 1500,
      auditGenesis: options.auditGenesis ?? 'zeros',
      sseUnnamed: options.sseUnnamed ?? false,
      lowerTokenType: options.lowerTokenType ?? false,
      tokenAuth: options.tokenAuth ?? 'both',
      serviceVersion: options.serviceVersion ?? 'optional',
    },
    connections: new Map(),
    webhooks: new Map(),
    attempts: new Map(),
    audit: new Map(),
    timers: new Set(),
  };
}

export const listOf = <T>(m: Map<string, T[]>, k: string): T[] => {
  let l = m.get(k);
  if (!l) {
    l = [];
    m.set(k, l);
  }
  return l;
};
