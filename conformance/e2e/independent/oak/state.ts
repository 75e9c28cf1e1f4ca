// The deployment's whole state, shared by both listening ports (main and alternate base address).
import { randomBytes } from 'node:crypto';

export interface OakOptions {
  /** Calls per token in the sliding window (default 600). */
  rateLimit?: number;
  /** Length of the sliding window in ms (default 60 s). */
  windowMs?: number;
  /** Service-Version mandatory (default optional). */
  requireServiceVersion?: boolean;
  /** Delay before a draft connection is enabled (default 300 ms). */
  enableAfterMs?: number;
  /** Seconds of silence after which a stream is ended (default 30). */
  streamIdleSeconds?: number;
  /** Access token lifetime in seconds (default 900). */
  tokenTtlSeconds?: number;
  /** Refuse unknown body fields (default: ignored, as Laravel's validated() does). */
  strictBodies?: boolean;
  /** Delay of the queue worker that sends webhooks (default 0: dispatched at once). */
  queueDelayMs?: number;
  /** Over the audit page cap: clamp `limit` (default) or refuse it with 400, as a `between:1,max` rule does. */
  auditLimitPolicy?: 'clamp' | 'refuse';
  /** Idempotency keys scoped per tenant (default) or per client, the tenant then being part of the content. */
  keyScope?: 'tenant' | 'client';
  /** PHP's json_encode without JSON_UNESCAPED_SLASHES: every `/` written `\/` (default off). */
  escapeSlashes?: boolean;
  /** Audit log oldest first (default newest first). */
  auditOldestFirst?: boolean;
  /** Largest audit page; a larger `limit` is clamped to it, as Laravel teams cap per_page (default 100). */
  auditMaxPerPage?: number;
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

export interface Webhook {
  id: string;
  tenant: string;
  url: string;
  events: string[];
  status: string;
  signingKey: string;
  createdAt: string;
}

export interface Attempt {
  id: string;
  webhookId: string;
  eventId: string;
  event: string;
  trigger: 'automatic' | 'retry' | 'resend';
  body: string;
  responseStatus: number | null;
  succeeded: boolean;
  error?: string;
  attemptedAt: string;
}

export interface StreamMessage {
  seq: number;
  event: string;
  data: string;
}

export interface StoredResponse {
  fingerprint: string;
  firstUsedMs: number;
  status: number;
  data: unknown;
}

export interface AuditEntry {
  id: string;
  sequence: number;
  event: string;
  subjectType: string;
  subjectId: string;
  actor: string;
  requestId: string;
  at: string;
  prevHash: string;
  hash: string;
}

export interface Client {
  secret: string;
  tenants: string[];
}

export interface State {
  options: Required<OakOptions>;
  clients: Map<string, Client>;
  tenants: Set<string>;
  tokens: Map<string, { clientId: string; expiresMs: number }>;
  connections: Connection[];
  webhooks: Webhook[];
  attempts: Attempt[];
  stream: StreamMessage[];
  idempotency: Map<string, StoredResponse>;
  audit: Map<string, AuditEntry[]>;
  auditKey: Buffer;
  nextId: { connection: number; webhook: number; attempt: number; event: number; audit: number };
  windows: Map<string, number[]>;
  listeners: Set<(m: StreamMessage) => void>;
  timers: Set<NodeJS.Timeout>;
}

export const TENANTS = { main: 'laravel-bistro', other: 'artisan-bakery', foreign: 'eloquent-eatery' };
export const CLIENT_ID = '9d3f2a10-5b7c-4e21-8f00-0c1a2b3c4d5e';

export function createState(options: OakOptions, clientSecret: string): State {
  return {
    options: {
      rateLimit: options.rateLimit ?? 600,
      windowMs: options.windowMs ?? 60_000,
      requireServiceVersion: options.requireServiceVersion ?? false,
      enableAfterMs: options.enableAfterMs ?? 300,
      streamIdleSeconds: options.streamIdleSeconds ?? 30,
      tokenTtlSeconds: options.tokenTtlSeconds ?? 900,
      strictBodies: options.strictBodies ?? false,
      queueDelayMs: options.queueDelayMs ?? 0,
      auditLimitPolicy: options.auditLimitPolicy ?? 'clamp',
      keyScope: options.keyScope ?? 'tenant',
      escapeSlashes: options.escapeSlashes ?? false,
      auditOldestFirst: options.auditOldestFirst ?? false,
      auditMaxPerPage: options.auditMaxPerPage ?? 100,
    },
    clients: new Map([[CLIENT_ID, { secret: clientSecret, tenants: [TENANTS.main, TENANTS.other] }]]),
    tenants: new Set(Object.values(TENANTS)),
    tokens: new Map(),
    connections: [],
    webhooks: [],
    attempts: [],
    stream: [],
    idempotency: new Map(),
    audit: new Map(),
    auditKey: randomBytes(32),
    nextId: { connection: 1042, webhook: 311, attempt: 7001, event: 50001, audit: 1 },
    windows: new Map(),
    listeners: new Set(),
    timers: new Set(),
  };
}

/** Timers the deployment owns, so close() can stop them all. */
export function later(state: State, ms: number, fn: () => void): void {
  const t = setTimeout(() => {
    state.timers.delete(t);
    fn();
  }, ms);
  state.timers.add(t);
}
