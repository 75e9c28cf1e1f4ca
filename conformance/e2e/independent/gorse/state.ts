// Shared state of both listeners: tokens, token buckets, idempotency records, connections, the audit chain
// and the public stream's numbered backlog.
import { createHash, randomBytes } from 'node:crypto';
import { canonical, newId } from './http-kit.ts';

export interface GorseOptions {
  /** token bucket capacity and refill per second */
  bucketSize?: number;
  refillPerSecond?: number;
  /** provisioning -> live after this many ms */
  liveAfterMs?: number;
  tokenLifetimeS?: number;
  heartbeatMs?: number;
  /** an edge runtime ends a response after this many ms (0: never); clients resume */
  streamMaxMs?: number;
  /** a replayed webhook registration leaves out the signing key (issued exactly once) */
  redactSecretOnReplay?: boolean;
  /** a live connection is suspended after this many ms (0: never) */
  suspendAfterMs?: number;
  /** refuse query parameters an endpoint does not define (400) */
  strictQuery?: boolean;
  /** refuse a POST body not sent as application/json (400) */
  strictContentType?: boolean;
  /** a capability check naming an unknown connector answers 404 not_found */
  unknownConnector404?: boolean;
  /** at-least-once: every delivery is sent a second time 300 ms later (same delivery and event id) */
  duplicateDeliveries?: boolean;
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
  firstUse: number;
  status: number;
  data: unknown;
}

export interface AuditEntry {
  seq: number;
  id: string;
  at: string;
  action: string;
  target: string;
  actor: string;
  prevHash: string;
  hash: string;
}

export interface StreamMessage {
  seq: number;
  kind: string;
  data: Record<string, unknown>;
}

export class GorseState {
  opts: Required<GorseOptions>;
  clientId = 'gorse-ci-client';
  clientSecret = `gcs_${randomBytes(24).toString('base64url')}`;
  released = new Set(['gorse-alpha', 'gorse-beta']);
  known = new Set(['gorse-alpha', 'gorse-beta', 'gorse-gamma']);
  tokens = new Map<string, { clientId: string; exp: number }>();
  buckets = new Map<string, { tokens: number; at: number }>();
  idem = new Map<string, StoredAnswer>();
  connections = new Map<string, Connection[]>();
  audit = new Map<string, AuditEntry[]>();
  stream: StreamMessage[] = [];
  listeners = new Set<(m: StreamMessage) => void>();
  timers = new Set<NodeJS.Timeout>();

  constructor(opts: GorseOptions = {}) {
    this.opts = {
      bucketSize: opts.bucketSize ?? 600,
      refillPerSecond: opts.refillPerSecond ?? 20,
      liveAfterMs: opts.liveAfterMs ?? 2000,
      tokenLifetimeS: opts.tokenLifetimeS ?? 3600,
      heartbeatMs: opts.heartbeatMs ?? 10_000,
      streamMaxMs: opts.streamMaxMs ?? 0,
      redactSecretOnReplay: opts.redactSecretOnReplay ?? false,
      suspendAfterMs: opts.suspendAfterMs ?? 0,
      strictQuery: opts.strictQuery ?? false,
      strictContentType: opts.strictContentType ?? false,
      unknownConnector404: opts.unknownConnector404 ?? false,
      duplicateDeliveries: opts.duplicateDeliveries ?? false,
    };
  }

  issueToken(): { token: string; expiresIn: number } {
    const token = `gat_${randomBytes(32).toString('base64url')}`;
    this.tokens.set(token, { clientId: this.clientId, exp: Date.now() + this.opts.tokenLifetimeS * 1000 });
    return { token, expiresIn: this.opts.tokenLifetimeS };
  }

  tokenClient(token: string): string | undefined {
    const t = this.tokens.get(token);
    if (!t || t.exp < Date.now()) return undefined;
    return t.clientId;
  }

  /** Token bucket: refills continuously, so Remaining may grow between calls. */
  take(key: string): { ok: boolean; remaining: number; retryAfter: number } {
    const now = Date.now();
    const { bucketSize, refillPerSecond } = this.opts;
    const b = this.buckets.get(key) ?? { tokens: bucketSize, at: now };
    b.tokens = Math.min(bucketSize, b.tokens + ((now - b.at) / 1000) * refillPerSecond);
    b.at = now;
    this.buckets.set(key, b);
    if (b.tokens < 1) return { ok: false, remaining: 0, retryAfter: Math.ceil((1 - b.tokens) / refillPerSecond) };
    b.tokens -= 1;
    return { ok: true, remaining: Math.floor(b.tokens), retryAfter: 0 };
  }

  /** Idempotency records live 24 h counted from first use. */
  idemGet(scope: string): StoredAnswer | undefined {
    const r = this.idem.get(scope);
    if (r && Date.now() - r.firstUse > 24 * 3600_000) {
      this.idem.delete(scope);
      return undefined;
    }
    return r;
  }

  record(tenant: string, action: string, target: string, actor: string): void {
    const list = this.audit.get(tenant) ?? [];
    const prevHash = list.at(-1)?.hash ?? createHash('sha256').update(`gorse-genesis:${tenant}`).digest('hex');
    const base = { seq: list.length + 1, id: newId('aud'), at: new Date().toISOString(), action, target, actor };
    const hash = createHash('sha256')
      .update(prevHash + canonical(base))
      .digest('hex');
    list.push({ ...base, prevHash, hash });
    this.audit.set(tenant, list);
  }

  publish(kind: string, data: Record<string, unknown>): void {
    const m = { seq: this.stream.length + 1, kind, data };
    this.stream.push(m);
    for (const l of this.listeners) l(m);
  }

  later(ms: number, fn: () => void): void {
    const t = setTimeout(() => {
      this.timers.delete(t);
      fn();
    }, ms);
    this.timers.add(t);
  }
}
