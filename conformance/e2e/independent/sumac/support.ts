// Shared plumbing of sumac: the state every module works on, the envelope writers, Laravel-style timestamps
// and the request context. One state is shared by both listeners (main and alternate base address).
import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';

export const CURRENT_VERSION = '2026-07-01';
export const PUBLISHED_VERSIONS = ['2026-06-12', '2026-07-01'];

export interface SumacOptions {
  /** Calls per window per access (client, tenant and environment). */
  rateLimit?: number;
  /** Length of the fixed rate-limit window (Laravel's decay), default 60 s. */
  windowMs?: number;
  /** The queue worker's backoff array in seconds between delivery attempts. */
  backoff?: number[];
  /** Leave the signing secret out of a replayed registration. */
  redactKeyOnReplay?: boolean;
  /** Also send an RFC 8288 Link header with the paginator's next page. */
  linkHeader?: boolean;
  /** List the audit log and the delivery log oldest first (Laravel's oldest()) instead of newest first. */
  oldestFirst?: boolean;
  /** The largest page (limit) of the audit and delivery logs, default 100; a larger limit is refused (400). */
  pageMax?: number;
  /** Name stream messages after the broadcast event classes (App\\Events\\ConnectionCreated). */
  classEventNames?: boolean;
  /** Serve the delivery log only to 2026-07-01 (the version that added it); 2026-06-12 gets 404. */
  versionedDeliveryLog?: boolean;
  /** How long a queued delivery waits for the worker (queue:work --sleep), default 0. */
  queueDelayMs?: number;
  /** Answer a request without Service-Version with 400. */
  serviceVersionRequired?: boolean;
  /** How long a connection stays pending before it turns active. */
  activationMs?: number;
}

export interface Ctx {
  req: IncomingMessage;
  res: ServerResponse;
  url: URL;
  /** Origin of the listener that got the call, so links name the address the client used. */
  origin: string;
  requestId: string;
  version: string;
  clientId?: string;
  tenant?: string;
  rate?: { limit: number; remaining: number; resetAt: number };
  body?: unknown;
}

/** Laravel serialises dates with microseconds: 2026-11-27T13:15:00.123000Z. */
/** SUMAC_CARBON_TIMES=1 (start.ts only, one process per deployment): Carbon's toIso8601String(), +00:00, no fraction. */
const CARBON = process.env.SUMAC_CARBON_TIMES === '1';

export function stamp(ms: number = Date.now()): string {
  const iso = new Date(ms).toISOString();
  return CARBON ? iso.replace(/\.\d{3}Z$/, '+00:00') : iso.replace(/\.(\d{3})Z$/, '.$1000Z');
}

export function newRequestId(): string {
  return randomUUID();
}

function baseHeaders(ctx: Ctx): Record<string, string | number> {
  const h: Record<string, string | number> = { 'X-Request-Id': ctx.requestId, 'Cache-Control': 'no-store' };
  if (ctx.rate) {
    h['X-RateLimit-Limit'] = ctx.rate.limit;
    h['X-RateLimit-Remaining'] = ctx.rate.remaining;
  }
  return h;
}

export function meta(ctx: Ctx, extra: Record<string, unknown> = {}): Record<string, unknown> {
  return { requestId: ctx.requestId, version: ctx.version, at: stamp(), ...extra };
}

export function sendJson(ctx: Ctx, status: number, body: unknown, headers: Record<string, string | number> = {}): void {
  const text = JSON.stringify(body);
  ctx.res.writeHead(status, {
    ...baseHeaders(ctx),
    'Content-Type': 'application/json',
    'Content-Length': Buffer.byteLength(text),
    ...headers,
  });
  ctx.res.end(text);
}

export function ok(ctx: Ctx, data: unknown, extraMeta: Record<string, unknown> = {}, headers = {}): void {
  sendJson(ctx, 200, { ok: true, data, meta: meta(ctx, extraMeta) }, headers);
}

export const STATUS_OF: Record<string, number> = {
  unauthorized: 401,
  forbidden: 403,
  not_found: 404,
  invalid_request: 400,
  capability_denied: 409,
  idempotency_conflict: 409,
  idempotency_required: 428,
  rate_limited: 429,
  internal: 500,
};

/** Thrown by handlers; the router turns it into the failure envelope. */
export class ApiError extends Error {
  code: string;
  detail?: string;
  hint?: string;
  /** Laravel's validation bag: field => messages. */
  errors?: Record<string, string[]>;
  headers: Record<string, string | number>;
  constructor(code: string, message: string, extra: Partial<Pick<ApiError, 'detail' | 'hint' | 'errors'>> = {}) {
    super(message);
    this.code = code;
    this.detail = extra.detail;
    this.hint = extra.hint;
    this.errors = extra.errors;
    this.headers = {};
  }
}

export function fail(ctx: Ctx, e: ApiError, extraMeta: Record<string, unknown> = {}): void {
  const error: Record<string, unknown> = { code: e.code, message: e.message };
  if (e.detail) error.detail = e.detail;
  if (e.hint) error.hint = e.hint;
  if (e.errors) error.errors = e.errors;
  sendJson(ctx, STATUS_OF[e.code] ?? 500, { ok: false, error, meta: meta(ctx, extraMeta) }, e.headers);
}

/** One validation failure, Laravel-worded, naming the contract's field and never echoing the value. */
export function invalid(field: string, message: string): ApiError {
  return new ApiError('invalid_request', 'The given data was invalid.', {
    detail: `${field}: ${message}`,
    hint: 'Check the request against the published description (GET /api/public/v1/openapi.json).',
    errors: { [field]: [message] },
  });
}

export async function readBody(req: IncomingMessage, max = 1_048_576): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const c of req) {
    size += (c as Buffer).length;
    if (size > max) throw new ApiError('invalid_request', 'The request body is too large.');
    chunks.push(c as Buffer);
  }
  return Buffer.concat(chunks).toString('utf8');
}

/** Sorted-key JSON (RFC 8785 for the strings, integers and booleans sumac stores). */
export function canonical(v: unknown): string {
  if (Array.isArray(v)) return `[${v.map(canonical).join(',')}]`;
  if (v && typeof v === 'object') {
    const o = v as Record<string, unknown>;
    const keys = Object.keys(o)
      .filter((k) => o[k] !== undefined)
      .sort();
    return `{${keys.map((k) => `${JSON.stringify(k)}:${canonical(o[k])}`).join(',')}}`;
  }
  return JSON.stringify(v);
}
