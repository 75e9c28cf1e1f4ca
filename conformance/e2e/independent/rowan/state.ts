// The shared state of both listening addresses: tokens, connections, idempotency records, the audit log,
// stream sequences and webhooks. One object, as one Postgres database would be behind both ALB listeners.
import { createHash, createHmac, randomBytes } from 'node:crypto';

export interface RowanOptions {
  /** Calls per window and per token (DRF UserRateThrottle, default 100/minute). */
  rateLimit?: number;
  windowMs?: number;
  /** How long a connection stays `new` before it goes `live`. */
  activationMs?: number;
  /** SSE keep-alive comment interval and the worker's stream lifetime. */
  keepAliveMs?: number;
  streamLifetimeMs?: number;
  tokenTtlSeconds?: number;
  /** DRF PAGE_SIZE of every list (count is the total, next/previous link the pages). */
  pageSize?: number;
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

export interface StoredResponse {
  fingerprint: string;
  operation: string;
  status: number;
  data: unknown;
  expiresAt: number;
}

export interface AuditEntry {
  id: string;
  action: string;
  resourceType: string;
  resourceId: string;
  requestId: string;
  actor: string;
  at: string;
}

export interface StreamEvent {
  seq: number;
  kind: string;
  data: Record<string, unknown>;
}

export interface Webhook {
  id: string;
  tenant: string;
  url: string;
  events: string[];
  secret: string;
  active: boolean;
  createdAt: string;
}

export interface Delivery {
  id: string;
  webhookId: string;
  eventId: string;
  event: string;
  body: string;
  attempt: number;
  trigger: string;
  status: string;
  responseStatus: number | null;
  createdAt: string;
  deliveredAt: string | null;
}

export const IDEMPOTENCY_TTL_MS = 24 * 60 * 60 * 1000;

export function shortHash(input: string, len = 4): string {
  return createHash('sha256').update(input).digest('hex').slice(0, len);
}

export function newId(prefix: string): string {
  return `${prefix}_${randomBytes(8).toString('hex')}`;
}

export class RowanState {
  options: Required<RowanOptions>;
  tokens = new Map<string, { clientId: string; expiresAt: number }>();
  connections = new Map<string, Connection[]>();
  connectionTenant = new Map<string, string>();
  idempotency = new Map<string, StoredResponse>();
  audit = new Map<string, AuditEntry[]>();
  streams = new Map<string, StreamEvent[]>();
  listeners = new Map<string, Set<(e: StreamEvent) => void>>();
  webhooks = new Map<string, Webhook>();
  deliveries = new Map<string, Delivery[]>();
  throttle = new Map<string, { windowStart: number; count: number }>();
  auditKey = randomBytes(32);
  timers = new Set<NodeJS.Timeout>();

  constructor(options: RowanOptions = {}) {
    this.options = {
      rateLimit: options.rateLimit ?? 100,
      windowMs: options.windowMs ?? 60_000,
      activationMs: options.activationMs ?? 300,
      keepAliveMs: options.keepAliveMs ?? 20_000,
      streamLifetimeMs: options.streamLifetimeMs ?? 300_000,
      tokenTtlSeconds: options.tokenTtlSeconds ?? 3600,
      pageSize: options.pageSize ?? 100,
    };
  }

  issueToken(clientId: string): { token: string; expiresIn: number } {
    const token = randomBytes(24).toString('base64url');
    const expiresIn = this.options.tokenTtlSeconds;
    this.tokens.set(token, { clientId, expiresAt: Date.now() + expiresIn * 1000 });
    return { token, expiresIn };
  }

  /** Fixed window per token, like UserRateThrottle's cache entry. */
  take(token: string): { limit: number; remaining: number; retryAfter: number; allowed: boolean } {
    const now = Date.now();
    const { rateLimit, windowMs } = this.options;
    let w = this.throttle.get(token);
    if (!w || now - w.windowStart >= windowMs) {
      w = { windowStart: now, count: 0 };
      this.throttle.set(token, w);
    }
    const retryAfter = Math.max(1, Math.ceil((w.windowStart + windowMs - now) / 1000));
    if (w.count >= rateLimit) return { limit: rateLimit, remaining: 0, retryAfter, allowed: false };
    w.count += 1;
    return { limit: rateLimit, remaining: rateLimit - w.count, retryAfter, allowed: true };
  }

  connectionsOf(tenant: string): Connection[] {
    let list = this.connections.get(tenant);
    if (!list) {
      list = [];
      this.connections.set(tenant, list);
    }
    return list;
  }

  /** Slug of the connector plus a short hash, unique across tenants. */
  connectionId(connectorId: string): string {
    for (;;) {
      const id = `${connectorId}-${shortHash(randomBytes(8).toString('hex'))}`;
      if (!this.connectionTenant.has(id)) return id;
    }
  }

  record(tenant: string, entry: Omit<AuditEntry, 'id' | 'at'>): void {
    const list = this.audit.get(tenant) ?? [];
    list.push({ id: newId('aud'), at: new Date().toISOString(), ...entry });
    this.audit.set(tenant, list);
  }

  auditProof(ids: string[]): { algorithm: string; kid: string; signature: string; coveredIds: number } {
    const signature = createHmac('sha256', this.auditKey).update(ids.join('\n')).digest('hex');
    return { algorithm: 'HMAC-SHA256', kid: 'rowan-audit-2026-07', signature, coveredIds: ids.length };
  }

  /** Appends to a stream (a tenant's, or `public`) and wakes its readers. */
  emit(stream: string, kind: string, data: Record<string, unknown>): void {
    const list = this.streams.get(stream) ?? [];
    const e = { seq: list.length + 1, kind, data };
    list.push(e);
    this.streams.set(stream, list);
    for (const fn of this.listeners.get(stream) ?? []) fn(e);
  }

  later(ms: number, fn: () => void): void {
    const t = setTimeout(() => {
      this.timers.delete(t);
      fn();
    }, ms);
    this.timers.add(t);
  }
}
