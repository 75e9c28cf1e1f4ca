// The one state both listeners share: tenants, tokens, connections, receivers, the stream and the logs.
import type { ServerResponse } from 'node:http';
import { randomToken, snowflake } from './util.ts';

export interface LindenOptions {
  /** Sliding-window limit per access (OAuth client) and per tenant, and the window's length. */
  accessLimit?: number;
  tenantLimit?: number;
  windowMs?: number;
  /** Dramatiq-style retries of a failed delivery: base backoff and the number of retries. */
  retryBaseMs?: number;
  maxRetries?: number;
  tokenTtlSeconds?: number;
  /** A connection moves provisioning -> live after this long. */
  liveAfterMs?: number;
  /** Another legal choice: every authenticated call must send Service-Version (400 without it). */
  serviceVersionRequired?: boolean;
  /** Another legal choice: the audit log newest first (keyset `before` instead of `after`). */
  auditNewestFirst?: boolean;
  /** Another legal choice: receiver and delivery ids as JSON numbers (bigserial), not Snowflake strings. */
  numericIds?: boolean;
  /** Audit paging: a `next` path plus a Link header (default), or only `data.nextAfter` (the seq to send as ?after=). */
  auditPaging?: 'link' | 'next-after';
  /** Largest audit page; a larger ?limit is refused with 400 (msgspec `le=`). */
  auditMaxLimit?: number;
  /** Another legal choice: unknown query parameters refused with 400, like unknown body fields. */
  strictQuery?: boolean;
  /** Another legal choice: audit entries in snake_case (prev_digest, idempotency_key), as a Python team might serve them. */
  auditSnakeCase?: boolean;
  /** Another legal choice: the server ends every stream response after this long (a proxy's read timeout). */
  streamMaxMs?: number;
  /** How long a key's first answer is kept (and an issued key's expiresAt); default 48 h. */
  keyTtlMs?: number;
  /** Client authentication methods of the token endpoint (Authlib's TOKEN_ENDPOINT_AUTH_METHODS). */
  tokenAuthMethods?: ('client_secret_basic' | 'client_secret_post')[];
  /**
   * How the creation's capabilities are read: as sent ('list', default), as msgspec decodes a frozenset
   * ('set': duplicates merged, sorted), or refused with 400 when an entry repeats ('unique').
   */
  capabilityList?: 'list' | 'set' | 'unique';
  /** Another legal choice: times as Python's datetime.isoformat() gives them (microseconds, +00:00). */
  pythonTimes?: boolean;
  /** Another legal choice: a requeue re-sends the same message (same id, attempts appended), not a new one. */
  requeueSameMessage?: boolean;
  /** Another legal choice: a cursor or Last-Event-ID beyond the newest message is refused with 400 (never read). */
  refuseCursorAhead?: boolean;
  /** Queue latency before a delivery's first attempt (a busy Dramatiq worker pool). */
  deliveryDelayMs?: number;
  /** Another legal choice: an unknown Service-Version is refused with 400 instead of answered as the current one. */
  refuseUnknownVersion?: boolean;
  clientSecret?: string;
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
  updatedAt: string;
}

export interface Webhook {
  id: string;
  tenant: string;
  url: string;
  events: string[];
  /** The signing key; shown once in the registration answer, never serialised from here. */
  secret: string;
  status: 'enabled' | 'deleted';
  createdAt: string;
}

export interface DeliveryAttempt {
  attempt: number;
  at: string;
  status: number | null;
  outcome: 'delivered' | 'failed';
  error?: string;
}

export interface Delivery {
  id: string;
  webhookId: string;
  tenant: string;
  eventId: string;
  event: string;
  body: string;
  status: 'queued' | 'retrying' | 'delivered' | 'dead';
  trigger: 'event' | 'requeue';
  requeueOf?: string;
  createdAt: string;
  attempts: DeliveryAttempt[];
  nextAttemptAt?: string;
  /** Attempts made before the latest requeue of the same message (retries count from there). */
  attemptsBeforeRequeue?: number;
}

export interface AuditEntry {
  seq: number;
  id: string;
  at: string;
  action: string;
  actor: string;
  resource: { type: string; id: string };
  idempotencyKey?: string;
  prevDigest: string;
  digest: string;
}

export interface StreamMessage {
  seq: number;
  kind: string;
  text: string;
}

