// Request context, envelopes and errors. Every JSON answer goes through sendData/sendError so the
// envelope, meta, X-Request-Id, Service-Version and rate-limit headers are set in one place.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { CURRENT_VERSION, isoTime, PUBLISHED_VERSIONS, ulid } from './util.ts';

export interface RateInfo {
  limit: number;
  remaining: number;
  resetSeconds: number;
}

export interface Ctx {
  req: IncomingMessage;
  res: ServerResponse;
  method: string;
  path: string;
  query: URLSearchParams;
  origin: string;
  requestId: string;
  version: string;
  clientId?: string;
  tenant?: string;
  rate?: RateInfo;
  idempotencyKey?: string;
  extraHeaders: Record<string, string>;
}

const STATUS: Record<string, number> = {
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

const MESSAGES: Record<string, string> = {
  unauthorized: 'The call was not signed in.',
  forbidden: 'The access may not perform this action.',
  not_found: 'The entry does not exist.',
  invalid_request: 'The request is incomplete or unsuitable.',
  capability_denied: 'The capability is not released for this connection.',
  idempotency_conflict: 'The idempotency key was already used with different content.',
  idempotency_required: 'An Idempotency-Key header is mandatory for this call.',
  rate_limited: 'Too many calls in a short time.',
  internal: 'A fault occurred on the service side.',
};

/** An error answer; detail is a short validation summary naming the field, never the value sent. */
export class ApiError extends Error {
  code: string;
  status: number;
  detail: string | undefined;
  hint: string | undefined;
  /** Meta fields of a keyed refusal (idempotencyKey, replayed). */
  meta: Record<string, unknown> = {};
  constructor(code: string, detail?: string, hint?: string) {
    super(MESSAGES[code] ?? 'Error.');
    this.code = code;
    this.status = STATUS[code] ?? 500;
    this.detail = detail;
    this.hint = hint;
  }
}

/** Unknown Service-Version values are ignored and answered as the current version. */
export function newCtx(req: IncomingMessage, res: ServerResponse, origin: string): Ctx {
  const url = new URL(req.url ?? '/', 'http://laurel.invalid');
  const asked = String(req.headers['service-version'] ?? '').trim();
  return {
    req,
    res,
    method: (req.method ?? 'GET').toUpperCase(),
    path: url.pathname.length > 1 ? url.pathname.replace(/\/+$/, '') : url.pathname,
    query: url.searchParams,
    origin,
    requestId: ulid(),
    version: PUBLISHED_VERSIONS.includes(asked) ? asked : CURRENT_VERSION,
    extraHeaders: {},
  };
}

export function meta(ctx: Ctx, extra: Record<string, unknown> = {}): Record<string, unknown> {
  return { requestId: ctx.requestId, version: ctx.version, at: isoTime(), ...extra };
}

function headers(ctx: Ctx): Record<string, string> {
  const h: Record<string, string> = {
    'content-type': 'application/json',
    'cache-control': 'no-store',
    'x-request-id': ctx.requestId,
    'service-version': ctx.version,
    ...ctx.extraHeaders,
  };
  if (ctx.rate) {
    h['x-ratelimit-limit'] = String(ctx.rate.limit);
    h['x-ratelimit-remaining'] = String(ctx.rate.remaining);
  }
  return h;
}

export function sendJson(ctx: Ctx, status: number, body: unknown): void {
  const text = JSON.stringify(body);
  ctx.res.writeHead(status, { ...headers(ctx), 'content-length': String(Buffer.byteLength(text)) });
  ctx.res.end(text);
}

export function sendData(ctx: Ctx, data: unknown, extraMeta: Record<string, unknown> = {}): void {
  sendJson(ctx, 200, { ok: true, data, meta: meta(ctx, extraMeta) });
}

export function sendError(ctx: Ctx, err: ApiError): void {
  const error: Record<string, string> = { code: err.code, message: err.message };
  if (err.detail) error.detail = err.detail;
  if (err.hint) error.hint = err.hint;
  if (err.status === 429 && ctx.rate) ctx.extraHeaders['retry-after'] = String(ctx.rate.resetSeconds);
  if (err.status === 401) ctx.extraHeaders['www-authenticate'] = 'Bearer realm="laurel", error="invalid_token"';
  sendJson(ctx, err.status, { ok: false, error, meta: meta(ctx, err.meta) });
}

/** Reads a JSON body (at most 64 KiB). Non-JSON content types are refused with 400, never 415. */
export async function readJson(ctx: Ctx): Promise<unknown> {
  const type = String(ctx.req.headers['content-type'] ?? '').toLowerCase();
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of ctx.req) {
    const buf = chunk as Buffer;
    size += buf.length;
    if (size > 65536) throw new ApiError('invalid_request', 'body: larger than 64 KiB');
    chunks.push(buf);
  }
  if (type && !/^application\/([a-z.+-]*\+)?json\b/.test(type)) {
    throw new ApiError('invalid_request', 'body: content type must be application/json');
  }
  const text = Buffer.concat(chunks).toString('utf8');
  if (!text.trim()) throw new ApiError('invalid_request', 'body: field required');
  try {
    return JSON.parse(text);
  } catch {
    throw new ApiError('invalid_request', 'body: not valid JSON');
  }
}
