// One state shared by both listeners (main and alternate base address), like two CloudHub workers on one
// Object Store and one queue.
import { randomBytes } from 'node:crypto';
import type { AuditState } from './audit.ts';
import type { Queue } from './mq.ts';
import type { TokenStore } from './oauth.ts';
import type { ObjectStore } from './object-store.ts';
import { createObjectStore } from './object-store.ts';
import type { RateLimiter } from './rate-limit.ts';
import { createRateLimiter } from './rate-limit.ts';
import type { StreamState } from './stream.ts';

export interface AcaciaOptions {
  /** Calls per window of the SLA tier (default 1200). */
  rateLimit?: number;
  /** Window length in ms (default 60000). */
  windowMs?: number;
  /** Object Store TTL of an idempotency entry and of an issued key (default 24 h). */
  idempotencyTtlMs?: number;
  /** Access token lifetime in seconds (default 900). */
  tokenTtlSeconds?: number;
  /** How long a connection stays "requested" before it is "active" (default 400 ms). */
  activationMs?: number;
  /** A replayed webhook registration leaves the signing key out ("issued exactly once"). */
  redactKeyOnReplay?: boolean;
  /** Service-Version is mandatory (a call without it: 400). */
  serviceVersionRequired?: boolean;
  /** The audit log lists oldest first, paged forward by `afterSequence` (default newest first). */
  auditOldestFirst?: boolean;
  /** Object Store partition: per client and tenant (default), or per client (the tenant is then part of the content). */
  keyScope?: 'tenant' | 'client';
  /** The stream is ended after this many ms (CloudHub load balancer habit); clients resume with Last-Event-ID. */
  streamMaxMs?: number;
  /** OpenAPI `servers` names the absolute address asked (RAML baseUri habit), not the relative base path. */
  absoluteServers?: boolean;
  /** SLA tiers per tenant: the second tenant is on a tier with half the limit. */
  tenantTiers?: boolean;
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
  signingKey: string;
  createdAt: string;
  status: string;
}

export interface State {
  options: AcaciaOptions;
  tokens: TokenStore;
  limiter: RateLimiter;
  store: ObjectStore;
  connections: Map<string, Connection[]>;
  webhooks: Map<string, Webhook>;
  stream: StreamState;
  queue: Queue;
  audit: AuditState;
  timers: Set<NodeJS.Timeout>;
}

export function createState(options: AcaciaOptions, stream: StreamState, queue: Queue, audit: AuditState): State {
  return {
    options,
    tokens: { tokens: new Map(), ttlSeconds: options.tokenTtlSeconds ?? 900 },
    limiter: createRateLimiter(options.rateLimit ?? 1200, options.windowMs ?? 60_000),
    store: createObjectStore(options.idempotencyTtlMs ?? 24 * 3600_000, options.keyScope),
    connections: new Map(),
    webhooks: new Map(),
    stream,
    queue,
    audit,
    timers: new Set(),
  };
}

export function auditKey(): Buffer {
  return randomBytes(32);
}

/** A timer the close() of the deployment clears. */
export function later(state: State, ms: number, fn: () => void): void {
  const t = setTimeout(() => {
    state.timers.delete(t);
    fn();
  }, ms);
  state.timers.add(t);
}
