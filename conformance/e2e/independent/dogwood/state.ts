// One in-memory store shared by both listeners (Prisma + Redis in the original), the Nest module's
// providers wired over it, and the route record type.
import type { Auth } from './auth.ts';
import type { Idempotency } from './idempotency.ts';
import type { RateLimiter } from './rate-limit.ts';
import type { Ctx } from './util.ts';
export interface DogwoodOptions {
  /** Calls per window per client, tenant and environment (Kong rate-limiting plugin). */
  rateLimit?: number;
  /** Window length in ms (Kong's "minute" policy, shortened for tests). */
  windowMs?: number;
  /** Access-token lifetime in seconds. */
  tokenTtlSec?: number;
  /** BullMQ backoff base delay in ms (exponential: base * 2^(attempt-1)). */
  backoffMs?: number;
  /** Service-Version required on authenticated calls (else optional). */
  serviceVersionRequired?: boolean;
  /** Unknown body fields refused (forbidNonWhitelisted) instead of stripped (whitelist only). */
  forbidUnknown?: boolean;
  /** Receiver and delivery ids as JSON strings ("12") instead of Prisma's integers (12); "receivers": only receiver ids. */
  stringIds?: boolean | 'receivers';
  /** Deliveries carry no delivery-id header (receivers match the log by the body's event id). */
  noDeliveryHeader?: boolean;
  /** Refused keyed calls (404, 409 capability_denied) are stored and replayed like successes (Stripe-style). */
  replayRefusals?: boolean;
  /** Kong's plugin also on the public routes, counted per client IP (with its headers). */
  limitPublic?: boolean;
  /** Audit log paged by page/pageSize (Prisma skip/take) instead of the before=<seq> cursor. */
  auditPages?: boolean;
  /** Stream messages without an event: line (Nest's default "message" type; the kind is in data). */
  untypedStream?: boolean;
  /** A numbered "system.heartbeat" message every n ms (0: none). */
  heartbeatMs?: number;
  /** Delay before a pending connection turns active, in ms. */
  activationMs?: number;
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
  id: number;
  tenant: string;
  url: string;
  events: string[];
  secret: string;
  status: string;
  createdAt: string;
}

export interface Delivery {
  id: number;
  webhookId: number;
  eventId: string;
  eventType: string;
  payload: string;
  trigger: 'event' | 'manual';
  retriggeredFrom?: number;
  status: 'queued' | 'succeeded' | 'retrying' | 'failed';
  attempts: number;
  maxAttempts: number;
  responseStatus: number | null;
  lastError: string | null;
  createdAt: string;
  lastAttemptAt: string | null;
  nextAttemptAt: string | null;
}

export interface AuditEntry {
  seq: number;
  action: string;
  resourceType: string;
  resourceId: string;
  actor: string;
  requestId: string;
  idempotencyKey: string | null;
  occurredAt: string;
  previousDigest: string;
  digest: string;
}

export interface StreamMessage {
  id: number;
  event: string;
  data: string;
}

export interface State {
  opts: Required<DogwoodOptions>;
  connections: Map<string, Connection[]>;
  webhooks: Webhook[];
  deliveries: Delivery[];
  audit: Map<string, AuditEntry[]>;
  stream: StreamMessage[];
  seq: { webhook: number; delivery: number };
  timers: Set<NodeJS.Timeout>;
  closed: boolean;
}

export function createState(o: DogwoodOptions = {}): State {
  return {
    opts: {
      rateLimit: o.rateLimit ?? 600,
      windowMs: o.windowMs ?? 60_000,
      tokenTtlSec: o.tokenTtlSec ?? 300,
      backoffMs: o.backoffMs ?? 1000,
      serviceVersionRequired: o.serviceVersionRequired ?? false,
      forbidUnknown: o.forbidUnknown ?? false,
      activationMs: o.activationMs ?? 400,
      stringIds: o.stringIds ?? false,
      noDeliveryHeader: o.noDeliveryHeader ?? false,
      replayRefusals: o.replayRefusals ?? false,
      limitPublic: o.limitPublic ?? false,
      auditPages: o.auditPages ?? false,
      untypedStream: o.untypedStream ?? false,
      heartbeatMs: o.heartbeatMs ?? 0,
    },
    connections: new Map(),
    webhooks: [],
    deliveries: [],
    audit: new Map(),
    stream: [],
    seq: { webhook: 0, delivery: 0 },
    timers: new Set(),
    closed: false,
  };
}

/** setTimeout the store can cancel on close (BullMQ's delayed jobs). */
export function later(state: State, ms: number, fn: () => void): void {
  if (state.closed) return;
  const t = setTimeout(() => {
    state.timers.delete(t);
    if (!state.closed) fn();
  }, ms);
  state.timers.add(t);
}

export interface App {
  state: State;
  auth: Auth;
  limiter: RateLimiter;
  idem: Idempotency;
}

export interface Route {
  method: 'GET' | 'POST' | 'DELETE';
  path: string;
  purpose: string;
  auth: boolean;
  /** Needs an Idempotency-Key. */
  key?: boolean;
  /** Versions serving it (Nest @Version); absent: every published version, or neutral when public. */
  since?: string;
  /** Answer with 200 and this data (the handler may write the answer itself and return undefined). */
  handle: (app: App, ctx: Ctx, params: Record<string, string>) => Promise<unknown> | unknown;
}
