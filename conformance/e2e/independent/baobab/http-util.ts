// Small HTTP helpers: short base62 ids, the success and failure envelopes, JSON body reading.
// Errors are thrown as ApiError and turned into the failure envelope in one place (server.ts).
import { randomBytes } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';

export const CURRENT_VERSION = '2026-07-01';
export const PREVIOUS_VERSION = '2026-06-12';
export const VERSIONS = [CURRENT_VERSION, PREVIOUS_VERSION];

const ALPHABET = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';

/** A short base62 id (rejection sampling keeps every character equally likely). */
export function newId(length = 12): string {
  let out = '';
  while (out.length < length) {
    for (const b of randomBytes(length * 2)) {
      if (b < 248 && out.length < length) out += ALPHABET[b % 62];
    }
  }
  return out;
}

export const STATUS_OF: Record<string, number> = {
  invalid_request: 400,
  unauthorized: 401,
  forbidden: 403,
  not_found: 404,
  capability_denied: 409,
  idempotency_conflict: 409,
  idempotency_required: 428,
  rate_limited: 429,
  internal: 500,
};

export class ApiError extends Error {
  code: string;
  status: number;
  detail: string | undefined;
  hint: string | undefined;
  headers: Record<string, string>;
  constructor(code: string, message: string, detail?: string, hint?: string) {
    super(message);
    this.code = code;
    this.status = STATUS_OF[code] ?? 500;
    this.detail = detail;
    this.hint = hint;
    this.headers = {};
  }
}

/** What every answer of one call shares: its id, version and the headers gathered on the way. */
export interface CallContext {
  requestId: string;
  version: string;
  headers: Record<string, string>;
  idempotencyKey?: string;
  replayed?: boolean;
}

export function meta(ctx: CallContext): Record<string, unknown> {
  const m: Record<string, unknown> = { requestId: ctx.requestId, version: ctx.version, at: new Date().toISOString() };
  if (ctx.idempotencyKey !== undefined) m.idempotencyKey = ctx.idempotencyKey;
  if (ctx.replayed !== undefined) m.replayed = ctx.replayed;
  return m;
}

export function sendJson(res: ServerResponse, ctx: CallContext, status: number, body: unknown): void {
  const text = JSON.stringify(body);
  res.writeHead(status, {
    ...ctx.headers,
    'Content-Type': 'application/json; charset=utf-8',
    'Content-Length': String(Buffer.byteLength(text)),
    'X-Request-Id': ctx.requestId,
    'Cache-Control': 'no-store',
  });
  res.end(text);
}

export function sendData(res: ServerResponse, ctx: CallContext, data: unknown): void {
  sendJson(res, ctx, 200, { ok: true, data, meta: meta(ctx) });
}

export function sendError(res: ServerResponse, ctx: CallContext, err: ApiError): void {
  const error: Record<string, string> = { code: err.code, message: err.message };
  if (err.detail !== undefined) error.detail = err.detail;
  if (err.hint !== undefined) error.hint = err.hint;
  Object.assign(ctx.headers, err.headers);
  sendJson(res, ctx, err.status, { ok: false, error, meta: meta(ctx) });
}

const MAX_BODY = 1024 * 1024;

/** Reads the raw body (at most 1 MiB). */
export async function readRaw(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    size += (chunk as Buffer).length;
    if (size > MAX_BODY) throw new ApiError('invalid_request', 'Request body too large', 'body: at most 1 MiB');
    chunks.push(chunk as Buffer);
  }
  return Buffer.concat(chunks).toString('utf8');
}

/** Parses a JSON object body the way a FastAPI app would, but answers 400 (never 422 or 415). */
export function parseJsonObject(req: IncomingMessage, raw: string): Record<string, unknown> {
  const type = String(req.headers['content-type'] ?? '').toLowerCase();
  if (!type.startsWith('application/json') && !/^application\/[a-z0-9.+-]*\+json/.test(type)) {
    throw new ApiError('invalid_request', 'Request validation failed', 'body: content type must be application/json');
  }
  let value: unknown;
  try {
    value = JSON.parse(raw);
  } catch {
    throw new ApiError('invalid_request', 'Request validation failed', 'body: JSON decode error');
  }
  if (value === null || typeof value !== 'object' || Array.isArray(value)) {
    throw new ApiError('invalid_request', 'Request validation failed', 'body: Input should be a valid dictionary');
  }
  return value as Record<string, unknown>;
}
