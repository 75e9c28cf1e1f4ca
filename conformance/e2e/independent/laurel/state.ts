// The shared state of both listening addresses, and the connection lifecycle:
// requested -> provisioning -> live (timers); suspended is set by operations only (LAUREL_SUSPEND_AFTER_MS
// simulates it). Every change goes to the stream, the tenant's webhooks and the audit log.

import { AuditLog } from './audit.ts';
import type { AuthState } from './auth.ts';
import { IdempotencyStore } from './idempotency.ts';
import { RateLimiter } from './rate-limit.ts';
import { StreamHub } from './stream.ts';
import { isoTime } from './util.ts';
import { WebhookHub } from './webhooks.ts';

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

export interface LaurelOptions {
  rateLimit?: number;
  windowMs?: number;
  provisionAfterMs?: number;
  liveAfterMs?: number;
  suspendAfterMs?: number;
  heartbeatMs?: number;
  tokenLifetimeS?: number;
  /** Audit log listed oldest first (still paged with cursor / next_cursor). */
  auditOldestFirst?: boolean;
  /** A replayed webhook registration leaves the signing key out (it is issued exactly once). */
  redactSecretOnReplay?: boolean;
  /** The delivery log (added in 2026-07-01) answers 404 to a caller asking for 2026-06-12. */
  deliveryLogSinceCurrent?: boolean;
  /** Idempotency-Key read only on "yes + key" routes; elsewhere ignored (not validated, not echoed). */
  keyOnlyWhereRequired?: boolean;
  /** Unknown body fields ignored (pydantic extra="ignore") instead of refused, except on POST /connections. */
  ignoreExtraFields?: boolean;
  /** A capability missing from the catalog answers 404 not_found (checks and creations), not a refusal. */
  unknownCapabilityNotFound?: boolean;
  /** Refused modifying calls are recorded in the audit log too (operation, status, code, key). */
  auditRefusals?: boolean;
  /** Stream payloads pretty-printed over several `data:` lines (json.dumps(indent=2)). */
  sseMultiline?: boolean;
  /** A key whose call was refused by a business rule (404, 409) replays that refusal (Stripe-style). */
  storeRefusals?: boolean;
  /** Catalog filters compared case-insensitively (citext columns); catalog values are lower case. */
  caseInsensitiveFilters?: boolean;
}

const NEXT_STEP: Record<string, string> = {
  requested: 'wait_for_provisioning',
  provisioning: 'wait_until_live',
  live: 'none',
  suspended: 'contact_support',
};

export class State {
  auth: AuthState;
  limiter: RateLimiter;
  keys = new IdempotencyStore();
  stream: StreamHub;
  hooks = new WebhookHub();
  audit = new AuditLog();
  connections: { tenant: string; conn: Connection }[] = [];
  timers = new Set<NodeJS.Timeout>();
  options: LaurelOptions;
  constructor(auth: AuthState, options: LaurelOptions) {
    this.auth = auth;
    this.options = options;
    this.keys.storeRefusals = options.storeRefusals === true;
    this.limiter = new RateLimiter(options.rateLimit ?? 300, options.windowMs ?? 60_000);
    this.stream = new StreamHub(options.heartbeatMs ?? 15_000, options.sseMultiline === true);
  }

  nextStep(state: string): string {
    return NEXT_STEP[state] ?? 'none';
  }

  /** Announces a new connection and schedules its lifecycle. */
  created(tenant: string, conn: Connection): void {
    this.stream.publish(tenant, 'connection.created', { ...conn });
    this.hooks.dispatch(tenant, 'connection.created', { connection: { ...conn } });
    const o = this.options;
    const provision = o.provisionAfterMs ?? 200;
    const live = provision + (o.liveAfterMs ?? 600);
    this.later(provision, () => this.move(tenant, conn, 'provisioning'));
    this.later(live, () => this.move(tenant, conn, 'live'));
    if (o.suspendAfterMs !== undefined) this.later(live + o.suspendAfterMs, () => this.move(tenant, conn, 'suspended'));
  }

  private move(tenant: string, conn: Connection, to: string): void {
    const from = conn.state;
    conn.state = to;
    conn.nextStep = this.nextStep(to);
    conn.updatedAt = isoTime();
    this.stream.publish(tenant, 'connection.state_changed', { ...conn }, from);
    this.hooks.dispatch(tenant, 'connection.state_changed', { previousState: from, connection: { ...conn } });
    this.audit.record(tenant, {
      actor: 'system',
      action: 'connection.state_changed',
      resourceType: 'connection',
      resourceId: conn.id,
      requestId: '',
      details: { from, to },
    });
  }

  private later(ms: number, fn: () => void): void {
    const timer = setTimeout(() => {
      this.timers.delete(timer);
      fn();
    }, ms);
    timer.unref();
    this.timers.add(timer);
  }

  close(): void {
    for (const timer of this.timers) clearTimeout(timer);
    this.hooks.close();
    this.stream.closeAll();
  }
}
