// The in-memory store standing in for Fluent + Postgres and Redis: one instance shared by both listeners,
// with the invented catalog seeded the way a Fluent migration's seed would.
import { generateKeyPairSync, type KeyObject } from 'node:crypto';
import type { Rec } from './http.ts';

export interface RosewoodOptions {
  /** Calls allowed per sliding window, per client, tenant and environment (Redis ZSET in production). */
  rateLimit?: number;
  windowMs?: number;
  /** Access-token lifetime (JWTKit `exp`). */
  tokenTtlSeconds?: number;
  /** The audit proof: a signed Merkle root (default) or a signed SHA-256 hash chain. */
  auditProof?: 'merkle' | 'chain';
  /** Fluent's `per` default of the audit page. */
  auditPerPage?: number;
}

export const CLIENT_ID = 'rosewood-partner-backend';
export const CLIENT_SECRET = 'rw_secret_8Yc2vQ7LmN4pT1xZ9kD3';

/** Tenants this client is released for, and one that exists but is not (403). */
export const RELEASED = ['BISTRO-NORD', 'CAFE-SUED'];
export const UNRELEASED = 'HAFEN-OST';

export const CAPABILITIES: Rec[] = [
  { id: 'menu.read', label: 'Read the menu', critical: false, idempotencyRequired: false },
  { id: 'menu.write', label: 'Publish menu changes', critical: false, idempotencyRequired: true },
  { id: 'orders.receive', label: 'Receive orders', critical: true, idempotencyRequired: true },
  { id: 'payments.capture', label: 'Capture payments', critical: true, idempotencyRequired: true },
  { id: 'tables.reserve', label: 'Reserve tables', critical: false, idempotencyRequired: true },
];

export const PROVIDERS: Rec[] = [
  {
    id: 'harbor-pos',
    name: 'Harbor POS',
    category: 'pos',
    summary: 'Point of sale for full-service venues',
    country: 'DE',
  },
  { id: 'swiftpay', name: 'SwiftPay', category: 'payments', summary: 'Card and wallet acquiring', country: 'NL' },
  { id: 'tablebook', name: 'TableBook', category: 'reservations', summary: 'Table reservations', country: 'AT' },
];

export const CONNECTORS: Rec[] = [
  {
    id: 'harbor-pos-cloud',
    providerId: 'harbor-pos',
    name: 'Harbor POS Cloud',
    category: 'pos',
    capabilities: ['menu.read', 'menu.write', 'orders.receive'],
  },
  {
    id: 'swiftpay-terminal',
    providerId: 'swiftpay',
    name: 'SwiftPay Terminal',
    category: 'payments',
    capabilities: ['payments.capture'],
  },
  {
    id: 'tablebook-api',
    providerId: 'tablebook',
    name: 'TableBook API',
    category: 'reservations',
    capabilities: ['tables.reserve', 'menu.read'],
  },
];

export interface StreamEvent {
  seq: number;
  event: string;
  data: Rec;
}

export interface Webhook {
  id: string;
  tenant: string;
  url: string;
  events: string[];
  secret: string;
  createdAt: string;
  deleted: boolean;
}

export interface Attempt {
  id: string;
  webhookId: string;
  eventId: string;
  eventType: string;
  body: string;
  attempt: number;
  statusCode: number | null;
  success: boolean;
  createdAt: string;
  redeliveryOf: string | null;
}

export interface AuditEntry extends Rec {
  id: string;
  sequence: number;
}

export class Store {
  readonly options: Required<RosewoodOptions>;
  readonly connections = new Map<string, Rec[]>();
  readonly webhooks = new Map<string, Webhook>();
  readonly attempts: Attempt[] = [];
  readonly audit = new Map<string, AuditEntry[]>();
  /** Tenant streams and the public one (key ''), each numbered from 1. */
  readonly streams = new Map<string, StreamEvent[]>();
  readonly listeners = new Set<(tenant: string, e: StreamEvent) => void>();
  readonly hits = new Map<string, number[]>();
  readonly idempotency = new Map<string, { fingerprint: string; status: number; data: unknown; meta: Rec }>();
  readonly issuedKeys = new Map<string, Rec>();
  /** CryptoKit's `Curve25519.Signing.PrivateKey()`, made at boot: the audit proof's signer. */
  readonly signingKey: { privateKey: KeyObject; publicKey: KeyObject };
  readonly jwtSecret: Buffer;

  constructor(options: RosewoodOptions, jwtSecret: Buffer) {
    this.options = {
      rateLimit: options.rateLimit ?? 1200,
      windowMs: options.windowMs ?? 60_000,
      tokenTtlSeconds: options.tokenTtlSeconds ?? 900,
      auditProof: options.auditProof ?? 'merkle',
      auditPerPage: options.auditPerPage ?? 25,
    };
    this.signingKey = generateKeyPairSync('ed25519');
    this.jwtSecret = jwtSecret;
  }

  tenantList<T>(map: Map<string, T[]>, tenant: string): T[] {
    let list = map.get(tenant);
    if (!list) {
      list = [];
      map.set(tenant, list);
    }
    return list;
  }

  /** Appends to a stream and tells every open connection; numbers are per stream so each is gap-free. */
  publish(tenant: string, event: string, data: Rec): void {
    const list = this.tenantList(this.streams, tenant);
    const e = { seq: list.length + 1, event, data };
    list.push(e);
    for (const l of this.listeners) l(tenant, e);
  }
}
