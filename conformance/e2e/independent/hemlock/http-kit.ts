// Shared HTTP plumbing: ids, the success and failure envelopes, body reading. Every answer goes through
// send() so requestId, X-Request-Id, the version and the rate-limit headers are set in one place.
import { randomBytes } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';

export const CURRENT_VERSION = '2026-07-01';
export const SUPPORTED_VERSIONS = ['2026-07-01', '2026-06-12'];

/**
 * An ISO 8601 UTC instant with microseconds, as Elixir's DateTime (utc_datetime_usec) encodes it:
 * `2026-11-27T10:53:07.025413Z`. JavaScript's wall clock gives milliseconds; the sub-millisecond digits
 * come from the high-resolution clock (the format, not extra precision, is the point).
 */
export function isoUsec(ms = Date.now()): string {
  const micro = String(Math.floor((performance.now() % 1) * 1000)).padStart(3, '0');
  return new Date(ms).toISOString().replace('Z', `${micro}Z`);
}

const BASE62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';

/** A short random base62 id with a type prefix, as Phoenix apps do with prefixed ids: `cn_7Hq2…`. */
export function newId(prefix: string, length = 16): string {
  const bytes = randomBytes(length);
  let out = '';
  // 248 is the largest multiple of 62 below 256; the modulo bias of 256 % 62 is negligible for ids.
  for (const b of bytes) out += BASE62[b % 62];
  return `${prefix}_${out}`;
}

/** Per-call context filled by the router as the call passes authentication and idempotency. */
export interface CallContext {
  requestId: string;
  version: string;
  headers: Record<string, string>;
  idempotencyKey?: string;
  replayed?: boolean;
}

export interface ErrorSpec {
  status: number;
  code: string;
  message: string;
  detail?: string;
  hint?: string;
}

export function meta(ctx: CallContext): Record<string, unknown> {
  const m: Record<string, unknown> = { requestId: ctx.requestId, version: ctx.version, at: isoUsec() };
  if (ctx.idempotencyKey !== undefined) m.idempotencyKey = ctx.idempotencyKey;
  if (ctx.replayed !== undefined) m.replayed = ctx.replayed;
  return m;
}

export function sendJson(res: ServerResponse, ctx: CallContext, status: number, body: unknown): void {
  const text = JSON.stringify(body);
  res.writeHead(status, {
    ...ctx.headers,
    'content-type': 'application/json; charset=utf-8',
    'content-length': Buffer.byteLength(text),
    'x-request-id': ctx.requestId,
    'cache-control': 'no-store',
  });
  res.end(text);
}

export function sendOk(res: ServerResponse, ctx: CallContext, data: unknown): void {
  sendJson(res, ctx, 200, { ok: true, data, meta: meta(ctx) });
}

export function sendError(res: ServerResponse, ctx: CallContext, e: ErrorSpec): void {
  const error: Record<string, string> = { code: e.code, message: e.message };
  if (e.detail !== undefined) error.detail = e.detail;
  if (e.hint !== undefined) error.hint = e.hint;
  sendJson(res, ctx, e.status, { ok: false, error, meta: meta(ctx) });
}

/** Thrown by handlers and validators; the router turns it into a failure envelope. */
export class ApiError extends Error {
  spec: ErrorSpec;
  constructor(spec: ErrorSpec) {
    super(spec.message);
    this.spec = spec;
  }
}

export const invalid = (detail: string, hint?: string): ApiError =>
  new ApiError({
    status: 400,
    code: 'invalid_request',
    message: 'The request is incomplete or unsuitable.',
    detail,
    hint,
  });
export const notFound = (detail = 'No such entry for this tenant.'): ApiError =>
  new ApiError({ status: 404, code: 'not_found', message: 'The entry does not exist.', detail });

const MAX_BODY = 256 * 1024;

/** Reads the raw body (capped) as text. */
export async function readBody(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    size += (chunk as Buffer).length;
    if (size > MAX_BODY) throw invalid('The body exceeds 256 KiB.');
    chunks.push(chunk as Buffer);
  }
  return Buffer.concat(chunks).toString('utf8');
}

/** Parses a JSON object body; anything else is invalid_request (the body is never echoed back). */
export function parseJsonObject(text: string): Record<string, unknown> {
  let value: unknown;
  try {
    // An empty body is an empty object (Plug.Parsers gives empty params): replay and DELETE take none.
    value = JSON.parse(text.trim() === '' ? '{}' : text);
  } catch {
    throw invalid('The body is not valid JSON.', 'Send a JSON object with content type application/json.');
  }
  if (value === null || typeof value !== 'object' || Array.isArray(value)) {
    throw invalid('The body must be a JSON object.');
  }
  return value as Record<string, unknown>;
}

export function header(req: IncomingMessage, name: string): string | undefined {
  const v = req.headers[name.toLowerCase()];
  return Array.isArray(v) ? v[0] : v;
}
