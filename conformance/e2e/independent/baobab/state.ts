// The one state both base addresses share: tokens, rate windows, connections, idempotency records,
// the stream backlog, webhook receivers and their delivery log, the audit chains.
import { randomBytes } from 'node:crypto';
import { newId } from './http-util.ts';

export interface BaobabOptions {
  /** Calls per token in one fixed window (default 1000). */
  rateLimit?: number;
  /** Length of the fixed window in ms (default 60 s; short in tests). */
  windowMs?: number;
  /** Refuse calls without Service-Version (default: optional). */
  serviceVersionRequired?: boolean;
  /** Access token lifetime in seconds (default 600). */
  tokenTtlSeconds?: number;
  /** Waits before the 2nd and 3rd delivery attempt (default 1 s, 4 s). */
  retryDelaysMs?: number[];
  /** Idempotency key validity after first use, ms (default 24 h). */
  keyTtlMs?: number;
  /** Name the checkpoint HMAC `signature` instead of `mac` (another legal naming). */
  checkpointSignature?: boolean;
  /** Leave out the audit log's Link header (paging by offset/limit/total only). */
  auditNoLink?: boolean;
}

export interface Connection {
  id: string;
  tenant: string;
  connectorId: string;
  environment: string;
  scopeLabel: string;
  state: string;
  capabilities: { capability: string; critical: boolean; idempotencyRequired: boolean }[];
  nextStep: string;
  createdAt: string;
  updatedAt: string;
}

export interface IdemRecord {
  fingerprint: string;
  data: unknown;
  firstUsedAt: number;
  expiresAt: number;
}

export interface IssuedKey {
  tenant: string;
  operation: string;
  issuedAt: number;
  expiresAt: number;
}

export interface StreamMessage {
  seq: number;
  kind: string;
  at: string;
  payload: Record<string, unknown>;
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
  status: 'pending' | 'succeeded' | 'failed';
  attempts: number;
  lastResponseStatus: number | null;
  lastError: string | null;
  retryOf: string | null;
  createdAt: string;
  updatedAt: string;
  /** The exact body sent (signed again at each attempt with a fresh timestamp). */
  body: string;
}

export interface AuditEntry {
  seq: number;
  at: string;
  actor: string;
  action: string;
  target: string;
  prev_hash: string;
  hash: string;
}

export interface State {
  opts: Required<BaobabOptions>;
  clientId: string;
  clientSecret: string;
  released: Set<string>;
  tokens: Map<string, { clientId: string; expiresAt: number }>;
  windows: Map<string, { start: number; count: number }>;
  connections: Connection[];
  idem: Map<string, IdemRecord>;
  issuedKeys: Map<string, IssuedKey>;
  stream: StreamMessage[];
  subscribers: Set<(m: StreamMessage) => void>;
  webhooks: Map<string, Webhook>;
  deliveries: Delivery[];
  audit: Map<string, AuditEntry[]>;
  auditKey: Buffer;
  timers: Set<NodeJS.Timeout>;
  closed: boolean;
}

export function createState(options: BaobabOptions = {}): State {
  return {
    opts: {
      rateLimit: options.rateLimit ?? 1000,
      windowMs: options.windowMs ?? 60_000,
      serviceVersionRequired: options.serviceVersionRequired ?? false,
      tokenTtlSeconds: options.tokenTtlSeconds ?? 600,
      retryDelaysMs: options.retryDelaysMs ?? [1000, 4000],
      keyTtlMs: options.keyTtlMs ?? 24 * 3600 * 1000,
      checkpointSignature: options.checkpointSignature ?? false,
      auditNoLink: options.auditNoLink ?? false,
    },
    clientId: 'baobab-partner',
    clientSecret: `bbs_${newId(32)}`,
    released: new Set(['baobab-kivu', 'baobab-tana']),
    tokens: new Map(),
    windows: new Map(),
    connections: [],
    idem: new Map(),
    issuedKeys: new Map(),
    stream: [],
    subscribers: new Set(),
    webhooks: new Map(),
    deliveries: [],
    audit: new Map(),
    auditKey: randomBytes(32),
    timers: new Set(),
    closed: false,
  };
}

/** A timer the state owns, cleared on close so the process can exit. */
export function later(state: State, ms: number, fn: () => void): void {
  if (state.closed) return;
  const t = setTimeout(() => {
    state.timers.delete(t);
    if (!state.closed) fn();
  }, ms);
  t.unref();
  state.timers.add(t);
}
