// The shape every route handler works with: the deployment's shared state and one call's context.
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { RateLimiter, Tokens } from './auth.ts';
import type { EventStore, IdempotencyStore } from './store.ts';
import type { CallCtx } from './util.ts';
import type { Webhooks } from './webhooks.ts';

export interface BanyanOptions {
  /** Token bucket size and the time it takes to refill completely. */
  rateLimit?: number;
  windowMs?: number;
  /** Delay before a requested connection becomes provisioned. */
  provisionMs?: number;
  /** First webhook retry delay (doubles), and how many retries. */
  retryBaseMs?: number;
  maxRetries?: number;
  /** Refuse authenticated calls without a Service-Version header (400). */
  serviceVersionRequired?: boolean;
  /** Audit log pages offered by the Link header only (RFC 8288), no `next` field in the body. */
  auditLinkOnly?: boolean;
  /** An unknown Service-Version is answered as the current version instead of 400. */
  lenientServiceVersion?: boolean;
  /** Connection list and audit log are projected this many ms after the event is stored (0: at once). */
  projectionLagMs?: number;
  /** The stream ends the response after this many messages (0: never); clients resume with Last-Event-ID. */
  streamMaxMessages?: number;
  /** The stream ends the response after this many ms (0: never), like a proxy's response time limit. */
  streamMaxMs?: number;
  /** Query parameters a route does not document are refused (400) instead of ignored. */
  strictQuery?: boolean;
  /** Stream messages carry no `event:` line (all of the default type `message`). */
  streamUnnamed?: boolean;
  /** Access token lifetime in seconds. */
  tokenLifetimeS?: number;
  /** Fixed ports (0: any free port). */
  port?: number;
  altPort?: number;
}

export interface State {
  store: EventStore;
  idem: IdempotencyStore;
  webhooks: Webhooks;
  tokens: Tokens;
  limiter: RateLimiter;
  options: Required<BanyanOptions>;
  timers: Set<NodeJS.Timeout>;
  /** Tenants that exist; only those in the client's list are released for it. */
  tenants: string[];
}

export interface Call {
  req: IncomingMessage;
  res: ServerResponse;
  ctx: CallCtx;
  url: URL;
  origin: string;
  params: Record<string, string>;
  tenant: string;
  clientId: string;
  body: Record<string, unknown>;
  state: State;
}

/** What a JSON handler returns; the server wraps it in the success envelope (streams write themselves). */
export type Result = { data: unknown } | undefined;

export interface Route {
  method: string;
  path: string;
  auth: boolean;
  /** 'required': a modifying call; 'optional': honoured when sent. */
  key?: 'required' | 'optional';
  /** Part of the interface's table (listed first); the others are banyan's additions. */
  purpose: string;
  /** First version serving the route. */
  since?: string;
  handle: (call: Call) => Result | Promise<Result>;
}
