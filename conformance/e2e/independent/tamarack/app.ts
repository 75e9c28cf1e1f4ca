// The services one request may use, wired once per deployment and shared by both listeners.
import type { AuditLog } from './audit.ts';
import type { Ctx } from './http-kit.ts';
import type { IdempotencyStore } from './idempotency.ts';
import type { StatusStream } from './kafka-stream.ts';
import type { OAuthServer } from './oauth.ts';
import type { RateLimiter } from './rate-limit.ts';
import type { Store } from './store.ts';
import type { Relay } from './webhooks.ts';

export interface App {
  store: Store;
  idem: IdempotencyStore;
  stream: StatusStream;
  relay: Relay;
  audit: AuditLog;
  oauth: OAuthServer;
  limiter: RateLimiter;
  /** Timers of connections moving on (cleared on close). */
  timers: Set<NodeJS.Timeout>;
}

export type Handler = (ctx: Ctx, app: App, params: Record<string, string>) => Promise<void> | void;

export interface Route {
  method: string;
  /** Path under /api/public/v1, with {name} parameters ('' is the base itself). */
  path: string;
  auth: boolean;
  /** "yes + key": an Idempotency-Key is required. */
  key: boolean;
  scope?: string;
  purpose: string;
  /** First version offering the route (the delivery log came with 2026-07-01). */
  since?: string;
  /** A route of the interface's own table (others are tamarack's additions). */
  contract?: boolean;
  handler: Handler;
}
