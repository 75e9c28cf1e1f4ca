// Envelopes, errors and request plumbing of ebony: every JSON answer carries meta (requestId, version, at),
// every answer carries an X-Global-Transaction-ID as an API Connect gateway adds one.
import { randomBytes } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';

export const BASE = '/api/public/v1';
export const CURRENT_VERSION = '2026-07-01';
export const VERSIONS = ['2026-07-01', '2026-06-12'] as const;

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

/** A refusal in the Errors table's terms: code, message, optional detail and hint. */
export class ApiError extends Error {
  readonly code: ErrorCode;
  readonly detail: string | undefined;
  readonly hint: string | undefined;
  constructor(code: ErrorCode, message: string, detail?: string, hint?: string) {
    super(message);
    this.code = code;
    this.detail = detail;
    this.hint = hint;
  }
  get status(): number {
    return STATUS[this.code];
  }
}

/** One call in flight: its request, response, parsed URL, identifiers and the version it is served in. */
export interface Call {
  req: IncomingMessage;
  res: ServerResponse;
  url: URL;
  requestId: string;
  version: string;
  params: Record<string, string>;
  clientId: string;
  tenant: string;
  body: Record<string, unknown>;
  rawBody: string;
  idempotencyKey: string | undefined;
}

/** Times without fractional seconds, as the CICS side writes them. */
export function nowIso(ms: number = Date.now()): string {
  return new Date(ms).toISOString().replace(/\.\d{3}Z$/, 'Z');
}

export function newRequestId(): string {
  return `RQ${randomBytes(7).toString('hex').toUpperCase()}`;
}

export function newTransactionId(): string {
  return randomBytes(12).toString('hex');
}

export function meta(call: Pick<Call, 'requestId' | 'version'>, extra: Record<string, unknown> = {}) {
  return { requestId: call.requestId, version: call.version, at: nowIso(), ...extra };
}

export function sendJson(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}) {
  if (res.headersSent) return;
  const text = JSON.stringify(body);
  res.writeHead(status, {
    ...headers,
    'content-type': 'application/json; charset=utf-8',
    'content-length': Buffer.byteLength(text),
    'cache-control': 'no-store',
  });
  res.end(text);
}

export function sendOk(call: Call, data: unknown, extraMeta: Record<string, unknown> = {}) {
  sendJson(call.res, 200, { ok: true, data, meta: meta(call, extraMeta) });
}

export function sendError(call: Pick<Call, 'res' | 'requestId' | 'version'>, err: unknown) {
  const e =
    err instanceof ApiError
      ? err
      : new ApiError(
          'internal',
          'The service could not complete the call.',
          undefined,
          'Quote meta.requestId to support.',
        );
  if (!(err instanceof ApiError)) console.error(`[ebony] ${call.requestId}`, err);
  const error: Record<string, string> = { code: e.code, message: e.message };
  if (e.detail) error.detail = e.detail;
  if (e.hint) error.hint = e.hint;
  sendJson(call.res, e.status, { ok: false, error, meta: meta(call) });
}

export function readRaw(req: IncomingMessage, limit = 1_000_000): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (c: Buffer) => {
      size += c.length;
      if (size > limit) {
        reject(new ApiError('invalid_request', 'Request body too large.', `limit ${limit} bytes`));
        req.destroy();
      } else chunks.push(c);
    });
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    req.on('error', reject);
  });
}

export function parseBody(raw: string): Record<string, unknown> {
  if (raw.trim() === '') return {};
  let v: unknown;
  try {
    v = JSON.parse(raw);
  } catch {
    throw new ApiError('invalid_request', 'Request body is not valid JSON.', undefined, 'Send a JSON object.');
  }
  if (typeof v !== 'object' || v === null || Array.isArray(v)) {
    throw new ApiError('invalid_request', 'Request body must be a JSON object.');
  }
  return v as Record<string, unknown>;
}

/** A required string field of length min..max. */
export function text(body: Record<string, unknown>, field: string, min: number, max: number): string {
  const v = body[field];
  if (v === undefined || v === null) throw new ApiError('invalid_request', `Field ${field} is required.`, field);
  if (typeof v !== 'string') throw new ApiError('invalid_request', `Field ${field} must be a string.`, field);
  if (v.length < min || v.length > max) {
    throw new ApiError('invalid_request', `Field ${field} must be ${min} to ${max} characters long.`, field);
  }
  return v;
}

export const ENVIRONMENTS = ['development', 'sandbox', 'pilot', 'production'] as const;
export type Environment = (typeof ENVIRONMENTS)[number];

export function environment(body: Record<string, unknown>, field: string, fallback?: Environment): Environment {
  const v = body[field];
  if ((v === undefined || v === null) && fallback) return fallback;
  if (typeof v !== 'string' || !(ENVIRONMENTS as readonly string[]).includes(v)) {
    throw new ApiError('invalid_request', `Field ${field} must be one of ${ENVIRONMENTS.join(', ')}.`, field);
  }
  return v as Environment;
}

/** JSON with object keys sorted (RFC 8785 for the strings, integers and booleans ebony stores). */
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