export interface StoredResponse {
  fingerprint: string;
  status: number;
  data: unknown;
  expiresAt: number;
}

export interface State {
  options: Required<Omit<LindenOptions, 'clientSecret'>>;
  client: { id: string; secret: string; tenants: string[] };
  /** Every tenant that exists; only the client's `tenants` are released to it. */
  tenants: string[];
  tokens: Map<string, { clientId: string; expiresAt: number; scope: string }>;
  connections: Map<string, Connection[]>;
  webhooks: Map<string, Webhook>;
  deliveries: Delivery[];
  audit: Map<string, AuditEntry[]>;
  idempotency: Map<string, StoredResponse>;
  stream: { messages: StreamMessage[]; listeners: Set<ServerResponse> };
  timers: Set<NodeJS.Timeout>;
  /** bigserial counters of the numeric-id choice. */
  serials: { webhook: number; delivery: number };
}

export const TENANT = 'linden-harbor';
export const OTHER_TENANT = 'linden-meadow';
export const FOREIGN_TENANT = 'linden-quarry';

export function createState(options: LindenOptions = {}): State {
  return {
    options: {
      accessLimit: options.accessLimit ?? 600,
      tenantLimit: options.tenantLimit ?? Math.max(1000, (options.accessLimit ?? 600) * 2),
      windowMs: options.windowMs ?? 60_000,
      retryBaseMs: options.retryBaseMs ?? 1000,
      maxRetries: options.maxRetries ?? 4,
      tokenTtlSeconds: options.tokenTtlSeconds ?? 300,
      liveAfterMs: options.liveAfterMs ?? 250,
      serviceVersionRequired: options.serviceVersionRequired ?? false,
      auditNewestFirst: options.auditNewestFirst ?? false,
      numericIds: options.numericIds ?? false,
      auditPaging: options.auditPaging ?? 'link',
      auditMaxLimit: options.auditMaxLimit ?? 200,
      strictQuery: options.strictQuery ?? false,
      auditSnakeCase: options.auditSnakeCase ?? false,
      streamMaxMs: options.streamMaxMs ?? 0,
      keyTtlMs: options.keyTtlMs ?? 48 * 3600 * 1000,
      capabilityList: options.capabilityList ?? 'list',
      pythonTimes: options.pythonTimes ?? false,
      requeueSameMessage: options.requeueSameMessage ?? false,
      refuseCursorAhead: options.refuseCursorAhead ?? false,
      deliveryDelayMs: options.deliveryDelayMs ?? 0,
      refuseUnknownVersion: options.refuseUnknownVersion ?? false,
      tokenAuthMethods: options.tokenAuthMethods ?? ['client_secret_basic', 'client_secret_post'],
    },
    client: {
      id: 'linden-ci',
      secret: options.clientSecret ?? `lcs_${randomToken(30)}`,
      tenants: [TENANT, OTHER_TENANT],
    },
    tenants: [TENANT, OTHER_TENANT, FOREIGN_TENANT],
    tokens: new Map(),
    connections: new Map(),
    webhooks: new Map(),
    deliveries: [],
    audit: new Map(),
    idempotency: new Map(),
    stream: { messages: [], listeners: new Set() },
    timers: new Set(),
    serials: { webhook: 0, delivery: 0 },
  };
}

/** A timer the server clears on close (retries, state changes), so a closed deployment leaves nothing running. */
/** A timestamp in the deployment's format: ISO 8601 in UTC, `Z` with milliseconds or `+00:00` with microseconds. */
export function stamp(state: State, ms = Date.now()): string {
  const iso = new Date(ms).toISOString();
  return state.options.pythonTimes ? `${iso.slice(0, 23)}000+00:00` : iso;
}

/** A new id of a receiver or delivery: a Snowflake string, or the next bigserial value (numeric-id choice). */
export function newId(state: State, kind: 'webhook' | 'delivery'): string {
  if (!state.options.numericIds) return kind === 'webhook' ? `wh_${snowflake()}` : snowflake();
  state.serials[kind] += 1;
  return String(state.serials[kind]);
}

/** An id as served: numeric ids as JSON numbers. */
export const servedId = (state: State, id: string): string | number => (state.options.numericIds ? Number(id) : id);

export function later(state: State, ms: number, fn: () => void): void {
  const t = setTimeout(() => {
    state.timers.delete(t);
    fn();
  }, ms);
  state.timers.add(t);
}
