// The shared state of both listeners: the rows sqlc would read from SQLite, held in memory.
import { generateKeyPairSync, type KeyObject } from 'node:crypto';

export interface OliveOptions {
  /** Token bucket burst (X-RateLimit-Limit). */
  rateLimit?: number;
  /** Time the bucket takes to refill from empty. */
  windowMs?: number;
  tokenLifetimeS?: number;
  activateAfterMs?: number;
  heartbeatMs?: number;
  retryBaseMs?: number;
  /** Go's http.ServeMux answer to a wrong method: 405 + Allow (default: 400 invalid_request + Allow). */
  http405?: boolean;
  /** json.Decoder.DisallowUnknownFields on every body (default: unknown fields ignored, as Go does). */
  strictFields?: boolean;
  /** Audit pages newest first (default oldest first). */
  auditNewestFirst?: boolean;
  /** Service-Version required on authenticated calls. */
  versionRequired?: boolean;
  /** Times in the host's zone (e.g. 330: +05:30) instead of UTC. */
  utcOffsetMinutes?: number;
  /** Idempotency keys scoped per access across tenants (default per access and tenant). */
  keyScopeClient?: boolean;
  /** SSE fields without the optional space ("data:{…}", "id:7"). */
  sseCompact?: boolean;
  /** Every <, > and & in JSON escaped as \u003c… (encoding/json's default HTML escaping). */
  goHtmlEscape?: boolean;
  /** Failure envelopes carry detail and hint always ("" when none), meta.replayed always (false). */
  goZeroValues?: boolean;
  /** A stream answer ends after this long (http.Server WriteTimeout); 0: never. */
  streamMaxMs?: number;
  /** How long a key replays (and an issued key is valid); default 24 h. */
  keyTtlMs?: number;
  /** A redelivery re-runs the logged delivery (same id, one more attempt) instead of logging a new one. */
  redeliverSameId?: boolean;
  /** GET /connections lists newest first (ORDER BY id DESC). */
  connectionsNewestFirst?: boolean;
  /** SSE messages without an event: field (every message is "message"; its type is in the data). */
  sseNoEventField?: boolean;
  /** Audit pages by an opaque cursor (data.nextCursor, ?cursor=) instead of ?after= and a Link header. */
  auditOpaqueCursor?: boolean;
  /** A missing x-service-tenant answered 401 unauthorized (default 403 forbidden). */
  missingTenant401?: boolean;
  /** A tenant nobody knows answered 404 not_found (default 403 forbidden, like a tenant not released). */
  unknownTenant404?: boolean;
  /** Connection ids counted per tenant (composite key (tenant, id)): tenants share id values. */
  perTenantIds?: boolean;
  /** One audit hash chain for the whole service; a tenant reads its entries of it (seq with gaps). */
  globalChain?: boolean;
  /** Errors served as application/problem+json with RFC 9457 type, title and status beside the envelope. */
  problemJson?: boolean;
  /** The first stream number (a sequence continuing from an earlier process: 1 000 001). */
  streamSeqStart?: number;
  /** The registration answers {webhook: {id, …}, signingKey} instead of the receiver's fields in data. */
  nestedWebhook?: boolean;
  /** Lists read createdAt back from SQLite in milliseconds; creation answers keep Go's nanoseconds. */
  sqliteMillis?: boolean;
}

type Defaulted =
  | 'rateLimit'
  | 'windowMs'
  | 'tokenLifetimeS'
  | 'activateAfterMs'
  | 'heartbeatMs'
  | 'retryBaseMs'
  | 'utcOffsetMinutes'
  | 'keyTtlMs';

export interface ConnectionRow {
  id: string;
  tenant: string;
  connectorId: string;
  environment: string;
  scopeLabel: string;
  state: string;
  capabilities: { capability: string; critical: boolean; idempotencyRequired: boolean }[];
  nextStep: string;
  createdAt: string;
}

export interface WebhookRow {
  id: string;
  tenant: string;
  url: string;
  events: string[];
  signingKey: string;
  createdAt: string;
  deleted: boolean;
}

export interface DeliveryRow {
  id: string;
  webhookId: string;
  tenant: string;
  eventId: string;
  event: string;
  body: string;
  status: 'pending' | 'succeeded' | 'failed';
  attempts: { at: string; responseStatus: number | null; error?: string }[];
  redeliveryOf?: string;
  createdAt: string;
}

export interface AuditRow {
  seq: number;
  id: string;
  at: string;
  tenant: string;
  action: string;
  actor: string;
  resource: { type: string; id: string };
  requestId: string;
  idempotencyKey?: string;
  prevHash: string;
  hash: string;
}

export interface State {
  /** The options, with the defaults of the timers and limits filled in. */
  options: Required<Pick<OliveOptions, Defaulted>> & OliveOptions;
  clientId: string;
  clientSecret: string;
  /** Tenants the client is released for; foreign tenants exist but are refused. */
  released: Set<string>;
  known: Set<string>;
  tokens: Map<string, { clientId: string; expiresAt: number }>;
  connections: ConnectionRow[];
  webhooks: WebhookRow[];
  deliveries: DeliveryRow[];
  audit: Map<string, AuditRow[]>;
  auditKey: { privateKey: KeyObject; publicKey: KeyObject; keyId: string };
  timers: Set<NodeJS.Timeout>;
  counters: Map<string, number>;
  closed: boolean;
}

export function createState(
  options: OliveOptions,
  clientId: string,
  clientSecret: string,
  tenants: string[],
  foreign: string[],
): State {
  const { privateKey, publicKey } = generateKeyPairSync('ed25519');
  return {
    options: {
      rateLimit: 600,
      windowMs: 60_000,
      tokenLifetimeS: 600,
      activateAfterMs: 300,
      heartbeatMs: 15_000,
      retryBaseMs: 1000,
      utcOffsetMinutes: 0,
      keyTtlMs: 24 * 3600 * 1000,
      ...Object.fromEntries(Object.entries(options).filter(([, v]) => v !== undefined)),
    },
    clientId,
    clientSecret,
    released: new Set(tenants),
    known: new Set([...tenants, ...foreign]),
    tokens: new Map(),
    connections: [],
    webhooks: [],
    deliveries: [],
    audit: new Map(),
    auditKey: { privateKey, publicKey, keyId: `olive-audit-${new Date().toISOString().slice(0, 10)}` },
    timers: new Set(),
    counters: new Map(),
    closed: false,
  };
}

/** The next row id of a kind: global, or counted per tenant with perTenantIds (a composite key). */
export function rowId(state: State, tenant: string, kind: string, global: () => string): string {
  if (!state.options.perTenantIds) return global();
  const k = `${tenant}\u0000${kind}`;
  const n = (state.counters.get(k) ?? 0) + 1;
  state.counters.set(k, n);
  return String(n);
}

/** setTimeout that close() can cancel (River's job scheduler, in miniature). */
export function schedule(state: State, ms: number, fn: () => void): void {
  if (state.closed) return;
  const t = setTimeout(() => {
    state.timers.delete(t);
    if (!state.closed) fn();
  }, ms);
  state.timers.add(t);
}
