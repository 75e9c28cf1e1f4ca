// Small shared helpers of banyan: UUIDv7 ids, canonical JSON, SHA-256, the envelopes and body reading.
import { createHash, randomBytes } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';

export const CURRENT_VERSION = '2026-07-01';
export const PUBLISHED_VERSIONS = ['2026-06-12', '2026-07-01'];
export const API = '/api/public/v1';

/** Status per error code, exactly as the Errors table pairs them. */
export const ERROR_STATUS: Record<string, number> = {
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

/** RFC 9562 UUIDv7: 48 bits of Unix milliseconds, then random bits (time-ordered, like our event ids). */
export function uuidv7(): string {
  const b = randomBytes(16);
  b.writeUIntBE(Date.now(), 0, 6);
  b.writeUInt8((b.readUInt8(6) & 0x0f) | 0x70, 6);
  b.writeUInt8((b.readUInt8(8) & 0x3f) | 0x80, 8);
  const h = b.toString('hex');
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20)}`;
}

/** JSON with object keys sorted at every depth (our events only hold strings, integers, booleans, null). */
export function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    const o = value as Record<string, unknown>;
    const keys = Object.keys(o)
      .filter((k) => o[k] !== undefined)
      .sort();
    return `{${keys.map((k) => `${JSON.stringify(k)}:${canonical(o[k])}`).join(',')}}`;
  }
  return JSON.stringify(value);
}

export const sha256 = (text: string) => createHash('sha256').update(text, 'utf8').digest('hex');

export interface Meta {
  requestId: string;
  version: string;
  at: string;
  idempotencyKey?: string;
  replayed?: boolean;
}

/** What one call carries through the handlers: its id, answered version and extra headers. */
export interface CallCtx {
  requestId: string;
  version: string;
  headers: Record<string, string>;
}

export function meta(ctx: CallCtx, extra: Partial<Meta> = {}): Meta {
  return { requestId: ctx.requestId, version: ctx.version, at: new Date().toISOString(), ...extra };
}

export function sendJson(res: ServerResponse, ctx: CallCtx, status: number, body: unknown): void {
  const text = JSON.stringify(body);
  res.writeHead(status, {
    ...ctx.headers,
    'content-type': 'application/json; charset=utf-8',
    'x-request-id': ctx.requestId,
    'cache-control': 'no-store',
    'content-length': Buffer.byteLength(text),
  });
  res.end(text);
}

export function sendOk(res: ServerResponse, ctx: CallCtx, data: unknown, extra: Partial<Meta> = {}): void {
  sendJson(res, ctx, 200, { ok: true, data, meta: meta(ctx, extra) });
}

/** An error the handlers throw; the server turns it into the failure envelope. */
export class ApiError extends Error {
  code: string;
  detail: string | undefined;
  constructor(code: string, message: string, detail?: string) {
    super(message);
    this.code = code;
    this.detail = detail;
  }
}

export function sendError(res: ServerResponse, ctx: CallCtx, e: ApiError): void {
  const error: Record<string, string> = { code: e.code, message: e.message };
  if (e.detail) error.detail = e.detail;
  sendJson(res, ctx, ERROR_STATUS[e.code] ?? 500, { ok: false, error, meta: meta(ctx) });
}

/** Reads the raw body (at most 1 MiB: more is refused as an unsuitable request). */
export async function readBody(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const c of req) {
    size += (c as Buffer).length;
    if (size > 1 << 20) throw new ApiError('invalid_request', 'request body too large');
    chunks.push(c as Buffer);
  }
  return Buffer.concat(chunks).toString('utf8');
}

/** Parses a JSON object body; anything else is 400 invalid_request. */
export function parseObject(raw: string): Record<string, unknown> {
  // An empty body is an empty object: a replay or removal has nothing to send, a creation then lacks its fields.
  if (raw.trim() === '') return {};
  let v: unknown;
  try {
    v = JSON.parse(raw);
  } catch {
    throw new ApiError('invalid_request', 'body is not valid JSON');
  }
  if (v === null || typeof v !== 'object' || Array.isArray(v)) {
    throw new ApiError('invalid_request', 'body must be a JSON object');
  }
  return v as Record<string, unknown>;
}

/** A required text of `min`..`max` characters (code points, not bytes). */
export function text(body: Record<string, unknown>, field: string, min: number, max: number): string {
  const v = body[field];
  if (typeof v !== 'string') throw new ApiError('invalid_request', `${field} is required and must be a string`);
  const n = [...v].length;
  if (n < min || n > max) throw new ApiError('invalid_request', `${field} must be ${min} to ${max} characters`);
  return v;
}
