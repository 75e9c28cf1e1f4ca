// The one state both listening ports share: tenants, clients, tokens, connections, idempotency records,
// the stream's sequence, webhooks with their delivery log, and each tenant's audit chain.
import type { AuditEntry } from './audit.ts';
import type { ApiError } from './http-kit.ts';

export interface BuckeyeOptions {
  /** Token bucket size per access, tenant and environment. */
  rateLimit?: number;
  /** Time in which an empty bucket fills again, ms. */
  windowMs?: number;
  /** Access-token lifetime, seconds. */
  tokenTtlSeconds?: number;
  /** Service-Version required on authenticated calls (a 400 when missing). */
  requireServiceVersion?: boolean;
  /** Connections become enabled after this many ms. */
  activationMs?: number;
  /** Idempotency records live this long, seconds. */
  idempotencyTtlSeconds?: number;
  /** The audit log pages oldest first (cursor: the seq to continue above) instead of newest first. */
  auditOldestFirst?: boolean;
  /** A stream opened without a position replays every retained message instead of starting live. */
  streamFromStart?: boolean;
  /** `?cursor` wins over `Last-Event-ID` when a client sends both. */
  cursorOverHeader?: boolean;
  /** serde's deny_unknown_fields: a JSON body with a field the schema does not name is refused (400). */
  denyUnknownFields?: boolean;
  /** A replayed webhook registration leaves the signing key out (it is issued exactly once). */
  redactKeyOnReplay?: boolean;
  /** Webhook deliveries leave through an outbox relayed every so many ms (0: at once). */
  relayDelayMs?: number;
  /** A redelivery is one more attempt of the logged delivery (same id), not a new delivery. */
  redeliverInPlace?: boolean;
  /** An open stream is ended after this many ms (0: never), as a proxy's idle or lifetime limit would. */
  streamMaxMs?: number;
  /** A refused creation (404, 409 capability_denied) is stored under its key and answered again. */
  storeRefusals?: boolean;
  /** Public routes count against a bucket per caller address (with the X-RateLimit-* headers). */
  publicRateLimit?: boolean;
  /** The YAML document shares repeated nodes through anchors and aliases. */
  yamlAnchors?: boolean;
  /** SSE fields without the optional space, `id` last, the data pretty-printed over several lines. */
  sseCompact?: boolean;
  /** The OpenAPI files are served as the registered application/vnd.oai.openapi(+json) media types. */
  oaiMediaTypes?: boolean;
  /** Connections the main tenant already has at start (a long-lived staging tenant). */
  seedConnections?: number;
  /** How many of the seeded connections left their two messages on the stream (default: all). */
  seedStreamConnections?: number;
  /** An idle keep-alive connection is closed after this many ms (node's and many proxies' 5 s by default). */
  keepAliveMs?: number;
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
}

export interface Webhook {
  id: string;
  tenant: string;
  url: string;
  events: string[];
  signingKey: string;
  createdAt: string;
  active: boolean;
}

export interface Delivery {
  id: string;
  webhookId: string;
  tenant: string;
  eventId: string;
  event: string;
  body: string;
  status: 'pending' | 'succeeded' | 'failed';
  attempts: { at: string; statusCode: number | null; error?: string; trigger: 'event' | 'retry' | 'manual' }[];
  createdAt: string;
  redeliveryOf?: string;
}

export interface StreamMessage {
  seq: number;
  event: string;
  data: Record<string, unknown>;
}

export interface IdempotencyRecord {
  fingerprint: string;
  status: number;
  data: unknown;
  expiresAt: number;
  inFlight: boolean;
  /** A stored refusal (storeRefusals), answered again to the same key and content. */
  error?: ApiError | undefined;
}

export interface State {
  options: Required<BuckeyeOptions>;
  clients: Map<string, { secret: string; tenants: string[]; purpose: string; owner: string }>;
  tenants: Map<string, { released: boolean }>;
  tokens: Map<string, { clientId: string; expiresAt: number }>;
  connections: Map<string, Connection[]>;
  idempotency: Map<string, IdempotencyRecord>;
  stream: StreamMessage[];
  streamListeners: Set<(m: StreamMessage) => void>;
  webhooks: Map<string, Webhook>;
  deliveries: Map<string, Delivery>;
  audit: Map<string, AuditEntry[]>;
  buckets: Map<string, { tokens: number; updated: number }>;
  timers: Set<ReturnType<typeof setTimeout>>;
}

export const TENANTS = { main: 'buckeye-columbus', other: 'buckeye-dayton', foreign: 'buckeye-toledo' };
export const CLIENT = { id: 'buckeye-ci', secret: 'bks_test_4f1c9e2a7b3d8e6f0a5c' };

export function createState(options: BuckeyeOptions = {}): State {
  return {
    options: {
      rateLimit: options.rateLimit ?? 600,
      windowMs: options.windowMs ?? 60_000,
      tokenTtlSeconds: options.tokenTtlSeconds ?? 900,
      requireServiceVersion: options.requireServiceVersion ?? false,
      activationMs: options.activationMs ?? 300,
      idempotencyTtlSeconds: options.idempotencyTtlSeconds ?? 72 * 3600,
      auditOldestFirst: options.auditOldestFirst ?? false,
      streamFromStart: options.streamFromStart ?? false,
      cursorOverHeader: options.cursorOverHeader ?? false,
      denyUnknownFields: options.denyUnknownFields ?? false,
      redactKeyOnReplay: options.redactKeyOnReplay ?? false,
      relayDelayMs: options.relayDelayMs ?? 0,
      redeliverInPlace: options.redeliverInPlace ?? false,
      streamMaxMs: options.streamMaxMs ?? 0,
      storeRefusals: options.storeRefusals ?? false,
      publicRateLimit: options.publicRateLimit ?? false,
      yamlAnchors: options.yamlAnchors ?? false,
      sseCompact: options.sseCompact ?? false,
      oaiMediaTypes: options.oaiMediaTypes ?? false,
      seedConnections: options.seedConnections ?? 0,
      seedStreamConnections: options.seedStreamConnections ?? Number.MAX_SAFE_INTEGER,
      keepAliveMs: options.keepAliveMs ?? 5000,
    },
    clients: new Map([
      [
        CLIENT.id,
        {
          secret: CLIENT.secret,
          tenants: [TENANTS.main, TENANTS.other],
          purpose: 'conformance CI',
          owner: 'platform@buckeye.example',
        },
      ],
    ]),
    tenants: new Map([
      [TENANTS.main, { released: true }],
      [TENANTS.other, { released: true }],
      [TENANTS.foreign, { released: false }],
    ]),
    tokens: new Map(),
    connections: new Map(),
    idempotency: new Map(),
    stream: [],
    streamListeners: new Set(),
    webhooks: new Map(),
    deliveries: new Map(),
    audit: new Map(),
    buckets: new Map(),
    timers: new Set(),
  };
}

/** A timer the server's close() clears. */
export function later(state: State, ms: number, fn: () => void): void {
  const t = setTimeout(() => {
    state.timers.delete(t);
    fn();
  }, ms);
  state.timers.add(t);
}
