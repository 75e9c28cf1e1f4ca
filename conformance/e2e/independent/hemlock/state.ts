// The one in-memory state both listeners share (main and alternate base address).
import type { IdempotencyStore } from './idempotency.ts';
import { createIdempotencyStore } from './idempotency.ts';
import type { LeakyBuckets } from './rate-limit.ts';
import { createLeakyBuckets } from './rate-limit.ts';

export interface Connection {
  id: string;
  tenant: string;
  connectorId: string;
  environment: string;
  scopeLabel: string;
  state: 'draft' | 'live' | 'suspended';
  capabilities: { capability: string; critical: boolean; idempotencyRequired: boolean }[];
  nextStep: string;
  createdAt: string;
}

export interface StreamMessage {
  seq: number;
  event: string;
  data: Record<string, unknown>;
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

export interface DeliveryAttempt {
  id: string;
  webhookId: string;
  eventId: string;
  event: string;
  attempt: number;
  replayOf?: string;
  status: 'pending' | 'succeeded' | 'failed';
  responseStatus?: number;
  error?: string;
  attemptedAt: string;
  body: string;
}

export interface AuditEntry {
  id: string;
  seq: number;
  at: string;
  action: string;
  resourceType: string;
  resourceId: string;
  actor: string;
  idempotencyKey?: string;
  prevHash: string;
  hash: string;
}

export interface HemlockOptions {
  /** Leaky bucket capacity (calls) per access, tenant and environment. */
  rateLimit?: number;
  /** Time the bucket needs to drain completely, in ms. */
  windowMs?: number;
  /** Delay before a draft connection goes live. */
  activationMs?: number;
  /** Make Service-Version mandatory (400 when missing). */
  serviceVersionRequired?: boolean;
  /** Leave the signing key out of a replayed webhook registration. */
  redactKeyOnReplay?: boolean;
  /** Suspend connections this many ms after they went live (0: never). */
  suspendAfterMs?: number;
  /** Lifetime of an access token in seconds. */
  tokenTtlS?: number;
  /** Deliveries wait in a job queue this long before they are sent (an Oban-style queue). */
  deliveryDelayMs?: number;
  /** Keep refusals reached after validation (404, 409) under their idempotency key and replay them. */
  replayRefusals?: boolean;
  /** A stream opened without cursor or Last-Event-ID starts with the whole retained backlog. */
  streamFromStart?: boolean;
}

export interface Tenant {
  id: string;
  released: boolean;
}

export interface State {
  options: Required<HemlockOptions>;
  clientId: string;
  clientSecret: string;
  tenants: Tenant[];
  tokens: Map<string, { clientId: string; expiresAt: number }>;
  connections: Connection[];
  stream: StreamMessage[];
  streamListeners: Set<(m: StreamMessage) => void>;
  webhooks: Webhook[];
  attempts: DeliveryAttempt[];
  audit: Map<string, AuditEntry[]>;
  idempotency: IdempotencyStore;
  buckets: LeakyBuckets;
  timers: Set<NodeJS.Timeout>;
}

export function createState(options: HemlockOptions, clientId: string, clientSecret: string): State {
  const o: Required<HemlockOptions> = {
    rateLimit: options.rateLimit ?? 600,
    windowMs: options.windowMs ?? 60_000,
    activationMs: options.activationMs ?? 300,
    serviceVersionRequired: options.serviceVersionRequired ?? false,
    redactKeyOnReplay: options.redactKeyOnReplay ?? false,
    suspendAfterMs: options.suspendAfterMs ?? 0,
    tokenTtlS: options.tokenTtlS ?? 600,
    deliveryDelayMs: options.deliveryDelayMs ?? 0,
    replayRefusals: options.replayRefusals ?? false,
    streamFromStart: options.streamFromStart ?? false,
  };
  return {
    options: o,
    clientId,
    clientSecret,
    tenants: [
      { id: 'hemlock-alpha', released: true },
      { id: 'hemlock-beta', released: true },
      { id: 'hemlock-gamma', released: false },
    ],
    tokens: new Map(),
    connections: [],
    stream: [],
    streamListeners: new Set(),
    webhooks: [],
    attempts: [],
    audit: new Map(),
    idempotency: createIdempotencyStore(),
    buckets: createLeakyBuckets(o.rateLimit, o.windowMs),
    timers: new Set(),
  };
}

/** Runs fn later, tracked so close() can cancel it. */
export function later(state: State, ms: number, fn: () => void): void {
  const t = setTimeout(() => {
    state.timers.delete(t);
    fn();
  }, ms);
  state.timers.add(t);
}
