// The one state both base addresses share: tokens, rate windows, idempotency records, connections,
// the stream's backlog, webhooks with their deliveries, and the audit chains.
import { generateKeyPairSync, type KeyObject } from 'node:crypto';
import type { ServerResponse } from 'node:http';

export interface Options {
  /** Calls per window per token, tenant and environment (default 1000). */
  rateLimit?: number;
  /** Length of the fixed window in ms (default 60 000). */
  windowMs?: number;
  /** ms from `new` to `live` (default 300). */
  liveAfterMs?: number;
  /** Token lifetime in seconds (default 3600). */
  tokenTtlSeconds?: number;
  /** Audit log oldest first instead of newest first. */
  auditOldestFirst?: boolean;
  /** Leave the signing key out of a replayed webhook registration. */
  redactKeyOnReplay?: boolean;
  /** Default page size of the audit log (50) and of the delivery log (20). */
  auditPageSize?: number;
  deliveryPageSize?: number;
  /** A call without x-service-tenant: 400 invalid_request (default) or 401 unauthorized. */
  missingTenant401?: boolean;
  /** Service-Version: ignored (default), or an unknown value refused with 400. */
  strictServiceVersion?: boolean;
  /** ?cursor wins over Last-Event-ID (default: the header wins). */
  cursorWins?: boolean;
  /** Edge-style: a stream is ended after this many ms (0: never); the client resumes with Last-Event-ID. */
  streamMaxMs?: number;
  /** Service-Version mandatory on every call of the interface (400 without it). */
  serviceVersionRequired?: boolean;
  /** Stripe-style: a refusal (400, 404, 409 capability_denied) is stored under its key and replayed too. */
  replayRefusals?: boolean;
  /** Keys scoped to the client across tenants (the tenant is part of the content) instead of per tenant. */
  keyScopeClient?: boolean;
  /** Unknown body fields refused on every JSON body, not only on connection creation. */
  strictBodies?: boolean;
  /** An unknown connector on POST /capabilities decided "not allowed" instead of 404. */
  unknownConnectorDecision?: boolean;
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

export interface StoredAnswer {
  fingerprint: string;
  status: number;
  data: unknown;
  error?: { code: string; message: string; detail?: string | undefined; hint?: string | undefined };
  expires: number;
}

export interface Webhook {
  id: string;
  tenant: string;
  url: string;
  events: string[];
  signingKey: string;
  createdAt: string;
}

export interface Delivery {
  id: string;
  webhookId: string;
  eventId: string;
  event: string;
  body: string;
  attempts: number;
  status: 'pending' | 'delivered' | 'failed';
  responseStatus: number | null;
  createdAt: string;
  lastAttemptAt: string | null;
  retryOf: string | null;
}

export interface AuditEntry {
  seq: number;
  at: string;
  action: string;
  subject: string;
  digest: string;
  prev: string;
}

export interface StreamMessage {
  seq: number;
  event: string;
  data: string;
}

export interface State {
  opts: Required<Options>;
  clientId: string;
  clientSecret: string;
  released: Set<string>;
  /** Tenants that exist; only `released` ones may be acted for (the rest: 403, same as an unknown tenant). */
  known: Set<string>;
  tokens: Map<string, { clientId: string; expires: number }>;
  windows: Map<string, { start: number; count: number }>;
  idem: Map<string, StoredAnswer>;
  connections: Map<string, Connection & { tenant: string }>;
  stream: StreamMessage[];
  listeners: Set<ServerResponse>;
  webhooks: Map<string, Webhook>;
  deliveries: Map<string, Delivery>;
  audit: Map<string, AuditEntry[]>;
  auditKey: { privateKey: KeyObject; publicKey: KeyObject };
  timers: Set<NodeJS.Timeout>;
}

export function createState(o: Options, tenants: string[], foreign: string): State {
  return {
    opts: {
      rateLimit: o.rateLimit ?? 1000,
      windowMs: o.windowMs ?? 60_000,
      liveAfterMs: o.liveAfterMs ?? 300,
      tokenTtlSeconds: o.tokenTtlSeconds ?? 3600,
      auditOldestFirst: o.auditOldestFirst ?? false,
      redactKeyOnReplay: o.redactKeyOnReplay ?? false,
      auditPageSize: o.auditPageSize ?? 50,
      deliveryPageSize: o.deliveryPageSize ?? 20,
      missingTenant401: o.missingTenant401 ?? false,
      strictServiceVersion: o.strictServiceVersion ?? false,
      cursorWins: o.cursorWins ?? false,
      streamMaxMs: o.streamMaxMs ?? 0,
      serviceVersionRequired: o.serviceVersionRequired ?? false,
      replayRefusals: o.replayRefusals ?? false,
      keyScopeClient: o.keyScopeClient ?? false,
      strictBodies: o.strictBodies ?? false,
      unknownConnectorDecision: o.unknownConnectorDecision ?? false,
    },
    clientId: 'kapok-edge-client',
    clientSecret: `kpk_cs_${Buffer.from(crypto.getRandomValues(new Uint8Array(24))).toString('base64url')}`,
    released: new Set(tenants),
    known: new Set([...tenants, foreign]),
    tokens: new Map(),
    windows: new Map(),
    idem: new Map(),
    connections: new Map(),
    stream: [],
    listeners: new Set(),
    webhooks: new Map(),
    deliveries: new Map(),
    audit: new Map(),
    auditKey: generateKeyPairSync('ed25519'),
    timers: new Set(),
  };
}

/** A timer the state owns, cleared on close. */
export function later(s: State, ms: number, fn: () => void): void {
  const t = setTimeout(() => {
    s.timers.delete(t);
    fn();
  }, ms);
  s.timers.add(t);
}
