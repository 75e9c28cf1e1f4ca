// sweetgum's in-memory store: what the Dart service keeps in Postgres (package:postgres) held in Maps here,
// the options and the connection record. Ids are UUID v4 (package:uuid's default).
import { randomUUID } from 'node:crypto';

// biome-ignore lint/suspicious/noExplicitAny: JSON records as the handlers read them (Dart's Map<String, dynamic>)
export type Rec = Record<string, any>;

export interface SweetgumOptions {
  /** Calls per window per client, tenant and environment (shelf_rate_limiter's fixed window). */
  rateLimit?: number;
  windowMs?: number;
  /** Access-token lifetime in seconds (the authorization server's `expires_in`). */
  tokenTtlSeconds?: number;
  /** Audit proof: a bare SHA-256 hash chain, or the chain head also signed with Ed25519. */
  auditProof?: 'chain' | 'signed';
  /** Largest audit page (`limit` is clamped to it). */
  auditMaxPageSize?: number;
  /** A stream opened without a cursor replays the log from its first message (else: live messages only). */
  streamReplayAll?: boolean;
  /** Route paths in the self-description as shelf_router writes them (`<webhookId>`), else `{webhookId}`. */
  shelfPaths?: boolean;
  /** The token endpoint takes client_secret_basic only (package:oauth2's default), refusing a posted secret. */
  basicAuthOnly?: boolean;
  /** Service-Version is mandatory on /api/public/v1 calls (a missing one is a 400), else optional. */
  versionRequired?: boolean;
  /** Milliseconds each Postgres round trip takes (a query per authenticated call, one more per write). */
  dbLatencyMs?: number;
}

export const ENVIRONMENTS = ['development', 'sandbox', 'pilot', 'production'] as const;
export const VERSION = '2026-07-01';
export const VERSIONS = ['2026-06-12', '2026-07-01'];

export const uuid = () => randomUUID();

/** One Postgres round trip (none when the latency is 0, so the in-memory answer stays synchronous). */
export const roundTrip = (store: Store): Promise<void> | undefined =>
  store.options.dbLatencyMs > 0 ? new Promise((r) => setTimeout(r, store.options.dbLatencyMs)) : undefined;

/** Dart's `DateTime.now().toUtc().toIso8601String()`: microseconds and a `Z`. */
export function dartNow(ms = Date.now()): string {
  const micro = String(Math.floor((performance.now() % 1) * 1000)).padStart(3, '0');
  return `${new Date(ms).toISOString().slice(0, 23)}${micro}Z`;
}

/** Connection states, as the Dart enum's `.name` writes them. */
export type ConnectionState = 'pendingActivation' | 'active' | 'paused' | 'revoked';

export interface Connection {
  id: string;
  tenant: string;
  connectorId: string;
  environment: string;
  scopeLabel: string;
  state: ConnectionState;
  capabilities: { capability: string; critical: boolean; idempotencyRequired: boolean }[];
  nextStep: string;
  createdAt: string;
  updatedAt: string | null;
}

export interface Store {
  options: Required<SweetgumOptions>;
  connections: Connection[];
}

export function newStore(options: SweetgumOptions): Store {
  return {
    options: {
      rateLimit: options.rateLimit ?? 600,
      windowMs: options.windowMs ?? 60_000,
      tokenTtlSeconds: options.tokenTtlSeconds ?? 900,
      auditProof: options.auditProof ?? 'chain',
      auditMaxPageSize: options.auditMaxPageSize ?? 100,
      streamReplayAll: options.streamReplayAll ?? false,
      shelfPaths: options.shelfPaths ?? false,
      basicAuthOnly: options.basicAuthOnly ?? false,
      versionRequired: options.versionRequired ?? false,
      dbLatencyMs: options.dbLatencyMs ?? 0,
    },
    connections: [],
  };
}
