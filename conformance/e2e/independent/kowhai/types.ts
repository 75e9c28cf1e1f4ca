// Shared shapes of kowhai: the start options (the team's configurable choices) and the request context the
// Express-style pipeline hands to every handler.
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { AuditLog } from './audit.ts';
import type { OAuthServer, RateLimiter } from './auth.ts';
import type { ConnectionTable } from './connections.ts';
import type { EventTable } from './events.ts';
import type { IdempotencyStore } from './idempotency.ts';
import type { WebhookQueue } from './webhooks.ts';

export interface KowhaiOptions {
  /** express-rate-limit `limit` per client and tenant (default 1000). */
  limit?: number;
  /** express-rate-limit `windowMs` (default 60 000). */
  windowMs?: number;
  /** oauth2-server `accessTokenLifetime` in seconds (default 3600). */
  tokenTtlSeconds?: number;
  /** Delay of the Bull job that moves a connection from `pending` to `active` (default 300 ms). */
  activationMs?: number;
  /** Bull `attempts` of a webhook delivery job (default 3). */
  webhookAttempts?: number;
  /** Bull fixed `backoff` between delivery attempts (default 1000 ms). */
  webhookBackoffMs?: number;
  /** Sequelize `order` of the audit log: newest first (default) or oldest first. */
  auditOrder?: 'desc' | 'asc';
  /** An unknown Service-Version: 400 (default) or served as the current version. */
  unknownVersion?: 'reject' | 'current';
  /** Validity of an idempotency key in hours (default 24). */
  idempotencyTtlHours?: number;
}

export type Settings = Required<KowhaiOptions>;

export interface App {
  settings: Settings;
  oauth: OAuthServer;
  limiter: RateLimiter;
  events: EventTable;
  audit: AuditLog;
  idempotency: IdempotencyStore;
  connections: ConnectionTable;
  webhooks: WebhookQueue;
  tenants: string[];
  tokenPath: string;
}

export interface Ctx {
  app: App;
  req: IncomingMessage;
  res: ServerResponse;
  requestId: string;
  version: string;
  method: string;
  path: string;
  query: Record<string, unknown>;
  params: Record<string, string>;
  body: unknown;
  clientId: string;
  tenant: string;
  idempotencyKey?: string | undefined;
}

/** What a handler answers: the data, and for a replay under the same key the data shown again (a secret hidden). */
export interface Answer {
  data: unknown;
  replayData?: unknown;
  after?: () => void;
}

export const CURRENT_VERSION = '2026-07-01';
export const VERSIONS = ['2026-07-01', '2026-06-12'];
export const PREFIX = '/api/public/v1';
