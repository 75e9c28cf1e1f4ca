// Mahogany's start options, fixed identities and the interface versions it serves.

/** Start options of a mahogany deployment (every field optional). */
export interface MahoganyOptions {
  /** Port of the main base URL (0 = a free port). */
  port?: number;
  /** Port of the alternate base URL (0 = a free port). */
  altPort?: number;
  /** Calls per access, tenant and window (default 1200). */
  rateLimit?: number;
  /** Length of the fixed rate-limit window in ms (default 60 000). */
  windowMs?: number;
  /** Lifetime of an access token in seconds (default 3600; e.g. 5 for short-lived tokens). */
  tokenTtlSeconds?: number;
  /** Ends each stream response after this many seconds (default: never); clients resume with Last-Event-ID. */
  streamMaxSeconds?: number;
  /** GET /connections reads a replica that lags this many ms behind the writes (default 0). */
  replicaLagMs?: number;
  /** Validity of an idempotency key and its stored response in ms (default 24 h). */
  idempotencyTtlMs?: number;
}

export interface ResolvedOptions {
  rateLimit: number;
  windowMs: number;
  tokenTtlSeconds: number;
  streamMaxSeconds: number;
  replicaLagMs: number;
  idempotencyTtlMs: number;
}

export function resolveOptions(o: MahoganyOptions = {}): ResolvedOptions {
  return {
    rateLimit: o.rateLimit ?? 1200,
    windowMs: o.windowMs ?? 60_000,
    tokenTtlSeconds: o.tokenTtlSeconds ?? 3600,
    streamMaxSeconds: o.streamMaxSeconds ?? 0,
    replicaLagMs: o.replicaLagMs ?? 0,
    idempotencyTtlMs: o.idempotencyTtlMs ?? 24 * 3600 * 1000,
  };
}

export const SERVICE = 'mahogany';
export const SURFACE = 'public';
export const CURRENT_VERSION = '2026-07-01';
export const VERSIONS = ['2026-07-01', '2026-06-12'] as const;
export const ENVIRONMENTS = ['development', 'sandbox', 'pilot', 'production'] as const;
export const DEPLOYMENT_ENVIRONMENT = 'sandbox';
export const BASE_PATH = '/api/public/v1';
export const TOKEN_PATH = '/oauth/token';
export const SCOPES = ['ncs.read', 'ncs.write'];

/** The OAuth client of the partner (XSUAA-style client id). */
export const CLIENT_ID = 'sb-mahogany-partner!t4711';
export const CLIENT_SECRET = 'mhg-5ecret-0f3c9a1d2e7b4c86a5d0e9f1b2c3d4e5';

/** Tenants (subaccount-style GUIDs): two released for the client, one that exists but is not released. */
export const TENANT = '6a0e2f1c-3b4d-4e5f-8a9b-0c1d2e3f4a01';
export const OTHER_TENANT = '6a0e2f1c-3b4d-4e5f-8a9b-0c1d2e3f4a02';
export const FOREIGN_TENANT = '6a0e2f1c-3b4d-4e5f-8a9b-0c1d2e3f4a99';
export const RELEASED_TENANTS = new Set([TENANT, OTHER_TENANT]);

/** Webhook event names a receiver may subscribe to. */
export const WEBHOOK_EVENTS = ['connection.created', 'connection.state_changed', 'order.created', 'order.paid'];
export const WEBHOOK_SIGNATURE_HEADER = 'sap-webhook-signature';
export const WEBHOOK_DELIVERY_HEADER = 'sap-webhook-delivery-id';
/** Automatic retry delays of a failed delivery (ms); three attempts in all. */
export const DELIVERY_RETRY_DELAYS = [2000, 8000];

export const IDEMPOTENCY_KEY_PATTERN = /^[A-Za-z0-9._:-]{8,128}$/;
