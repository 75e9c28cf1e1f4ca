// The gateway's response side: every answer gets the envelope, no-store, the request id, Vary and,
// once the caller is identified, the rate-limit headers (the gateway counts before routing).
import { randomBytes } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { instant, requestId } from './ids.ts';

export const CURRENT_VERSION = '2026-07-01';
export const KNOWN_VERSIONS = ['2026-07-01', '2026-06-12'];
export const API = '/api/public/v1';

export type RateState = { limit: number; remaining: number; resetSeconds: number };

export type Ctx = {
  req: IncomingMessage;
  res: ServerResponse;
  url: URL;
  method: string;
  requestId: string;
  /** the gateway's id of the call (X-Kong-Request-Id) */
  gatewayId: string;
  version: string;
  rate?: RateState;
  clientId?: string;
  tenant?: string;
  /** which listener took the call: both share one state */
  base: 'main' | 'alt';
};

export function newCtx(req: IncomingMessage, res: ServerResponse, base: 'main' | 'alt'): Ctx {
  const url = new URL(req.url ?? '/', 'http://127.0.0.1');
  const method = (req.method ?? 'GET').toUpperCase();
  return {
    req,
    res,
    url,
    method,
    requestId: requestId(),
    gatewayId: randomBytes(16).toString('hex'),
    version: CURRENT_VERSION,
    base,
  };
}

export type MetaExtra = { idempotencyKey?: string; replayed?: boolean };

export function meta(ctx: Ctx, extra: MetaExtra = {}): Record<string, unknown> {
  const m: Record<string, unknown> = { requestId: ctx.requestId, version: ctx.version, at: instant() };
  if (extra.idempotencyKey !== undefined) m.idempotencyKey = extra.idempotencyKey;
  if (extra.replayed !== undefined) m.replayed = extra.replayed;
  return m;
}

export function baseHeaders(ctx: Ctx): Record<string, string> {
  const headers: Record<string, string> = {
    'Cache-Control': 'no-store',
    'X-Request-Id': ctx.requestId,
    // the gateway's own correlation id (Kong 3.5+), distinct from the service's request id
    'X-Kong-Request-Id': ctx.gatewayId,
    Vary: 'Authorization, x-service-tenant',
    'X-Content-Type-Options': 'nosniff',
  };
  if (ctx.rate) {
    headers['X-RateLimit-Limit'] = String(ctx.rate.limit);
    headers['X-RateLimit-Remaining'] = String(ctx.rate.remaining);
    headers['X-RateLimit-Reset'] = String(ctx.rate.resetSeconds);
  }
  return headers;
}

export function sendJson(ctx: Ctx, status: number, body: unknown, extra: Record<string, string> = {}): void {
  const text = JSON.stringify(body);
  ctx.res.writeHead(status, {
    ...baseHeaders(ctx),
    'Content-Type': 'application/json;charset=UTF-8', // Spring MVC's APPLICATION_JSON_UTF8 spelling
    'Content-Length': String(Buffer.byteLength(text)),
    ...extra,
  });
  ctx.res.end(ctx.method === 'HEAD' ? undefined : text);
}

export function ok(ctx: Ctx, data: unknown, extra: MetaExtra = {}): void {
  sendJson(ctx, 200, { ok: true, data, meta: meta(ctx, extra) });
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
  headers: Record<string, string>;
  constructor(
    code: string,
    message: string,
    opts: { detail?: string; hint?: string; headers?: Record<string, string> } = {},
  ) {
    super(message);
    this.code = code;
    this.detail = opts.detail;
    this.hint = opts.hint;
    this.headers = opts.headers ?? {};
  }
}

export function fail(ctx: Ctx, err: ApiError, extra: MetaExtra = {}): void {
  const error: Record<string, string> = { code: err.code, message: err.message };
  if (err.detail) error.detail = err.detail;
  if (err.hint) error.hint = err.hint;
  sendJson(ctx, STATUS_OF[err.code] ?? 500, { ok: false, error, meta: meta(ctx, extra) }, err.headers);
}

const MAX_BODY = 256 * 1024;

export async function readBody(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    size += (chunk as Buffer).length;
    if (size > MAX_BODY)
      throw new ApiError('invalid_request', 'The request body is too large.', { hint: 'At most 256 KiB.' });
    chunks.push(chunk as Buffer);
  }
  return Buffer.concat(chunks).toString('utf8');
}

/** JSON object bodies only (Spring's @RequestBody with a strict content-type check). */
export async function readJsonObject(ctx: Ctx): Promise<Record<string, unknown>> {
  const text = await readBody(ctx.req);
  const type = String(ctx.req.headers['content-type'] ?? '').toLowerCase();
  if (!/^application\/([a-z.+-]*\+)?json\b/.test(type)) {
    throw new ApiError('invalid_request', 'The request body must be JSON.', {
      hint: 'Send Content-Type: application/json.',
    });
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    throw new ApiError('invalid_request', 'The request body is not valid JSON.');
  }
  if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed)) {
    throw new ApiError('invalid_request', 'The request body must be a JSON object.');
  }
  return parsed as Record<string, unknown>;
}

/** Canonical JSON: object members sorted by name, no spacing (used for fingerprints and audit hashes). */
export function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>)
      .filter(([, v]) => v !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonicalJson(v)}`).join(',')}}`;
  }
  return JSON.stringify(value);
}
