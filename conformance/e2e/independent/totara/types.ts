// totara: shared types and option defaults. The team's Fastify service kept its state in Postgres (Prisma),
// Redis Streams and BullMQ; here every table, stream and queue is a Map in one App object shared by both listeners.
import type { IncomingMessage, ServerResponse } from 'node:http';

export const CURRENT_VERSION = '2026-07-01';
export const VERSIONS = ['2026-07-01', '2026-06-12'] as const;
export const ENVIRONMENTS = ['development', 'sandbox', 'pilot', 'production'] as const;
export const PREFIX = '/api/public/v1';
export const KEY_PATTERN = /^[A-Za-z0-9._:-]{8,128}$/;

export interface TotaraOptions {
  /** Calls per window for one rate-limit key (@fastify/rate-limit `max`). */
  rateLimitMax?: number;
  /** Window length in ms (@fastify/rate-limit `timeWindow`). */
  rateLimitWindowMs?: number;
  /** `route`: one bucket per route, client and tenant (the team's keyGenerator); `client`: one per client and tenant. */
  rateLimitScope?: 'route' | 'client';
  /** Lifetime of access tokens (@fastify/jwt `expiresIn`). */
  tokenTtlSeconds?: number;
  /** `reject`: an unknown Service-Version is 400; `fallback`: served as the current version. */
  unknownVersion?: 'reject' | 'fallback';
  /** Delay of the BullMQ job moving a connection from PENDING to ACTIVE. */
  transitionMs?: number;
  /** BullMQ `attempts` and the first `backoff.delay` of a webhook delivery job. */
  webhookAttempts?: number;
  webhookBackoffMs?: number;
  /** Where a stream without cursor or Last-Event-ID starts: `live` (XREAD `$`) or `start` (XREAD `0`). */
  streamFrom?: 'live' | 'start';
  /** Order of the audit log: `desc` (Prisma orderBy createdAt desc) or `asc`. */
  auditOrder?: 'desc' | 'asc';
  /** Validity of idempotency keys and of stored responses. */
  idempotencyTtlHours?: number;
}

export type Settings = Required<TotaraOptions>;

export const DEFAULTS: Settings = {
  rateLimitMax: 1000,
  rateLimitWindowMs: 60_000,
  rateLimitScope: 'route',
  tokenTtlSeconds: 900,
  unknownVersion: 'reject',
  transitionMs: 500,
  webhookAttempts: 3,
  webhookBackoffMs: 1000,
  streamFrom: 'live',
  auditOrder: 'desc',
  idempotencyTtlHours: 24,
};

export interface Principal {
  clientId: string;
  tenant: string;
}

export interface Ctx {
  req: IncomingMessage;
  res: ServerResponse;
  method: string;
  path: string;
  query: URLSearchParams;
  params: Record<string, string>;
  requestId: string;
  version: string;
  principal?: Principal;
  body?: unknown;
  rawBody?: string;
  idempotencyKey?: string;
  rateHeaders?: Record<string, string>;
}

/** What a handler returns: the status and the envelope's data (or a raw body for documents). */
export interface Result {
  status?: number;
  data?: unknown;
  /** What a replay under the same Idempotency-Key answers, when not `data` itself. */
  replayData?: unknown;
  raw?: { body: string; type: string; headers?: Record<string, string> };
}

export class HttpError extends Error {
  readonly statusCode: number;
  readonly code: string;
  readonly fastifyCode: string;
  readonly headers: Record<string, string>;

  constructor(
    statusCode: number,
    code: string,
    message: string,
    fastifyCode = 'FST_ERR',
    headers: Record<string, string> = {},
  ) {
    super(message);
    this.statusCode = statusCode;
    this.code = code;
    this.fastifyCode = fastifyCode;
    this.headers = headers;
  }
}

export interface Connection {
  id: string;
  tenant: string;
  connectorId: string;
  environment: string;
  scopeLabel: string;
  state: string;
  capabilities: { capability: string; critical: boolean; idempotencyRequired: boolean }[];
  nextStep: string;
  createdAt: string;
  updatedAt: string;
}

/** The authenticated caller of a route that requires one (the pipeline sets it before any handler runs). */
export function principalOf(ctx: Ctx): Principal {
  if (!ctx.principal)
    throw new HttpError(
      401,
      'unauthorized',
      'No Authorization was found in request.headers',
      'FST_JWT_NO_AUTHORIZATION_IN_HEADER',
    );
  return ctx.principal;
}
