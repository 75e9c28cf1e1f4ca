// One state shared by both listening addresses: the Firestore-like collections poplar keeps in memory.
import { generateKeyPairSync, type KeyObject } from 'node:crypto';
import { type AuthConfig, newAuthConfig } from './auth.ts';
import type { IdemStore } from './idempotency.ts';
import { newQuota, type Quota } from './rate-limit.ts';

export interface PoplarOptions {
  /** Calls per window and client/tenant (default 1200 per 60 s). */
  rateLimit?: number;
  windowMs?: number;
  /** Access token lifetime in seconds (default 300). */
  tokenTtlSec?: number;
  /** How long GET /connections lags a write (the list reads an index; default 400 ms). */
  listLagMs?: number;
  /** When a new connection turns ACTIVE (default 300 ms). */
  activationMs?: number;
  /** Cloud Tasks queue retry config of webhook deliveries. */
  minBackoffMs?: number;
  maxBackoffMs?: number;
  maxDoublings?: number;
  maxAttempts?: number;
  /** Unknown body fields are ignored instead of refused. */
  ignoreUnknownFields?: boolean;
  /** Service-Version is mandatory (428 is not the contract's answer for it: 400 invalid_request). */
  serviceVersionRequired?: boolean;
  /** Pub/Sub attributes carry only eventType: the connection is named inside base64 message.data alone. */
  minimalAttributes?: boolean;
  /** The self-description lists the download files of each version (else only the templated routes name them). */
  listDownloads?: boolean;
  /** Stream messages as plain JSON (default) or as Pub/Sub-style envelopes with base64 data. */
  streamEnvelope?: 'json' | 'pubsub';
  /** The audit log is listed oldest first (orderBy seq asc) instead of newest first. */
  auditOldestFirst?: boolean;
  /** A re-trigger enqueues a copy of the task under a new task name instead of running the task again. */
  redeliverAsNewTask?: boolean;
  /** A stream is ended after this many ms, as at a Cloud Run request timeout (0: never; default 0). */
  streamMaxMs?: number;
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
  updateTime: string;
}

export interface StoredConnection {
  tenant: string;
  conn: Connection;
  /** When the list index shows it (eventual consistency of list queries). */
  indexedAt: number;
}

export interface StreamMessage {
  seq: number;
  data: string;
}

export interface Webhook {
  id: string;
  tenant: string;
  url: string;
  events: string[];
  key: string;
  createTime: string;
  deleted: boolean;
}

export interface Attempt {
  attemptNumber: number;
  dispatchTime: string;
  responseTime?: string;
  responseStatus: number | null;
  error?: string;
  trigger: 'queue' | 'retry' | 'run';
}

export interface Task {
  taskName: string;
  name: string;
  webhookId: string;
  tenant: string;
  eventType: string;
  eventId: string;
  connectionId: string;
  body: string;
  createTime: string;
  state: 'PENDING' | 'SUCCEEDED' | 'FAILED';
  attempts: Attempt[];
  /** The task this one re-triggers (redeliverAsNewTask). */
  copyOf?: string;
  retryTimer?: NodeJS.Timeout;
}

export interface AuditEntry {
  id: string;
  seq: number;
  tenant: string;
  action: string;
  resource: string;
  actor: string;
  requestId: string;
  createTime: string;
  prevHash: string;
  hash: string;
}

export interface State {
  opts: Required<PoplarOptions>;
  auth: AuthConfig;
  quota: Quota;
  idem: IdemStore;
  connections: Map<string, StoredConnection>;
  stream: { messages: StreamMessage[]; listeners: Set<(m: StreamMessage) => void> };
  webhooks: Map<string, Webhook>;
  tasks: Map<string, Task>;
  audit: Map<string, AuditEntry[]>;
  checkpointKey: { privateKey: KeyObject; publicKey: KeyObject; kid: string };
  timers: Set<NodeJS.Timeout>;
}

export function newState(o: PoplarOptions = {}): State {
  const opts: Required<PoplarOptions> = {
    rateLimit: o.rateLimit ?? 1200,
    windowMs: o.windowMs ?? 60_000,
    tokenTtlSec: o.tokenTtlSec ?? 300,
    listLagMs: o.listLagMs ?? 400,
    activationMs: o.activationMs ?? 300,
    minBackoffMs: o.minBackoffMs ?? 1000,
    maxBackoffMs: o.maxBackoffMs ?? 10_000,
    maxDoublings: o.maxDoublings ?? 3,
    maxAttempts: o.maxAttempts ?? 5,
    ignoreUnknownFields: o.ignoreUnknownFields ?? false,
    serviceVersionRequired: o.serviceVersionRequired ?? false,
    minimalAttributes: o.minimalAttributes ?? false,
    listDownloads: o.listDownloads ?? true,
    streamEnvelope: o.streamEnvelope ?? 'json',
    auditOldestFirst: o.auditOldestFirst ?? false,
    redeliverAsNewTask: o.redeliverAsNewTask ?? false,
    streamMaxMs: o.streamMaxMs ?? 0,
  };
  const { privateKey, publicKey } = generateKeyPairSync('ed25519');
  return {
    opts,
    auth: newAuthConfig(opts.tokenTtlSec),
    quota: newQuota(opts.rateLimit, opts.windowMs),
    idem: new Map(),
    connections: new Map(),
    stream: { messages: [], listeners: new Set() },
    webhooks: new Map(),
    tasks: new Map(),
    audit: new Map(),
    checkpointKey: { privateKey, publicKey, kid: 'poplar-audit-1' },
    timers: new Set(),
  };
}

/** A timer the server clears on close. */
export function later(s: State, ms: number, fn: () => void): NodeJS.Timeout {
  const t = setTimeout(() => {
    s.timers.delete(t);
    fn();
  }, ms);
  s.timers.add(t);
  return t;
}
