// The shared state of both base addresses: catalog, tenants, tokens, connections, keys, webhooks, audit, stream.
// One object, passed to every handler, so the main and the alternate port serve the same data.
import type { ServerResponse } from 'node:http';
import type { ApiError } from './http.ts';

export interface Options {
  /** Calls per fixed window per token, tenant and environment (default 1000). */
  rateLimit?: number;
  /** Window length in ms (default 60 000; short in tests). */
  windowMs?: number;
  /** Delay of pending -> active in ms (default 400). */
  activationMs?: number;
  /** Entries per audit page when neither per_page nor limit is sent (default 25). */
  auditPerPage?: number;
  /** Largest per_page (or limit) the audit log accepts; above it 400 (default 100; Laravel teams often cap at 15-50). */
  auditMaxPerPage?: number;
  /** The delivery log (added in 2026-07-01) is refused (404) to callers asking for Service-Version 2026-06-12. */
  versionGatedDeliveryLog?: boolean;
  /** Delay before a queued delivery is sent (a Laravel queue worker polling; default 0). */
  queueDelayMs?: number;
  /** A key whose operation was refused after validation (404, 409) replays that refusal (meta.replayed true). */
  replayRefusals?: boolean;
  /** A tenant that does not exist answers 404 not_found (route-model binding), one not released 403. */
  unknownTenantNotFound?: boolean;
  /** Query parameters a GET does not take answer 400. */
  strictQuery?: boolean;
  /** A key issued by POST /idempotency-keys serves only the operation it names (else 409 idempotency_conflict). */
  bindIssuedKeys?: boolean;
  /** A resend sends the same delivery record again (same id, one more attempt) instead of a new delivery. */
  resendSameDelivery?: boolean;
  /** Audit pages oldest first (Laravel's `paginate()` by id) instead of newest first. */
  auditOldestFirst?: boolean;
  /** Service-Version required on authenticated calls (428-free: a missing one answers 400). */
  serviceVersionRequired?: boolean;
}

export interface Connection {
  id: string;
  connectorId: string;
  environment: string;
  scopeLabel: string;
  state: string;
  capabilities: { capability: string; critical: boolean; idempotencyRequired: boolean }[];
  nextStep: string;
  createdAt: string;
  updated_at: string;
}

export interface Stored {
  fingerprint: string;
  tenant: string;
  data: unknown;
  /** A stored refusal (replayRefusals only). */
  error?: ApiError;
  expiresAt: number;
}

export interface Webhook {
  id: string;
  tenant: string;
  url: string;
  events: string[];
  signingKey: string;
  created_at: string;
  deleted: boolean;
}

export interface Delivery {
  id: string;
  webhook_id: string;
  event_id: string;
  event: string;
  status: string;
  attempts: number;
  response_status: number | null;
  resend_of: string | null;
  created_at: string;
  delivered_at: string | null;
  /** The payload, kept so a resend sends the same event (freshly signed). */
  body: string;
}

export interface AuditEntry {
  id: string;
  seq: number;
  action: string;
  subject_id: string;
  client_id: string;
  occurred_at: string;
  prev_hash: string;
  hash: string;
}

export interface StreamMessage {
  seq: number;
  event: string;
  data: string;
}

export interface State {
  opts: Required<Options>;
  clients: Map<string, { secret: string; tenants: string[] }>;
  /** Every tenant that exists; those not in a client's list answer 403. */
  tenants: Set<string>;
  tokens: Map<string, { clientId: string; expiresAt: number }>;
  windows: Map<string, { start: number; count: number }>;
  connections: Map<string, Connection[]>;
  /** Idempotency records per client, tenant and key (48 h). */
  keys: Map<string, Stored>;
  /** Keys in flight, so four same-key calls sent at once make one connection. */
  inFlight: Set<string>;
  issued: Map<string, { operation: string; expiresAt: number }>;
  webhooks: Map<string, Webhook>;
  deliveries: Map<string, Delivery[]>;
  audit: Map<string, AuditEntry[]>;
  stream: StreamMessage[];
  listeners: Set<ServerResponse>;
  timers: Set<NodeJS.Timeout>;
}

export function createState(
  options: Options,
  clientId: string,
  clientSecret: string,
  tenants: string[],
  foreign: string,
): State {
  return {
    opts: {
      rateLimit: options.rateLimit ?? 1000,
      windowMs: options.windowMs ?? 60_000,
      activationMs: options.activationMs ?? 400,
      auditPerPage: options.auditPerPage ?? 25,
      auditMaxPerPage: options.auditMaxPerPage ?? 100,
      auditOldestFirst: options.auditOldestFirst ?? false,
      versionGatedDeliveryLog: options.versionGatedDeliveryLog ?? false,
      queueDelayMs: options.queueDelayMs ?? 0,
      replayRefusals: options.replayRefusals ?? false,
      unknownTenantNotFound: options.unknownTenantNotFound ?? false,
      strictQuery: options.strictQuery ?? false,
      resendSameDelivery: options.resendSameDelivery ?? false,
      bindIssuedKeys: options.bindIssuedKeys ?? false,
      serviceVersionRequired: options.serviceVersionRequired ?? false,
    },
    clients: new Map([[clientId, { secret: clientSecret, tenants }]]),
    tenants: new Set([...tenants, foreign]),
    tokens: new Map(),
    windows: new Map(),
    connections: new Map(),
    keys: new Map(),
    inFlight: new Set(),
    issued: new Map(),
    webhooks: new Map(),
    deliveries: new Map(),
    audit: new Map(),
    stream: [],
    listeners: new Set(),
    timers: new Set(),
  };
}

/** setTimeout that close() can cancel. */
export function later(state: State, ms: number, fn: () => void): void {
  const t = setTimeout(() => {
    state.timers.delete(t);
    fn();
  }, ms);
  state.timers.add(t);
}
