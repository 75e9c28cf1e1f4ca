// The one state both listeners share (an in-memory stand-in for Postgres + Redis).
import { randomBytes } from 'node:crypto';
import type { AuditState } from './audit.ts';
import type { StreamState } from './stream.ts';
import type { WebhookState } from './webhooks.ts';

export interface CypressOptions {
  /** Rack::Attack throttle: calls per window per client and tenant (default 1000). */
  rateLimit?: number;
  /** The throttle's period in milliseconds (default 60 000). */
  windowMs?: number;
  /** Doorkeeper access_token_expires_in, seconds (default 7200). */
  tokenTtlSeconds?: number;
  /** Factor on Sidekiq's retry schedule ((count**4)+15 s, jittered); 0.001 makes retries come in ms. */
  retryScale?: number;
  /** A replay of a webhook registration shows the signing key masked instead of repeating it. */
  redactKeyOnReplay?: boolean;
  /** Milliseconds until a new connection moves from pending to active (default 300). */
  activationMs?: number;
  /** config.time_zone as a fixed offset ("+01:00"): every time is rendered in it (default UTC, "Z"). */
  timeZone?: string;
  /** Active Record bigint ids ("42") for connections and receivers instead of UUIDs. */
  integerIds?: boolean;
  /** Sidekiq queue latency before a delivery's first attempt, ms (default 0). */
  deliveryDelayMs?: number;
  /** A stream answer ends after this long, ms (Heroku's router cuts at 30 s); 0: never (default). */
  streamMaxMs?: number;
  /** Read application/x-www-form-urlencoded bodies as Rails does (default: only JSON, else 400). */
  formBodies?: boolean;
  /** Kaminari-style audit paging: data.nextPage (a page number, the `page` parameter) instead of a Link header. */
  auditNextPageField?: boolean;
  /** Idempotency keys per client, not per client and tenant: a key reused for another tenant is a conflict. */
  keysPerClient?: boolean;
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

export interface Token {
  clientId: string;
  scope: string;
  expiresAt: number;
}

export interface State {
  options: Required<CypressOptions>;
  clientId: string;
  clientSecret: string;
  /** Tenants the client is released for; every tenant that exists. */
  released: Set<string>;
  tenants: Set<string>;
  tokens: Map<string, Token>;
  connections: Map<string, Connection[]>;
  idempotency: Map<string, { fingerprint: string; data: unknown; expiresAt: number }>;
  throttle: Map<string, number>;
  stream: StreamState;
  webhooks: WebhookState;
  audit: AuditState;
  timers: Set<NodeJS.Timeout>;
  auditKey: Buffer;
  iso: (ms?: number) => string;
  /** The next id of a record: a UUID, or the table's bigint sequence. */
  newId: () => string;
}

export function resolveOptions(o: CypressOptions = {}): Required<CypressOptions> {
  return {
    rateLimit: o.rateLimit ?? 1000,
    windowMs: o.windowMs ?? 60_000,
    tokenTtlSeconds: o.tokenTtlSeconds ?? 7200,
    retryScale: o.retryScale ?? 1,
    redactKeyOnReplay: o.redactKeyOnReplay ?? false,
    activationMs: o.activationMs ?? 300,
    timeZone: o.timeZone ?? '+00:00',
    integerIds: o.integerIds ?? false,
    deliveryDelayMs: o.deliveryDelayMs ?? 0,
    streamMaxMs: o.streamMaxMs ?? 0,
    formBodies: o.formBodies ?? false,
    auditNextPageField: o.auditNextPageField ?? false,
    keysPerClient: o.keysPerClient ?? false,
  };
}

export function newSecret(prefix: string, bytes = 24): string {
  return `${prefix}${randomBytes(bytes).toString('base64url')}`;
}

/** A timer the server's close() clears (ActiveJob's in-process adapter). */
export function later(state: State, ms: number, fn: () => void): void {
  const t = setTimeout(() => {
    state.timers.delete(t);
    fn();
  }, ms);
  state.timers.add(t);
}
