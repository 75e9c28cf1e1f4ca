// The one state both listening ports share: tenants, tokens, connections, idempotency records, the stream's
// backlog, webhooks with their event log, the audit log and the rate-limit windows.
import { generateKeyPairSync, type KeyObject } from 'node:crypto';
import type { ServerResponse } from 'node:http';
import { nanoid } from './util.ts';

export interface HickoryOptions {
  /** Calls per window per access and tenant (default 1000). */
  rateLimit?: number;
  /** Length of the rate-limit window in ms (default 60 000). */
  windowMs?: number;
  /** Access-token lifetime in seconds (default 600). */
  tokenTtlS?: number;
  /** Delay before a created connection turns active (default 300 ms). */
  activationMs?: number;
  /** Refuse calls without Service-Version (default: optional). */
  versionRequired?: boolean;
  /** UTC offset of every date-time written, in minutes (default 0: `Z`). */
  timeOffsetMin?: number;
  /** Refuse unknown query parameters (400), as a ValidationPipe with forbidNonWhitelisted on query DTOs does. */
  strictQuery?: boolean;
  /** Suspend an active connection after this many ms (0: never), a sandbox pausing idle connections. */
  suspendAfterMs?: number;
  /** Add the headers a Kong gateway adds (via, its own x-kong-request-id, latencies, per-minute limits). */
  gatewayHeaders?: boolean;
  /** Send every automatic delivery twice (at-least-once delivery, the same event id). */
  duplicateDeliveries?: boolean;
  /** Relay webhook events from an outbox after this many ms (default 0: at once). */
  relayDelayMs?: number;
  /** A stream opened without cursor or Last-Event-ID starts from the first message kept. */
  streamFromStart?: boolean;
  /** The gateway ends a stream after this many ms (0: never); clients resume with Last-Event-ID. */
  streamMaxMs?: number;
  /** Catalog filters match in any letter case (a case-insensitive index). */
  caseInsensitiveFilters?: boolean;
  /** A filter value the catalog does not know is refused (400) instead of giving an empty list. */
  strictFilterValues?: boolean;
  /** The audit log lists oldest first (default newest first). */
  auditOldestFirst?: boolean;
  /** The audit page's next link only as JSON:API `links.next` (no `next` field, no Link header). */
  auditLinksOnly?: boolean;
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
  tenant: string;
}

export interface StoredResponse {
  fingerprint: string;
  status: number;
  data: unknown;
  expiresAt: number;
}

export interface Attempt {
  attempt_id: string;
  status: string;
  at: string;
  http_status?: number;
  trigger: string;
}
export interface WebhookEvent {
  event_id: string;
  type: string;
  created_at: string;
  payload: string;
  delivery_attempts: Attempt[];
}
export interface Webhook {
  id: string;
  tenant: string;
  url: string;
  events: string[];
  description?: string;
  signingKey: string;
  state: string;
  createdAt: string;
  log: WebhookEvent[];
}

export interface AuditEntry {
  [field: string]: unknown;
  sequence: number;
}

export interface State {
  options: Required<HickoryOptions>;
  clientId: string;
  clientSecret: string;
  /** Tenants that exist; the client is released for the first two only. */
  tenants: Record<string, { released: boolean }>;
  tokens: Map<string, { clientId: string; expiresAt: number }>;
  connections: Connection[];
  idempotency: Map<string, StoredResponse>;
  issuedKeys: Map<string, { operation: string; expiresAt: number }>;
  stream: { seq: number; backlog: { id: number; text: string }[]; clients: Set<ServerResponse> };
  webhooks: Map<string, Webhook>;
  audit: Map<string, AuditEntry[]>;
  auditKey: { privateKey: KeyObject; kid: string; jwk: Record<string, unknown> };
  windows: Map<string, { start: number; count: number }>;
  timers: Set<NodeJS.Timeout>;
}

export function createState(options: HickoryOptions = {}): State {
  const { privateKey, publicKey } = generateKeyPairSync('ed25519');
  const kid = `audit-${nanoid().slice(0, 8)}`;
  return {
    options: {
      rateLimit: options.rateLimit ?? 1000,
      windowMs: options.windowMs ?? 60_000,
      tokenTtlS: options.tokenTtlS ?? 600,
      activationMs: options.activationMs ?? 300,
      versionRequired: options.versionRequired ?? false,
      timeOffsetMin: options.timeOffsetMin ?? 0,
      strictQuery: options.strictQuery ?? false,
      suspendAfterMs: options.suspendAfterMs ?? 0,
      gatewayHeaders: options.gatewayHeaders ?? false,
      duplicateDeliveries: options.duplicateDeliveries ?? false,
      relayDelayMs: options.relayDelayMs ?? 0,
      streamFromStart: options.streamFromStart ?? false,
      streamMaxMs: options.streamMaxMs ?? 0,
      caseInsensitiveFilters: options.caseInsensitiveFilters ?? false,
      strictFilterValues: options.strictFilterValues ?? false,
      auditOldestFirst: options.auditOldestFirst ?? false,
      auditLinksOnly: options.auditLinksOnly ?? false,
    },
    clientId: `hk_client_${nanoid().slice(0, 10)}`,
    clientSecret: `hk_secret_${nanoid()}${nanoid()}`,
    tenants: {
      'hickory-acme': { released: true },
      'hickory-globex': { released: true },
      'hickory-initech': { released: false },
    },
    tokens: new Map(),
    connections: [],
    idempotency: new Map(),
    issuedKeys: new Map(),
    stream: { seq: 0, backlog: [], clients: new Set() },
    webhooks: new Map(),
    audit: new Map(),
    auditKey: { privateKey, kid, jwk: { ...publicKey.export({ format: 'jwk' }), kid, alg: 'EdDSA', use: 'sig' } },
    windows: new Map(),
    timers: new Set(),
  };
}

/** setTimeout that close() can cancel, so a stopped deployment leaves no timer behind. */
export function later(state: State, ms: number, fn: () => void): void {
  const t = setTimeout(() => {
    state.timers.delete(t);
    fn();
  }, ms);
  t.unref();
  state.timers.add(t);
}
