// Envelopes, errors and the wire details of cedar (ETag/304, gzip/br on request, request ids).
import { createHash } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { brotliCompressSync, gzipSync } from 'node:zlib';
import { goTime, newId } from './ids.ts';

export const CURRENT_VERSION = '2026-07-01';
export const PUBLISHED_VERSIONS = ['2026-07-01', '2026-06-12'];

export type Ctx = {
  req: IncomingMessage;
  res: ServerResponse;
  url: URL;
  method: string;
  path: string;
  requestId: string;
  version: string;
  origin: string;
  idempotencyKey?: string;
  /** extra response headers (rate limit, key id) set before the answer is written */
  headers: Record<string, string>;
};

export type ErrorCode =
  | 'unauthorized'
  | 'forbidden'
  | 'not_found'
  | 'invalid_request'
  | 'capability_denied'
  | 'idempotency_conflict'
  | 'idempotency_required'
  | 'rate_limited'
  | 'internal';

const STATUS: Record<ErrorCode, number> = {
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
const TITLES: Record<ErrorCode, string> = {
  unauthorized: 'call was not signed in',
  forbidden: 'access may not perform the action',
  not_found: 'the entry does not exist',
  invalid_request: 'request incomplete or unsuitable',
  capability_denied: 'capability is not released for this connection',
  idempotency_conflict: 'same idempotency key with different content',
  idempotency_required: 'an idempotency key is mandatory for this call',
  rate_limited: 'too many calls in a short time',
  internal: 'fault on the service side',
};

/** Thrown by handlers; the router turns it into the failure envelope. */
export class ApiError extends Error {
  code: ErrorCode;
  detail: string | undefined;
  hint: string | undefined;
  constructor(code: ErrorCode, detail?: string, hint?: string) {
    super(TITLES[code]);
    this.code = code;
    this.detail = detail;
    this.hint = hint;
  }
}

export function meta(ctx: Ctx, extra: Record<string, unknown> = {}): Record<string, unknown> {
  const m: Record<string, unknown> = { requestId: ctx.requestId, version: ctx.version, at: goTime() };
  if (ctx.idempotencyKey) m.idempotencyKey = ctx.idempotencyKey;
  return { ...m, ...extra };
}

export function newRequestId(): string {
  return newId('req');
}

/** Writes JSON; compresses when the caller asked for it and the body is worth it; ETag + 304 on GET. */
export function sendJson(ctx: Ctx, status: number, body: unknown, opts: { etagOf?: unknown } = {}): void {
  const text = JSON.stringify(body);
  const headers: Record<string, string> = {
    'content-type': 'application/json; charset=utf-8',
    'x-request-id': ctx.requestId,
    'service-version': ctx.version,
    'cache-control': 'no-store',
    vary: 'accept-encoding, authorization, x-service-tenant, service-version',
    ...ctx.headers,
  };
  if (opts.etagOf !== undefined && ctx.method === 'GET' && status === 200) {
    // The ETag covers data only: meta changes with every call.
    const etag = `W/"${createHash('sha256').update(JSON.stringify(opts.etagOf)).digest('base64url').slice(0, 22)}"`;
    headers.etag = etag;
    headers['cache-control'] = 'private, no-cache';
    if (ctx.req.headers['if-none-match'] === etag) {
      delete headers['content-type'];
      ctx.res.writeHead(304, headers);
      ctx.res.end();
      return;
    }
  }
  let payload: Buffer = Buffer.from(text, 'utf8');
  const accept = String(ctx.req.headers['accept-encoding'] ?? '');
  if (payload.length > 1024 && /\bbr\b/.test(accept)) {
    payload = brotliCompressSync(payload);
    headers['content-encoding'] = 'br';
  } else if (payload.length > 1024 && /\bgzip\b/.test(accept)) {
    payload = gzipSync(payload);
    headers['content-encoding'] = 'gzip';
  }
  headers['content-length'] = String(payload.length);
  ctx.res.writeHead(status, headers);
  ctx.res.end(ctx.method === 'HEAD' ? undefined : payload);
}

export function sendOk(ctx: Ctx, data: unknown, opts: { etag?: boolean; meta?: Record<string, unknown> } = {}): void {
  sendJson(ctx, 200, { ok: true, data, meta: meta(ctx, opts.meta) }, opts.etag ? { etagOf: data } : {});
}

/** The failure envelope; RFC 9457-style type/title/status live inside error, beside the interface's fields. */
export function errorBody(ctx: Ctx, err: ApiError): Record<string, unknown> {
  const error: Record<string, unknown> = {
    code: err.code,
    message: err.message,
    type: `https://errors.cedar.example/${err.code.replace(/_/g, '-')}`,
    title: TITLES[err.code],
    status: STATUS[err.code],
  };
  if (err.detail) error.detail = err.detail;
  if (err.hint) error.hint = err.hint;
  return { ok: false, error, meta: meta(ctx) };
}

export function sendError(ctx: Ctx, err: ApiError): void {
  sendJson(ctx, STATUS[err.code], errorBody(ctx, err));
}

export function statusOf(code: ErrorCode): number {
  return STATUS[code];
}

/** Reads the request body (at most 256 KiB). */
export async function readBody(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    size += (chunk as Buffer).length;
    if (size > 256 * 1024) throw new ApiError('invalid_request', 'the body is larger than 256 KiB');
    chunks.push(chunk as Buffer);
  }
  return Buffer.concat(chunks).toString('utf8');
}

/** A JSON object body; anything else is invalid_request. */
export async function readJsonObject(ctx: Ctx): Promise<Record<string, unknown>> {
  const type = String(ctx.req.headers['content-type'] ?? '');
  const text = await readBody(ctx.req);
  if (!/^application\/([a-z.+-]*\+)?json\b/i.test(type)) {
    throw new ApiError('invalid_request', 'the body must be JSON (content-type: application/json)');
  }
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw new ApiError('invalid_request', 'the body is not valid JSON');
  }
  if (!value || typeof value !== 'object' || Array.isArray(value)) {
    throw new ApiError('invalid_request', 'the body must be a JSON object');
  }
  return value as Record<string, unknown>;
}
