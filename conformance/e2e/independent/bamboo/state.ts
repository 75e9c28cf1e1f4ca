// The one in-memory state both listeners share (an Arc<AppState> in the Rust original).
import { generateKeyPairSync, type KeyObject } from 'node:crypto';
import type { Server } from 'node:http';
import type { Bucket } from './rate-limit.ts';

export interface BambooOptions {
  /** Calls per window per access, tenant and environment (tower-governor quota). */
  rateLimit: number;
  windowMs: number;
  /** A fixed window, or governor's GCRA (a burst of rateLimit, refilled continuously). */
  rateAlgorithm: 'window' | 'gcra';
  tokenTtlSeconds: number;
  /** Multiplies the Svix-like retry schedule (1 = 5 s, 5 min, 30 min, 2 h, 5 h, 10 h, 10 h). */
  retryScale: number;
  /** Delay before a connection leaves `pending` for `live`. */
  activationMs: number;
  /** Service-Version mandatory (400 without it). */
  serviceVersionRequired: boolean;
  /** Audit log oldest first instead of newest first. */
  auditOldestFirst: boolean;
  /** The proof also names its parts in the common vocabulary: algorithm sha256, canonicalization RFC8785. */
  auditProofRfc8785: boolean;
  /** serde's deny_unknown_fields on Query<T> too: an unknown query parameter is a 400. */
  strictQuery: boolean;
  /** axum's Json extractor (mapped to 400, the interface has no 415): a body needs Content-Type JSON. */
  requireJsonContentType: boolean;
  /** The Hydra client's token_endpoint_auth_method (Hydra's default: client_secret_basic only). */
  tokenAuthMethod: 'client_secret_basic' | 'client_secret_post' | 'both';
  /** A replay is the stored answer whole: the original meta (requestId, at), replayed set to true. */
  replayOriginalMeta: boolean;
  /** The stream ends each connection after this long (0: never); clients resume with Last-Event-ID. */
  streamMaxMs: number;
  /** SSE messages without an `event:` line (the kind stays in the data). */
  streamUnnamed: boolean;
  /** The Svix worker's first attempt comes this long after the event (a polled outbox). */
  deliveryDelayMs: number;
}

export const DEFAULTS: BambooOptions = {
  rateLimit: 600,
  windowMs: 60_000,
  rateAlgorithm: 'window',
  tokenTtlSeconds: 300,
  retryScale: 1,
  activationMs: 400,
  serviceVersionRequired: false,
  auditOldestFirst: false,
  auditProofRfc8785: false,
  strictQuery: false,
  requireJsonContentType: false,
  tokenAuthMethod: 'both',
  replayOriginalMeta: false,
  streamMaxMs: 0,
  streamUnnamed: false,
  deliveryDelayMs: 0,
};

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

export interface Stored {
  status: number;
  fingerprint: string;
  body: Record<string, unknown>;
  expiresAt: number;
  meta?: Record<string, unknown>;
}

export interface Endpoint {
  id: string;
  tenant: string;
  url: string;
  events: string[];
  secret: string;
  createdAt: string;
}
export interface Attempt {
  id: string;
  at: string;
  trigger: 'scheduled' | 'manual';
  status: 'succeeded' | 'failed';
  responseStatus: number | null;
  durationMs: number;
}
export interface Message {
  id: string;
  endpointId: string;
  eventType: string;
  payload: Record<string, unknown>;
  createdAt: string;
  status: 'pending' | 'succeeded' | 'failed' | 'sending';
  attempts: Attempt[];
  nextAttemptAt: string | null;
}

export interface AuditEntry {
  seq: number;
  id: string;
  at: string;
  tenant: string;
  actor: string;
  action: string;
  target: string;
  requestId: string;
  idempotencyKey: string | null;
  prevHash: string;
  hash: string;
}

export interface StreamEvent {
  seq: number;
  kind: string;
  data: Record<string, unknown>;
}

export class State {
  options: BambooOptions;
  clients = new Map<string, { secret: string; tenants: string[] }>();
  tokens = new Map<string, { clientId: string; expiresAt: number }>();
  /** Tenants that exist; a client lists those it is released for. */
  tenants = new Set<string>();
  connections: Connection[] = [];
  idempotency = new Map<string, Stored>();
  rate = new Map<string, Bucket>();
  events: StreamEvent[] = [];
  listeners = new Set<(e: StreamEvent) => void>();
  endpoints: Endpoint[] = [];
  messages: Message[] = [];
  audit = new Map<string, AuditEntry[]>();
  signingKey: { privateKey: KeyObject; publicKey: KeyObject; keyId: string };
  timers = new Set<NodeJS.Timeout>();
  servers: Server[] = [];
  tokenUrl = '';
  constructor(options: BambooOptions) {
    this.options = options;
    const { privateKey, publicKey } = generateKeyPairSync('ed25519');
    this.signingKey = { privateKey, publicKey, keyId: `ckpt_${Date.now().toString(36)}` };
  }

  /** A timer the shutdown clears (retries, activation). */
  later(ms: number, fn: () => void): void {
    const t = setTimeout(() => {
      this.timers.delete(t);
      fn();
    }, ms);
    t.unref();
    this.timers.add(t);
  }

  publish(kind: string, data: Record<string, unknown>): void {
    const e = { seq: this.events.length + 1, kind, data };
    this.events.push(e);
    for (const l of this.listeners) l(e);
  }
}
