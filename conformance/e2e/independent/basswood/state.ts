// Basswood's in-memory "database": what a Sinatra + Sequel team keeps in SQLite tables, with integer primary
// keys handed out per table (Sequel's autoincrement) and `created_at` written as Ruby's Time#iso8601 (+00:00).
import type { ServerResponse } from 'node:http';
import { createCatalog } from './catalog.ts';

// biome-ignore lint/suspicious/noExplicitAny: JSON rows as Oj writes them, string keys
export type Rec = Record<string, any>;

export interface BasswoodOptions {
  /** Requests a client may make per tenant in one rack-attack period. */
  rateLimit?: number;
  /** A second rack-attack throttle for POST/DELETE (`throttle('writes/client')`), with its own limit; 0: none. */
  writeLimit?: number;
  /** The rack-attack period (fixed window). */
  windowMs?: number;
  /** Access token lifetime in seconds (expires_in). */
  tokenTtlSec?: number;
  /** Audit proof: a bare hash chain, or a chain whose head is signed with Ed25519. */
  auditProof?: 'chain' | 'signed';
  /**
   * An entry's digest: SHA-256 of its JSON as served without `digest` (default), or of its columns joined by
   * `|` as `[previous_digest, id, action, auditable_type, auditable_id, created_at].join('|')` writes them
   * (Ruby's join writes nil as an empty string).
   */
  auditDigest?: 'json' | 'joined';
  /** The host's UTC offset in minutes, which Time#iso8601 writes (Sequel keeps local times by default). */
  utcOffsetMin?: number;
  /** Audit paging told by pagy's headers (Link, Current-Page, ...) or by will_paginate's fields in `data`. */
  auditPaging?: 'headers' | 'body';
  /** Audit log order: newest first (ORDER BY id DESC, the default) or oldest first. */
  auditOldestFirst?: boolean;
  /** Largest page of the audit log (pagy's max_items). */
  auditMaxPerPage?: number;
  /** Sidekiq queue latency before a delivery job runs. */
  deliveryDelayMs?: number;
  /** Closes each stream after this long (a proxy's idle cut); 0 keeps it open. Clients resume by Last-Event-ID. */
  streamMaxMs?: number;
  /** Token endpoint client authentication: basic or post (default), or client_secret_post only. */
  tokenAuth?: 'basic_or_post' | 'post';
  /** A stream opened without cursor or Last-Event-ID starts at the live tail (no backlog), as a Redis pub/sub relay does. */
  streamFromNow?: boolean;
  /** dry-validation's `validate_keys`: a body field the schema does not list is refused (400). */
  strictKeys?: boolean;
  /** SSE frames without an `event:` line (every message the default `message` type; the name is in data). */
  streamPlainFrames?: boolean;
  /** A retry re-runs the logged attempt itself (same attempt id, `attempts` + 1), as Sidekiq's "retry now" does. */
  retryInPlace?: boolean;
  /** A sandbox connection turns from provisioning to active after this long (0: it stays provisioning). */
  activateAfterMs?: number;
  /** Refuses a call without Service-Version (400), as a `before` filter pinning every call to a version. */
  versionRequired?: boolean;
}

export const VERSION = '2026-07-01';
export const VERSIONS = ['2026-06-12', '2026-07-01'];
export const API = '/api/public/v1';
export const ENVIRONMENTS = ['development', 'sandbox', 'pilot', 'production'];
export const WEBHOOK_EVENTS = ['connection.created', 'connection.activated', 'order.created', 'order.paid'];

/** Ruby's `Time#iso8601`: seconds and the server zone's offset (+00:00 on a UTC host, +01:00 in Berlin). */
export function rubyTime(store: { options: { utcOffsetMin: number } }, d: Date = new Date()): string {
  const off = store.options.utcOffsetMin;
  const local = new Date(d.getTime() + off * 60_000).toISOString().slice(0, 19);
  const abs = Math.abs(off);
  const hh = String(Math.floor(abs / 60)).padStart(2, '0');
  const mm = String(abs % 60).padStart(2, '0');
  return `${local}${off < 0 ? '-' : '+'}${hh}:${mm}`;
}

export interface Tenant {
  slug: string;
  released: boolean;
}

export interface Store {
  options: Required<BasswoodOptions>;
  tenants: Tenant[];
  clients: Map<string, { secret: string; tenants: string[] }>;
  tokens: Map<string, { clientId: string; expiresAt: number }>;
  providers: Rec[];
  connectors: Rec[];
  capabilities: Rec[];
  connections: Rec[];
  webhooks: Rec[];
  deliveries: Rec[];
  audits: Rec[];
  /** Stream messages per channel ("public" or a tenant slug), each numbered from 1 within its channel. */
  streams: Map<string, Rec[]>;
  listeners: Set<{ channel: string; res: ServerResponse; after: number }>;
  idempotency: Map<string, { fingerprint: string; status: number; body: Rec; expiresAt: number }>;
  windows: Map<string, { start: number; count: number }>;
  seq: Record<string, number>;
  timers: Set<NodeJS.Timeout>;
}

/** The next integer primary key of a table, as SQLite's AUTOINCREMENT hands them out. */
export function nextId(store: Store, table: string): number {
  store.seq[table] = (store.seq[table] ?? 0) + 1;
  return store.seq[table];
}

export function createStore(opts: BasswoodOptions = {}): Store {
  return {
    options: {
      rateLimit: opts.rateLimit ?? 600,
      windowMs: opts.windowMs ?? 60_000,
      writeLimit: opts.writeLimit ?? 0,
      tokenTtlSec: opts.tokenTtlSec ?? 7200,
      auditProof: opts.auditProof ?? 'chain',
      auditOldestFirst: opts.auditOldestFirst ?? false,
      auditMaxPerPage: opts.auditMaxPerPage ?? 100,
      auditDigest: opts.auditDigest ?? 'json',
      auditPaging: opts.auditPaging ?? 'headers',
      utcOffsetMin: opts.utcOffsetMin ?? 0,
      deliveryDelayMs: opts.deliveryDelayMs ?? 10,
      streamMaxMs: opts.streamMaxMs ?? 0,
      tokenAuth: opts.tokenAuth ?? 'basic_or_post',
      versionRequired: opts.versionRequired ?? false,
      streamFromNow: opts.streamFromNow ?? false,
      activateAfterMs: opts.activateAfterMs ?? 0,
      strictKeys: opts.strictKeys ?? false,
      retryInPlace: opts.retryInPlace ?? false,
      streamPlainFrames: opts.streamPlainFrames ?? false,
    },
    tenants: [
      { slug: 'copper-kettle', released: true },
      { slug: 'juniper-hall', released: true },
      { slug: 'old-mill-tavern', released: false },
    ],
    clients: new Map([['basswood-ci', { secret: 'bw_secret_3f9a1c7e', tenants: ['copper-kettle', 'juniper-hall'] }]]),
    tokens: new Map(),
    ...createCatalog(),
    connections: [],
    webhooks: [],
    deliveries: [],
    audits: [],
    streams: new Map([['public', []]]),
    listeners: new Set(),
    idempotency: new Map(),
    windows: new Map(),
    seq: {},
    timers: new Set(),
  };
}
