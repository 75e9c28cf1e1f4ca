// The in-memory stand-in for the team's Postgres schema (Diesel tables: tenants, connections, webhooks,
// deliveries, audit_entries, idempotency_keys), shared by both listening addresses.
import type { Rec } from './http.ts';

export interface RedbudOptions {
  /** GCRA burst size (X-RateLimit-Limit) and the period over which the whole burst replenishes. */
  rateLimit?: number;
  windowMs?: number;
  /** Access token lifetime in seconds. */
  tokenTtlSec?: number;
  /** Audit proof digest encoding: hex (default) or base64 (the team's alternative config). */
  auditEncoding?: 'hex' | 'base64';
  /** Audit paging: a `nextCursor` field (default) or an RFC 8288 Link header. */
  auditPaging?: 'cursor' | 'link';
  /** Largest audit page (Diesel `.limit()` clamp). */
  auditMaxLimit?: number;
  /** Sign the chain head with Ed25519 (ed25519-dalek over the head digest's bytes), the key shown beside it. */
  auditSigned?: boolean;
  /** The token endpoint's client authentication: both methods (default) or only the form (`client_secret_post`). */
  tokenAuth?: 'both' | 'post';
  /** A replayed webhook registration omits the signing key (shown exactly once, even to a retry). */
  redactReplayedKey?: boolean;
}

export const ENVIRONMENTS = ['development', 'sandbox', 'pilot', 'production'] as const;

export const PROVIDERS: Rec[] = [
  { id: 'lumen-pay', name: 'Lumen Pay', category: 'payments', summary: 'Card and wallet acceptance', country: 'DE' },
  { id: 'tablewise', name: 'Tablewise', category: 'reservations', summary: 'Table booking and waitlists' },
  { id: 'crateline', name: 'Crateline', category: 'delivery', summary: 'Courier dispatch for restaurants' },
];

export const CAPABILITIES: Rec[] = [
  { id: 'payments.capture', label: 'Capture payments', critical: true, idempotencyRequired: true },
  { id: 'payments.refund', label: 'Refund payments', critical: true, idempotencyRequired: true },
  { id: 'payments.tokenize', label: 'Tokenize cards', critical: false, idempotencyRequired: true },
  { id: 'reservations.read', label: 'Read reservations', critical: false, idempotencyRequired: false },
  { id: 'reservations.write', label: 'Write reservations', critical: false, idempotencyRequired: true },
  { id: 'delivery.dispatch', label: 'Dispatch couriers', critical: true, idempotencyRequired: true },
  { id: 'delivery.track', label: 'Track couriers', critical: false, idempotencyRequired: false },
];

export const CONNECTORS: Rec[] = [
  {
    id: 'lumen-pay-terminal',
    providerId: 'lumen-pay',
    name: 'Lumen terminal',
    category: 'payments',
    capabilities: ['payments.capture', 'payments.refund', 'payments.tokenize'],
  },
  {
    id: 'tablewise-sync',
    providerId: 'tablewise',
    name: 'Tablewise sync',
    category: 'reservations',
    capabilities: ['reservations.read', 'reservations.write'],
  },
  {
    id: 'crateline-dispatch',
    providerId: 'crateline',
    name: 'Crateline dispatch',
    category: 'delivery',
    capabilities: ['delivery.dispatch', 'delivery.track'],
  },
];

/** Production is closed to the practice client: a decision there says so (allowed false). */
export const CLOSED_ENVIRONMENTS = new Set(['production']);

export interface Delivery {
  id: number;
  webhookId: number;
  tenant: string;
  eventId: string;
  eventType: string;
  body: string;
  status: 'pending' | 'delivered' | 'failed';
  attempts: number;
  nextAttemptAt: number;
  responseStatus: number | null;
  createdAt: string;
  lastAttemptAt: string | null;
  redeliveryOf: number | null;
}

export interface Store {
  options: Required<RedbudOptions>;
  tenants: Map<string, { released: boolean }>;
  tokens: Map<string, { clientId: string; expiresAt: number }>;
  connections: Map<string, Rec[]>;
  webhooks: Map<number, Rec & { id: number; tenant: string; secret: string; events: string[]; url: string }>;
  deliveries: Delivery[];
  audit: Map<string, Rec[]>;
  idempotency: Map<string, { fingerprint: string; data: Rec; at: number }>;
  issuedKeys: Map<string, Rec>;
  /** BIGSERIAL sequences. */
  seq: { webhook: number; delivery: number };
}

export function newStore(options: RedbudOptions = {}): Store {
  return {
    options: {
      rateLimit: options.rateLimit ?? 600,
      windowMs: options.windowMs ?? 60_000,
      tokenTtlSec: options.tokenTtlSec ?? 900,
      auditEncoding: options.auditEncoding ?? 'hex',
      auditPaging: options.auditPaging ?? 'cursor',
      auditMaxLimit: options.auditMaxLimit ?? 100,
      auditSigned: options.auditSigned ?? false,
      tokenAuth: options.tokenAuth ?? 'both',
      redactReplayedKey: options.redactReplayedKey ?? false,
    },
    tenants: new Map([
      ['trattoria-nord', { released: true }],
      ['bistro-sued', { released: true }],
      ['kantine-west', { released: false }],
    ]),
    tokens: new Map(),
    connections: new Map(),
    webhooks: new Map(),
    deliveries: [],
    audit: new Map(),
    idempotency: new Map(),
    issuedKeys: new Map(),
    seq: { webhook: 0, delivery: 0 },
  };
}
