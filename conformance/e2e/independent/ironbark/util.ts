// Small helpers in the style of a Saturn/Giraffe service: .NET round-trip times, ShortGuids,
// Kestrel-like request ids and the success/failure envelopes every JSON answer carries.
import { createHash, randomBytes, randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';

export const CURRENT_VERSION = '2026-07-01';
export const VERSIONS = ['2026-07-01', '2026-06-12'] as const;

let tickSalt = 0;
/** A .NET round-trip ("o") timestamp with 7 fractional digits. */
export function roundTrip(ms: number = Date.now()): string {
  const iso = new Date(ms).toISOString(); // 2026-11-29T10:00:00.123Z
  tickSalt = (tickSalt + 1) % 10000;
  const ticks = String(tickSalt).padStart(4, '0');
  return `${iso.slice(0, 23)}${ticks}Z`;
}

/** A ShortGuid: 16 random bytes, base64url, 22 characters. */
export function shortGuid(): string {
  return randomBytes(16).toString('base64url');
}

export function guid(): string {
  return randomUUID();
}

const connectionPrefix = `0H${randomBytes(6).toString('hex').toUpperCase().slice(0, 11)}`;
let requestCounter = 0;
/** A Kestrel-style TraceIdentifier. */
export function nextRequestId(): string {
  requestCounter += 1;
  return `${connectionPrefix}:${requestCounter.toString(16).toUpperCase().padStart(8, '0')}`;
}

export function sha256Hex(text: string): string {
  return createHash('sha256').update(text).digest('hex');
}

/** Key-sorted JSON, for comparing request content under one idempotency key. */
export function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (value && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>)
      .filter(([, v]) => v !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonicalJson(v)}`).join(',')}}`;
  }
  return JSON.stringify(value ?? null);
}

export interface Meta {
  requestId: string;
  version: string;
  at: string;
  idempotencyKey?: string;
  replayed?: boolean;
}

export interface Ctx {
  req: IncomingMessage;
  res: ServerResponse;
  url: URL;
  requestId: string;
  version: string;
  origin: string;
  headers: Record<string, string>;
}

export function meta(ctx: Ctx, extra?: Partial<Meta>): Meta {
  return { requestId: ctx.requestId, version: ctx.version, at: roundTrip(), ...extra };
}

export function sendJson(ctx: Ctx, status: number, body: unknown, headers: Record<string, string> = {}): void {
  const text = JSON.stringify(body);
  ctx.res.writeHead(status, {
    'content-type': 'application/json; charset=utf-8',
    'content-length': String(Buffer.byteLength(text)),
    'x-request-id': ctx.requestId,
    'api-supported-versions': VERSIONS.join(', '),
    ...ctx.headers,
    ...headers,
  });
  ctx.res.end(text);
}

export function ok(ctx: Ctx, data: unknown, extra?: Partial<Meta>): void {
  sendJson(ctx, 200, { ok: true, data, meta: meta(ctx, extra) });
}

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

export const STATUS: Record<ErrorCode, number> = {
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

/** A failure of a handler, turned into the failure envelope by the pipeline. */
export class ApiError extends Error {
  code: ErrorCode;
  detail: string | undefined;
  hint: string | undefined;
  headers: Record<string, string>;
  constructor(code: ErrorCode, message: string, detail?: string, hint?: string, headers: Record<string, string> = {}) {
    super(message);
    this.code = code;
    this.detail = detail;
    this.hint = hint;
    this.headers = headers;
  }
}

export function fail(ctx: Ctx, e: ApiError): void {
  const error: Record<string, string> = { code: e.code, message: e.message };
  if (e.detail) error.detail = e.detail;
  if (e.hint) error.hint = e.hint;
  sendJson(ctx, STATUS[e.code], { ok: false, error, meta: meta(ctx) }, e.headers);
}

export async function readBody(req: IncomingMessage, max = 64 * 1024): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    const b = chunk as Buffer;
    size += b.length;
    if (size > max) throw new ApiError('invalid_request', 'Request body too large', `at most ${max} bytes`);
    chunks.push(b);
  }
  return Buffer.concat(chunks).toString('utf8');
}

export function parseJsonObject(text: string): Record<string, unknown> {
  if (text.trim() === '') throw new ApiError('invalid_request', 'Request body is required', 'expected a JSON object');
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw new ApiError('invalid_request', 'Request body is not valid JSON');
  }
  if (!value || typeof value !== 'object' || Array.isArray(value)) {
    throw new ApiError('invalid_request', 'Request body must be a JSON object');
  }
  return value as Record<string, unknown>;
}

export function str(body: Record<string, unknown>, field: string, min: number, max: number, required = true) {
  const v = body[field];
  if (v === undefined || v === null) {
    if (required) throw new ApiError('invalid_request', `Field ${field} is required`, `${field}: required`);
    return undefined;
  }
  if (typeof v !== 'string')
    throw new ApiError('invalid_request', `Field ${field} must be a string`, `${field}: string`);
  if (v.length < min || v.length > max) {
    throw new ApiError('invalid_request', `Field ${field} has an invalid length`, `${field}: length ${min} to ${max}`);
  }
  return v;
}
