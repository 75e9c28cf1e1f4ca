// Response plumbing in the style of an Axum edge service: every answer is chunked (no Content-Length),
// GET answers carry a weak ETag over their data (304 on If-None-Match), errors are never cached.
import { createHash, randomBytes } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';

export const VERSION = '2026-07-01';
export const VERSIONS = ['2026-07-01', '2026-06-12'];
const B32 = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';

/** A prefixed ULID-like id: 10 chars of time, 16 of randomness (Crockford base32). */
export function newId(prefix: string): string {
  let t = Date.now();
  let time = '';
  for (let i = 0; i < 10; i++) {
    time = B32[t % 32] + time;
    t = Math.floor(t / 32);
  }
  const rnd = [...randomBytes(16)].map((b) => B32[b % 32]).join('');
  return `${prefix}_${time}${rnd}`;
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

/** Per-call context: the request id and the version the answer speaks. */
export interface Call {
  req: IncomingMessage;
  res: ServerResponse;
  requestId: string;
  version: string;
  url: URL;
  extraMeta?: Record<string, unknown>;
}

export function meta(call: Call): Record<string, unknown> {
  return { requestId: call.requestId, version: call.version, at: new Date().toISOString(), ...call.extraMeta };
}

/** Writes the body in a chunk so node never sets Content-Length. */
export function writeChunked(res: ServerResponse, status: number, headers: Record<string, string>, body?: string) {
  res.writeHead(status, headers);
  if (body !== undefined && body.length > 0) res.write(body);
  res.end();
}

export function sendData(call: Call, data: unknown, cache = 'private, no-cache'): void {
  const { req, res } = call;
  const headers: Record<string, string> = {
    'content-type': 'application/json; charset=utf-8',
    'cache-control': cache,
    'x-request-id': call.requestId,
    'service-version': call.version,
  };
  if (req.method === 'GET') {
    const etag = `W/"${createHash('sha256').update(JSON.stringify(data)).digest('base64url').slice(0, 22)}"`;
    headers.etag = etag;
    const inm = req.headers['if-none-match'];
    if (inm?.split(',').some((v) => v.trim() === etag || v.trim() === '*')) {
      writeChunked(res, 304, headers);
      return;
    }
  }
  writeChunked(res, 200, headers, JSON.stringify({ ok: true, data, meta: meta(call) }));
}

export function sendError(call: Call, code: string, message: string, extra: Record<string, string> = {}): void {
  const status = STATUS[code] ?? 500;
  const headers: Record<string, string> = {
    'content-type': 'application/json; charset=utf-8',
    'cache-control': 'no-store',
    'x-request-id': call.requestId,
    'service-version': call.version,
  };
  const { hint, ...rest } = extra;
  const error: Record<string, string> = { code, message };
  if (hint) error.hint = hint;
  writeChunked(call.res, status, { ...headers, ...rest }, JSON.stringify({ ok: false, error, meta: meta(call) }));
}

/** Thrown by validators and handlers; the router turns it into the failure envelope. */
export class ApiError extends Error {
  code: string;
  hint: string | undefined;
  constructor(code: string, message: string, hint?: string) {
    super(message);
    this.code = code;
    this.hint = hint;
  }
}

export async function readBody(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const c of req) {
    size += (c as Buffer).length;
    if (size > 256 * 1024) throw new ApiError('invalid_request', 'body too large');
    chunks.push(c as Buffer);
  }
  return Buffer.concat(chunks).toString('utf8');
}

export function parseJsonObject(text: string): Record<string, unknown> {
  let v: unknown;
  try {
    v = JSON.parse(text);
  } catch {
    throw new ApiError('invalid_request', 'body is not valid JSON');
  }
  if (!v || typeof v !== 'object' || Array.isArray(v))
    throw new ApiError('invalid_request', 'body must be a JSON object');
  return v as Record<string, unknown>;
}

/** Lengths count characters (code points), not bytes. */
export function str(body: Record<string, unknown>, field: string, min: number, max: number): string {
  const v = body[field];
  if (typeof v !== 'string') throw new ApiError('invalid_request', `${field} must be a string`);
  const n = [...v].length;
  if (n < min || n > max) throw new ApiError('invalid_request', `${field} must be ${min} to ${max} characters`);
  return v;
}

export function onlyFields(body: Record<string, unknown>, allowed: string[]): void {
  for (const k of Object.keys(body)) {
    if (!allowed.includes(k)) throw new ApiError('invalid_request', `unknown field ${k}`);
  }
}

export const ENVIRONMENTS = ['development', 'sandbox', 'pilot', 'production'];

export function canonical(v: unknown): string {
  if (Array.isArray(v)) return `[${v.map(canonical).join(',')}]`;
  if (v && typeof v === 'object') {
    const o = v as Record<string, unknown>;
    return `{${Object.keys(o)
      .sort()
      .map((k) => `${JSON.stringify(k)}:${canonical(o[k])}`)
      .join(',')}}`;
  }
  return JSON.stringify(v);
}
