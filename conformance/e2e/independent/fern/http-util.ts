// Response helpers: the envelope, Python-style timestamps, gzip when the client asks (as the nginx
// front would), the request id header, and a bounded JSON body reader.
import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { gzipSync } from 'node:zlib';

export const CURRENT_VERSION = '2026-07-01';
export const VERSIONS = ['2026-07-01', '2026-06-12'];

/** What one call carries through the handlers. */
export interface Ctx {
  req: IncomingMessage;
  res: ServerResponse;
  requestId: string;
  version: string;
  path: string;
  query: URLSearchParams;
  headers: Record<string, string>;
  idempotencyKey?: string | undefined;
  replayed?: boolean;
}

let offsetMin = 0;
/** FERN_TZ_OFFSET_MIN: times written in a local offset (e.g. 60: `+01:00`, as datetime.now().astimezone()). */
export function setTimeOffset(minutes: number) {
  offsetMin = minutes;
}

/** Python's datetime.isoformat() with microseconds and an explicit offset (`+00:00` by default). */
export function isoNow(ms: number = Date.now()): string {
  const local = new Date(ms + offsetMin * 60_000).toISOString().slice(0, -1);
  const a = Math.abs(offsetMin);
  const off = `${offsetMin < 0 ? '-' : '+'}${String(Math.floor(a / 60)).padStart(2, '0')}:${String(a % 60).padStart(2, '0')}`;
  return `${local}000${off}`;
}

export function newCtx(req: IncomingMessage, res: ServerResponse): Ctx {
  const url = new URL(req.url ?? '/', 'http://fern.local');
  const sv = req.headers['service-version'];
  const asked = typeof sv === 'string' ? sv.trim() : '';
  return {
    req,
    res,
    requestId: randomUUID(),
    version: VERSIONS.includes(asked) ? asked : CURRENT_VERSION,
    path: url.pathname,
    query: url.searchParams,
    headers: {},
  };
}

function meta(ctx: Ctx) {
  const m: Record<string, unknown> = { requestId: ctx.requestId, version: ctx.version, at: isoNow() };
  if (ctx.idempotencyKey !== undefined) m.idempotencyKey = ctx.idempotencyKey;
  if (ctx.replayed) m.replayed = true;
  return m;
}

export function sendRaw(ctx: Ctx, status: number, body: string, type = 'application/json') {
  const { req, res } = ctx;
  const headers: Record<string, string> = {
    ...ctx.headers,
    'Content-Type': type,
    'X-Request-Id': ctx.requestId,
    Vary: 'Accept-Encoding',
    'Cache-Control': 'no-store',
  };
  let payload: Buffer = Buffer.from(body, 'utf8');
  if (/\bgzip\b/i.test(String(req.headers['accept-encoding'] ?? '')) && payload.length > 0) {
    payload = gzipSync(payload);
    headers['Content-Encoding'] = 'gzip';
  }
  headers['Content-Length'] = String(payload.length);
  res.writeHead(status, headers);
  res.end(payload);
}

export function ok(ctx: Ctx, data: unknown) {
  sendRaw(ctx, 200, JSON.stringify({ ok: true, data, meta: meta(ctx) }));
}

const STATUS: Record<string, number> = {
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

/** An error to throw from a handler; the dispatcher turns it into the failure envelope. */
export class ApiError extends Error {
  code: string;
  detail: string | undefined;
  hint: string | undefined;
  constructor(code: string, message: string, detail?: string, hint?: string) {
    super(message);
    this.code = code;
    this.detail = detail;
    this.hint = hint;
  }
}

export function fail(ctx: Ctx, e: ApiError) {
  const error: Record<string, string> = { code: e.code, message: e.message };
  if (e.detail) error.detail = e.detail;
  if (e.hint) error.hint = e.hint;
  sendRaw(ctx, STATUS[e.code] ?? 500, JSON.stringify({ ok: false, error, meta: meta(ctx) }));
}

/** Reads the body (at most 64 KiB) and parses it as JSON; anything else is a 400. */
export async function readJson(req: IncomingMessage): Promise<unknown> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    size += (chunk as Buffer).length;
    if (size > 65536) throw new ApiError('invalid_request', 'Request body too large', 'body: at most 65536 bytes');
    chunks.push(chunk as Buffer);
  }
  const text = Buffer.concat(chunks).toString('utf8');
  const type = String(req.headers['content-type'] ?? '');
  if (type && !/json/i.test(type)) {
    throw new ApiError('invalid_request', 'Unsupported body', 'body: expected application/json');
  }
  if (text.trim() === '') throw new ApiError('invalid_request', 'Request validation failed', 'body: field required');
  try {
    return JSON.parse(text);
  } catch {
    throw new ApiError('invalid_request', 'Request validation failed', 'body: invalid JSON');
  }
}
