// Shared helpers of quince: nanosecond RFC 3339 times, ids, W3C trace ids, JSON envelopes and body reading.
// Quince is written the way a Kotlin Ktor team on Cloud Run behind Apigee would build it.
import { createHash, randomBytes } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';

export const CURRENT_VERSION = '2026-07-01';
export const VERSIONS = ['2026-07-01', '2026-06-12'];

const baseNs = BigInt(Date.now()) * 1_000_000n - process.hrtime.bigint();

/** java.time.Instant.toString() with nanoseconds: always 9 fraction digits (the team's choice). */
export function isoNanos(ns: bigint = nowNs()): string {
  const ms = Number(ns / 1_000_000n);
  const frac = (ns % 1_000_000_000n).toString().padStart(9, '0');
  return `${new Date(ms).toISOString().slice(0, 19)}.${frac}Z`;
}

export function nowNs(): bigint {
  return baseNs + process.hrtime.bigint();
}

/** `c-` + 20 base36 characters (the style's connection ids); other kinds get their own letter. */
export function base36Id(prefix: string): string {
  const bytes = randomBytes(20);
  let s = '';
  for (const b of bytes) s += (b % 36).toString(36);
  return `${prefix}-${s}`;
}

/** A W3C trace id (32 lowercase hex, never all zero). */
export function traceId(): string {
  return randomBytes(16).toString('hex');
}

/** The trace id of an incoming valid traceparent, else a fresh one (Cloud Run keeps the caller's trace). */
export function requestTrace(req: IncomingMessage): string {
  const tp = req.headers.traceparent;
  const m = typeof tp === 'string' ? /^00-([0-9a-f]{32})-([0-9a-f]{16})-[0-9a-f]{2}$/.exec(tp) : null;
  if (m?.[1] && !/^0+$/.test(m[1])) return m[1];
  return traceId();
}

export interface Ctx {
  req: IncomingMessage;
  res: ServerResponse;
  requestId: string;
  version: string;
  url: URL;
  /** Headers every answer of this call carries (rate limit, traceparent). */
  headers: Record<string, string>;
  idempotencyKey?: string;
  replayed?: boolean;
}

export function meta(ctx: Ctx): Record<string, unknown> {
  const m: Record<string, unknown> = { requestId: ctx.requestId, version: ctx.version, at: isoNanos() };
  if (ctx.idempotencyKey) m.idempotencyKey = ctx.idempotencyKey;
  if (ctx.replayed) m.replayed = true;
  return m;
}

export function sendJson(ctx: Ctx, status: number, body: unknown, extra: Record<string, string> = {}): void {
  const text = JSON.stringify(body);
  ctx.res.writeHead(status, {
    'content-type': 'application/json; charset=utf-8',
    'cache-control': 'no-store',
    ...ctx.headers,
    ...extra,
  });
  ctx.res.end(text);
}

export function ok(ctx: Ctx, data: unknown): void {
  sendJson(ctx, 200, { ok: true, data, meta: meta(ctx) });
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

/** An error with a google.rpc ErrorInfo-style reason in `detail` ("REASON (domain quince.dev)"). */
export class ApiError extends Error {
  code: string;
  reason: string;
  hint?: string;
  constructor(code: string, message: string, reason: string, hint?: string) {
    super(message);
    this.code = code;
    this.reason = reason;
    this.hint = hint;
  }
}

export function fail(ctx: Ctx, e: ApiError, extra: Record<string, string> = {}): void {
  const error: Record<string, string> = { code: e.code, message: e.message, detail: `${e.reason} (domain quince.dev)` };
  if (e.hint) error.hint = e.hint;
  sendJson(ctx, STATUS[e.code] ?? 500, { ok: false, error, meta: meta(ctx) }, extra);
}

export async function readBody(req: IncomingMessage, max = 1_048_576): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const c of req) {
    const b = c as Buffer;
    size += b.length;
    if (size > max) throw new ApiError('invalid_request', 'Request body too large.', 'BODY_TOO_LARGE');
    chunks.push(b);
  }
  return Buffer.concat(chunks).toString('utf8');
}

/** Parses a JSON object body; anything else is invalid_request (never 415, which the interface does not list). */
export function parseJsonObject(text: string, contentType: string | undefined): Record<string, unknown> {
  if (contentType && !/^application\/(.+\+)?json\b/i.test(contentType)) {
    throw new ApiError('invalid_request', 'The body must be JSON (application/json).', 'UNSUPPORTED_CONTENT_TYPE');
  }
  let v: unknown;
  try {
    v = JSON.parse(text);
  } catch {
    throw new ApiError('invalid_request', 'The body is not valid JSON.', 'MALFORMED_JSON');
  }
  if (typeof v !== 'object' || v === null || Array.isArray(v)) {
    throw new ApiError('invalid_request', 'The body must be a JSON object.', 'BODY_NOT_OBJECT');
  }
  return v as Record<string, unknown>;
}

/** Canonical JSON (sorted keys, no spaces): the idempotency fingerprint and the audit chain input. */
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

export function sha512Hex(s: string): string {
  return createHash('sha512').update(s).digest('hex');
}
