// Envelopes, request context and body reading: every JSON answer goes through send() or fail().
import type { IncomingMessage, ServerResponse } from 'node:http';
import { nowIso, snowflake } from './state.ts';

export const CURRENT_VERSION = '2026-07-01';
export const VERSIONS = ['2026-07-01', '2026-06-12'];

/** The error table of the interface: code -> status. */
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

export interface Ctx {
  req: IncomingMessage;
  res: ServerResponse;
  requestId: string;
  version: string;
  /** The route path under /api/public/v1 (no query). */
  path: string;
  query: URLSearchParams;
  baseUrl: string;
  clientId?: string;
  tenant?: string;
  idempotencyKey?: string;
}

/** Thrown by handlers; the router turns it into the failure envelope. */
export class ApiError extends Error {
  code: string;
  detail: string | undefined;
  hint: string | undefined;
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

export function newCtx(req: IncomingMessage, res: ServerResponse, baseUrl: string): Ctx {
  const url = new URL(req.url ?? '/', 'http://localhost');
  const requestId = snowflake();
  res.setHeader('X-Request-Id', requestId);
  return { req, res, requestId, version: CURRENT_VERSION, path: url.pathname, query: url.searchParams, baseUrl };
}

export function meta(ctx: Ctx, extra: { idempotencyKey?: string; replayed?: boolean } = {}) {
  const m: Record<string, unknown> = { requestId: ctx.requestId, version: ctx.version, at: nowIso() };
  if (extra.idempotencyKey !== undefined) m.idempotencyKey = extra.idempotencyKey;
  if (extra.replayed !== undefined) m.replayed = extra.replayed;
  return m;
}

export function writeJson(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}) {
  const text = JSON.stringify(body);
  for (const [k, v] of Object.entries(headers)) res.setHeader(k, v);
  res.statusCode = status;
  res.setHeader('Content-Type', 'application/json; charset=utf-8');
  res.setHeader('Cache-Control', 'no-store');
  res.setHeader('Content-Length', Buffer.byteLength(text));
  res.end(text);
}

export function send(ctx: Ctx, data: unknown, extra: { idempotencyKey?: string; replayed?: boolean } = {}) {
  writeJson(ctx.res, 200, { ok: true, data, meta: meta(ctx, extra) });
}

export function fail(ctx: Ctx, err: ApiError, replayed?: boolean) {
  const error: Record<string, string> = { code: err.code, message: err.message };
  if (err.detail) error.detail = err.detail;
  if (err.hint) error.hint = err.hint;
  const m = meta(
    ctx,
    ctx.idempotencyKey ? { idempotencyKey: ctx.idempotencyKey, ...(replayed ? { replayed } : {}) } : {},
  );
  writeJson(ctx.res, STATUS[err.code] ?? 500, { ok: false, error, meta: m }, err.headers);
}

const MAX_BODY = 64 * 1024;

/** Reads a JSON object body; the gateway refuses other media types, bad JSON and non-objects with 400. */
export async function readJsonObject(ctx: Ctx): Promise<Record<string, unknown>> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const c of ctx.req) {
    size += (c as Buffer).length;
    if (size > MAX_BODY)
      throw new ApiError('invalid_request', 'request body too large', { detail: 'at most 65536 bytes' });
    chunks.push(c as Buffer);
  }
  const type = String(ctx.req.headers['content-type'] ?? '').toLowerCase();
  if (!/^application\/([a-z0-9.+-]*\+)?json\s*(;|$)/.test(type)) {
    throw new ApiError('invalid_request', 'request body must be JSON', { hint: 'send Content-Type: application/json' });
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(Buffer.concat(chunks).toString('utf8'));
  } catch {
    throw new ApiError('invalid_request', 'request body is not valid JSON');
  }
  if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed)) {
    throw new ApiError('invalid_request', 'request body must be a JSON object');
  }
  return parsed as Record<string, unknown>;
}

/** RFC 8785-equivalent JSON for the values this service stores (strings, integers, booleans, objects, arrays). */
export function canonical(v: unknown): string {
  if (Array.isArray(v)) return `[${v.map(canonical).join(',')}]`;
  if (v !== null && typeof v === 'object') {
    const keys = Object.keys(v as object).sort();
    return `{${keys.map((k) => `${JSON.stringify(k)}:${canonical((v as Record<string, unknown>)[k])}`).join(',')}}`;
  }
  return JSON.stringify(v);
}

/** AIP-158 paging: page_size (or its alias limit, at most 100) and an opaque page_token. */
export function paging(q: URLSearchParams, fallback: number): { start: number; size: number } {
  const raw = q.get('page_size') ?? q.get('limit');
  if (raw !== null && (!/^\d+$/.test(raw) || Number(raw) < 1)) {
    throw new ApiError('invalid_request', 'page_size must be a positive integer', { detail: 'at most 100' });
  }
  const token = q.get('page_token');
  let start = 0;
  if (token) {
    const m = /^o:(\d+)$/.exec(Buffer.from(token, 'base64url').toString('utf8'));
    if (!m)
      throw new ApiError('invalid_request', 'page_token is not valid', { hint: 'send next_page_token unchanged' });
    start = Number(m[1]);
  }
  return { start, size: raw === null ? fallback : Math.min(100, Number(raw)) };
}

export function pageToken(offset: number): string {
  return Buffer.from(`o:${offset}`).toString('base64url');
}
