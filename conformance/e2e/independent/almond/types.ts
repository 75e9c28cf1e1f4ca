// Shared types of almond: the start options, the routing context a handler sees (Vert.x's RoutingContext,
// reduced to what node:http needs) and the records kept in the shared local maps.
import type { IncomingMessage, ServerResponse } from 'node:http';

export interface AlmondOptions {
  /** Calls per window per (client, tenant), Vert.x Web rate limiting in a shared local map. */
  rateLimit?: number;
  /** Window length in milliseconds. */
  windowMs?: number;
  /** Lifetime of the HS256 access tokens in seconds. */
  tokenTtlSeconds?: number;
  /** `reject` answers an unknown Service-Version with 400; `current` serves it as the current version. */
  unknownVersion?: 'reject' | 'current';
  /** Delay between lifecycle transitions of a connection (pending -> provisioning -> active). */
  transitionMs?: number;
  /** Delay of the connection list behind the event bus (a consumer projecting into a local map). */
  listLagMs?: number;
  /** A signed checkpoint of the audit hash chain every N entries. */
  auditCheckpointEvery?: number;
  /** Automatic delivery attempts of a webhook and the first retry wait (doubling). */
  webhookAttempts?: number;
  webhookRetryMs?: number;
  /** Failures in a row that open a receiver's circuit breaker, and how long it stays open. */
  breakerMaxFailures?: number;
  breakerResetMs?: number;
  /** Validity of a generated idempotency key in seconds. */
  idempotencyKeyTtlSeconds?: number;
}

export type Settings = Required<AlmondOptions>;

export interface RoutingContext {
  req: IncomingMessage;
  res: ServerResponse;
  method: string;
  path: string;
  params: Record<string, string>;
  query: URLSearchParams;
  rawBody: string;
  body: unknown;
  requestId: string;
  version: string;
  /** Response headers collected along the chain (rate limit, version), written with the answer. */
  headers: Record<string, string>;
  clientId?: string;
  tenant?: string;
  idempotencyKey?: string;
}

/** A JSON success: the payload of the envelope and its status (200). */
export interface Reply {
  status?: number;
  data: Record<string, unknown>;
  /** What a replay under the same idempotency key answers, where it differs (a secret issued once). */
  replay?: Record<string, unknown>;
}

/** A handler answers with a Reply, or writes the response itself (stream, files) and returns undefined. */
export type Handler = (ctx: RoutingContext) => Reply | undefined | Promise<Reply | undefined>;

export interface Connection {
  id: string;
  tenantId: string;
  connectorId: string;
  environment: string;
  scopeLabel: string;
  state: string;
  capabilities: { capability: string; critical: boolean; idempotencyRequired: boolean }[];
  nextStep: string;
  createdAt: string;
  updatedAt: string;
  version: number;
}

export interface Webhook {
  id: string;
  tenantId: string;
  url: string;
  events: string[];
  status: 'active' | 'deleted';
  secret: string;
  createdAt: string;
}

export interface DeliveryAttempt {
  number: number;
  trigger: 'automatic' | 'retry' | 'manual';
  at: string;
  statusCode: number | null;
  durationMs: number;
  outcome: 'succeeded' | 'failed' | 'circuit-open';
  error?: string;
}

export interface Delivery {
  id: string;
  webhookId: string;
  tenantId: string;
  eventId: string;
  event: string;
  payload: string;
  status: 'pending' | 'succeeded' | 'retrying' | 'failed';
  attempts: DeliveryAttempt[];
  createdAt: string;
  updatedAt: string;
}
