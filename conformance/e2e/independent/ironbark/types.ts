// The shared shape of the application (the composition root) and of one route of the route table.
import type { Access, Auth, RateLimiter } from './auth.ts';
import type { Store } from './store.ts';
import type { Ctx } from './util.ts';
import type { Webhooks } from './webhooks.ts';

export interface IronbarkOptions {
  /** Calls per window per access, tenant and environment (default 1000). */
  rateLimit?: number;
  /** Length of the rate-limit window in ms (default 20000). */
  windowMs?: number;
  /** How far the async projections (connection list, audit log, stream) lag the event store (default 250 ms). */
  projectionLagMs?: number;
  /** Access token lifetime in seconds (default 3600). */
  tokenTtlSeconds?: number;
  /** An unknown Service-Version: 'reject' (400 invalid_request, default) or 'fallback' (served as current). */
  unknownVersion?: 'reject' | 'fallback';
  /** Delay between connection state transitions (Requested -> Provisioning -> Live), default 400 ms. */
  transitionMs?: number;
  /** Automatic webhook delivery attempts (default 5) and the first retry wait (default 1000 ms, doubling). */
  webhookAttempts?: number;
  webhookRetryMs?: number;
}

export interface App {
  store: Store;
  auth: Auth;
  limiter: RateLimiter;
  webhooks: Webhooks;
  options: Required<IronbarkOptions>;
  environment: string;
  tokenPath: string;
}

export interface Input {
  app: App;
  ctx: Ctx;
  access: Access; // a placeholder access on public routes
  body: Record<string, unknown>;
  params: Record<string, string>;
  idempotencyKey: string | undefined;
}

export interface Output {
  data: unknown;
  /** What a replay under the same key answers instead (the signing key is issued once only). */
  replayData?: unknown;
}

export interface Route {
  method: 'GET' | 'POST' | 'DELETE';
  path: string; // template with {param}
  purpose: string;
  auth: boolean;
  key: 'required' | 'optional' | 'none';
  /** Absent in the earlier version (2026-06-12). */
  since?: string;
  /** Answers by itself (stream, OpenAPI files): no envelope. */
  raw?: (app: App, ctx: Ctx, params: Record<string, string>) => void | Promise<void>;
  handle?: (input: Input) => Output | Promise<Output>;
}
