// Shared types of medlar: start options, the request context a route handler gets, and what it returns.
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { AuditLog } from './audit.ts';
import type { Auth } from './auth.ts';
import type { Catalog } from './catalog.ts';
import type { Connections } from './connections.ts';
import type { EventBus } from './events.ts';
import type { IdempotencyStore } from './idempotency.ts';
import type { SlidingWindowRatelimit } from './ratelimit.ts';
import type { Webhooks } from './webhooks.ts';

export interface MedlarOptions {
  /** Calls per sliding window per token and tenant (Ratelimit.slidingWindow(limit, window)). */
  rateLimit?: number;
  /** Length of the sliding window in milliseconds. */
  windowMs?: number;
  /** Lifetime of an m2m access token. */
  tokenTtlSeconds?: number;
  /** An unknown Service-Version: `reject` (400 invalid_request) or `current` (served as 2026-07-01). */
  unknownVersion?: 'reject' | 'current';
  /** Where a stream without Last-Event-ID or cursor starts: `replay` (from message 1) or `live`. */
  streamStart?: 'replay' | 'live';
  /** Interval of `: keep-alive` comments on the stream. */
  keepAliveMs?: number;
  /** Delay between the lifecycle steps of a connection (pending -> provisioning -> active). */
  transitionMs?: number;
  /** QStash-style automatic retries of a failed webhook delivery, and the first backoff (doubling). */
  webhookRetries?: number;
  webhookBackoffMs?: number;
  /** Default and maximum page size of the audit log. */
  auditPageSize?: number;
  /** Validity of a generated idempotency key. */
  idempotencyTtlSeconds?: number;
}

export type Settings = Required<MedlarOptions>;

export interface App {
  settings: Settings;
  auth: Auth;
  ratelimit: SlidingWindowRatelimit;
  catalog: Catalog;
  connections: Connections;
  idempotency: IdempotencyStore;
  events: EventBus;
  webhooks: Webhooks;
  audit: AuditLog;
  tokenPath: string;
}

export interface ApiErrorBody {
  code: string;
  message: string;
  detail?: string;
  hint?: string;
}

/** What a route handler answers; the dispatcher wraps it in the success or failure envelope. */
export interface Reply {
  status: number;
  data?: unknown;
  error?: ApiErrorBody;
  headers?: Record<string, string>;
  /** The data served when the answer is replayed under its idempotency key (default: `data`). */
  replay?: unknown;
  /** A non-envelope answer (OpenAPI files). */
  raw?: { contentType: string; body: string };
}

export interface Ctx {
  app: App;
  req: IncomingMessage;
  res: ServerResponse;
  url: URL;
  params: Record<string, string>;
  version: string;
  requestId: string;
  clientId?: string;
  tenant?: string;
  body?: unknown;
  idempotencyKey?: string;
  baseOrigin: string;
}

export type Handler = (ctx: Ctx) => Reply | Promise<Reply> | 'streamed';

/** A route module, as app/api/public/v1/.../route.ts exports one function per method. */
export interface RouteModule {
  GET?: Handler;
  POST?: Handler;
  DELETE?: Handler;
  /** Whether the route is public (no bearer, no tenant). */
  public?: boolean;
  /** Methods that need an Idempotency-Key (428 without one). */
  keyRequired?: readonly string[];
  /** POST without a body is accepted (as `{}`). */
  bodyOptional?: boolean;
}
