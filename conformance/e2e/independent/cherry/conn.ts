// The Plug.Conn of cherry: one request's context and the envelope helpers every controller renders through.
import { randomBytes } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';

export const CURRENT_VERSION = '2026-07-01';
export const VERSIONS = ['2026-06-12', '2026-07-01'];

export interface Conn {
  req: IncomingMessage;
  res: ServerResponse;
  method: string;
  path: string;
  query: URLSearchParams;
  /** The base URL this request came in on (main or alternate), for links. */
  origin: string;
  requestId: string;
  version: string;
  /** Headers added to every answer of this call (rate limit, request id). */
  headers: Record<string, string>;
  idempotencyKey?: string;
  replayed?: boolean;
  rawBody?: string;
}

/** Plug.RequestId style: 20 characters of url-safe base64. */
export function newRequestId(): string {
  return randomBytes(15).toString('base64url');
}

/** Elixir's DateTime.to_iso8601 with microsecond precision: 2026-07-01T10:00:00.123000Z. */
export function isoNow(ms: number = Date.now()): string {
  return new Date(ms).toISOString().replace(/\.(\d{3})Z$/, '.$1000Z');
}

export function meta(conn: Conn): Record<string, unknown> {
  const m: Record<string, unknown> = { requestId: conn.requestId, version: conn.version, at: isoNow() };
  if (conn.idempotencyKey !== undefined) m.idempotencyKey = conn.idempotencyKey;
  if (conn.replayed) m.replayed = true;
  return m;
}

export function send(conn: Conn, status: number, body: unknown, contentType = 'application/json; charset=utf-8'): void {
  if (conn.res.headersSent) return;
  const text = typeof body === 'string' ? body : JSON.stringify(body);
  conn.res.writeHead(status, {
    ...conn.headers,
    'content-type': contentType,
    'cache-control': 'no-store',
    'content-length': Buffer.byteLength(text),
  });
  conn.res.end(text);
}

export function ok(conn: Conn, data: unknown, extraHeaders: Record<string, string> = {}): void {
  Object.assign(conn.headers, extraHeaders);
  send(conn, 200, { ok: true, data, meta: meta(conn) });
}

export const STATUS: Record<string, number> = {
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

/** An Ash-style error: code and message, a detail, and (JSON:API-flavoured) a pointer to the field. */
export class ApiError extends Error {
  code: string;
  detail?: string;
  hint?: string;
  pointer?: string;
  constructor(code: string, message: string, opts: { detail?: string; hint?: string; pointer?: string } = {}) {
    super(message);
    this.code = code;
    this.detail = opts.detail;
    this.hint = opts.hint;
    this.pointer = opts.pointer;
  }
}

export function fail(conn: Conn, err: ApiError): void {
  const error: Record<string, unknown> = { code: err.code, message: err.message };
  if (err.detail) error.detail = err.detail;
  if (err.hint) error.hint = err.hint;
  if (err.pointer) error.source = { pointer: err.pointer };
  send(conn, STATUS[err.code] ?? 500, { ok: false, error, meta: meta(conn) });
}

export function header(conn: Conn, name: string): string | undefined {
  const v = conn.req.headers[name.toLowerCase()];
  return Array.isArray(v) ? v[0] : v;
}

export async function readBody(req: IncomingMessage, max = 1_000_000): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const c of req) {
    size += (c as Buffer).length;
    if (size > max) throw new ApiError('invalid_request', 'request body too large');
    chunks.push(c as Buffer);
  }
  return Buffer.concat(chunks).toString('utf8');
}

/** Parses the JSON body of a modifying call: an object, or invalid_request. */
export function jsonObject(raw: string | undefined): Record<string, unknown> {
  let value: unknown;
  try {
    value = JSON.parse(raw ?? '');
  } catch {
    throw new ApiError('invalid_request', 'the request body is not valid JSON', {
      hint: 'send a JSON object with content-type application/json',
    });
  }
  if (value === null || typeof value !== 'object' || Array.isArray(value)) {
    throw new ApiError('invalid_request', 'the request body must be a JSON object');
  }
  return value as Record<string, unknown>;
}
