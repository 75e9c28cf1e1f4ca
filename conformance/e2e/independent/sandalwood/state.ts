// The one in-memory state both addresses share: options, tenants, client, tokens, connections, webhooks, events.
import type { Environment } from './catalog.ts';

export interface SandalwoodOptions {
  /** Calls per window per access, tenant and environment (quota). Default 1000. */
  rateLimit?: number;
  /** Length of the fixed quota window in ms. Default 10000. */
  windowMs?: number;
  /** Lifetime of an access token in seconds. Default 3600. */
  tokenTtlSeconds?: number;
  /** The stream closes each connection after this many seconds (clients resume). Default: open until closed. */
  streamMaxSeconds?: number;
  /** A created connection shows in GET /connections only after this many ms (an index updated afterwards). Default 0. */
  listLagMs?: number;
  /** A connection stays CREATING this long before it turns ACTIVE. Default 100. */
  activationDelayMs?: number;
}

export interface Connection {
  id: string;
  name: string;
  tenant: string;
  connectorId: string;
  environment: Environment;
  scopeLabel: string;
  state: 'CREATING' | 'ACTIVE' | 'PAUSED' | 'FAILED';
  capabilities: { capability: string; critical: boolean; idempotencyRequired: boolean }[];
  nextStep: string;
  createdAt: string;
  updateTime: string;
  etag: string;
  visibleAt: number;
}

export interface Webhook {
  id: string;
  name: string;
  tenant: string;
  url: string;
  events: string[];
  state: 'ACTIVE';
  signingKey: string;
  createTime: string;
  etag: string;
}

export interface Delivery {
  id: string;
  name: string;
  webhookId: string;
  eventId: string;
  eventType: string;
  body: string;
  state: 'PENDING' | 'SUCCEEDED' | 'FAILED';
  attemptCount: number;
  responseStatus: number | null;
  lastError: string | null;
  redeliveryOf: string | null;
  createTime: string;
  completeTime: string | null;
}

export interface StreamEvent {
  seq: number;
  event: string;
  data: Record<string, unknown>;
}

export interface StoredResponse {
  fingerprint: string;
  status: number;
  data: unknown;
  expiresAt: number;
}

export const RELEASED_TENANTS = ['tenant-linden-bistro', 'tenant-harbor-cafe'];
export const UNRELEASED_TENANT = 'tenant-north-deli';

export class State {
  readonly options: Required<Omit<SandalwoodOptions, 'streamMaxSeconds'>> & { streamMaxSeconds: number | null };
  readonly clientId = 'sandalwood-ci-client';
  readonly clientSecret: string;
  readonly tenants = new Set([...RELEASED_TENANTS, UNRELEASED_TENANT]);
  readonly released = new Set(RELEASED_TENANTS);
  readonly tokens = new Map<string, { clientId: string; expiresAt: number }>();
  readonly connections: Connection[] = [];
  readonly webhooks = new Map<string, Webhook>();
  readonly deliveries: Delivery[] = [];
  readonly idempotency = new Map<string, StoredResponse>();
  readonly events: StreamEvent[] = [];
  readonly listeners = new Set<(e: StreamEvent) => void>();
  readonly windows = new Map<string, { start: number; count: number }>();
  readonly timers = new Set<NodeJS.Timeout>();
  closed = false;

  constructor(options: SandalwoodOptions, secret: string) {
    this.clientSecret = secret;
    this.options = {
      rateLimit: options.rateLimit ?? 1000,
      windowMs: options.windowMs ?? 10_000,
      tokenTtlSeconds: options.tokenTtlSeconds ?? 3600,
      streamMaxSeconds: options.streamMaxSeconds ?? null,
      listLagMs: options.listLagMs ?? 0,
      activationDelayMs: options.activationDelayMs ?? 100,
    };
  }

  /** Runs `fn` later unless the service has closed. */
  later(ms: number, fn: () => void): void {
    if (this.closed) return;
    const t = setTimeout(() => {
      this.timers.delete(t);
      if (!this.closed) fn();
    }, ms);
    this.timers.add(t);
  }

  /** Appends a status message with the next consecutive number and hands it to every open stream. */
  publish(event: string, data: Record<string, unknown>): StreamEvent {
    const e: StreamEvent = { seq: this.events.length + 1, event, data };
    this.events.push(e);
    for (const l of this.listeners) l(e);
    return e;
  }

  /** Fixed-window quota per access, tenant and environment. */
  take(key: string): { limit: number; remaining: number; retryAfter: number; allowed: boolean } {
    const now = Date.now();
    const { rateLimit, windowMs } = this.options;
    let w = this.windows.get(key);
    if (!w || now - w.start >= windowMs) {
      w = { start: now, count: 0 };
      this.windows.set(key, w);
    }
    w.count += 1;
    const retryAfter = Math.max(1, Math.ceil((w.start + windowMs - now) / 1000));
    return {
      limit: rateLimit,
      remaining: Math.max(0, rateLimit - w.count),
      retryAfter,
      allowed: w.count <= rateLimit,
    };
  }
}
