// Envelopes, errors and the Rails-style response headers (X-Request-Id, X-Runtime, ETag) every answer gets.
import { createHash, randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';

export const CURRENT_VERSION = '2026-07-01';
export const VERSIONS = ['2026-06-12', '2026-07-01'];

/** The Errors table of the interface: code -> status. */
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

export class ApiError extends Error {
  code: string;
  status: number;
  detail: string | undefined;
  hint: string | undefined;
  constructor(code: string, message: string, detail?: string, hint?: string) {
    super(message);
    this.code = code;
    this.status = ERROR_STATUS[code] ?? 500;
    this.detail = detail;
    this.hint = hint;
  }
}

export interface Ctx {
  req: IncomingMessage;
  res: ServerResponse;
  url: URL;
  path: string;
  method: string;
  requestId: string;
  started: bigint;
  version: string;
  clientId?: string;
  tenant?: string;
  idemKey?: string;
  replayed?: boolean;
  /** config.time_zone as minutes east of UTC (0: UTC, `Z`). */
  utcOffset: number;
  /** Headers collected before the answer is written (rate limits, pagination). */
  headers: Record<string, string>;
}

/** ActionDispatch::RequestId: a sanitized client X-Request-Id is kept, otherwise a UUID. */
export function requestIdFor(req: IncomingMessage): string {
  const sent = req.headers['x-request-id'];
  const clean = typeof sent === 'string' ? sent.replace(/[^\w-]/g, '').slice(0, 255) : '';
  return clean.length >= 8 ? clean : randomUUID();
}

/** ActiveSupport::TimeWithZone#as_json: milliseconds and the zone's offset (`Z` in UTC). */
export function formatTime(ms: number, offsetMin: number): string {
  if (offsetMin === 0) return new Date(ms).toISOString();
  const local = new Date(ms + offsetMin * 60_000).toISOString().slice(0, -1);
  const sign = offsetMin < 0 ? '-' : '+';
  const abs = Math.abs(offsetMin);
  return `${local}${sign}${String(Math.floor(abs / 60)).padStart(2, '0')}:${String(abs % 60).padStart(2, '0')}`;
}

export function meta(ctx: Ctx): Record<string, unknown> {
  const m: Record<string, unknown> = {
    requestId: ctx.requestId,
    version: ctx.version,
    at: formatTime(Date.now(), ctx.utcOffset),
  };
  if (ctx.idemKey !== undefined) m.idempotencyKey = ctx.idemKey;
  if (ctx.replayed !== undefined) m.replayed = ctx.replayed;
  return m;
}

function baseHeaders(ctx: Ctx): Record<string, string> {
  const runtime = Number(process.hrtime.bigint() - ctx.started) / 1e9;
  return {
    ...ctx.headers,
    'X-Request-Id': ctx.requestId,
    'X-Runtime': runtime.toFixed(6),
    'Service-Version': ctx.version,
    'Cache-Control': 'max-age=0, private, must-revalidate',
  };
}

/** Writes JSON; a GET 200 carries a weak ETag over its data (fresh_when) and answers If-None-Match with 304. */
export function sendJson(ctx: Ctx, status: number, body: unknown, etagOf?: unknown): void {
  const headers = baseHeaders(ctx);
  const text = JSON.stringify(body);
  if (ctx.method === 'GET' && status === 200) {
    const etag = `W/"${createHash('md5')
      .update(JSON.stringify(etagOf ?? body))
      .digest('hex')}"`;
    headers.ETag = etag;
    if (ctx.req.headers['if-none-match'] === etag) {
      ctx.res.writeHead(304, headers);
      ctx.res.end();
      return;
    }
  }
  headers['Content-Type'] = 'application/json; charset=utf-8';
  ctx.res.writeHead(status, headers);
  ctx.res.end(text);
}

/** A downloadable document (the YAML description), with the same ETag handling. */
export function sendText(ctx: Ctx, text: string, type: string): void {
  const headers = baseHeaders(ctx);
  headers.ETag = `W/"${createHash('md5').update(text).digest('hex')}"`;
  if (ctx.req.headers['if-none-match'] === headers.ETag) {
    ctx.res.writeHead(304, headers);
    ctx.res.end();
    return;
  }
  headers['Content-Type'] = type;
  headers['Content-Disposition'] = 'inline; filename="openapi.yaml"';
  ctx.res.writeHead(200, headers);
  ctx.res.end(text);
}

export function ok(ctx: Ctx, data: unknown, status = 200): void {
  sendJson(ctx, status, { ok: true, data, meta: meta(ctx) }, data);
}

export function fail(ctx: Ctx, err: ApiError): void {
  const error: Record<string, string> = { code: err.code, message: err.message };
  if (err.detail !== undefined) error.detail = err.detail;
  if (err.hint !== undefined) error.hint = err.hint;
  sendJson(ctx, err.status, { ok: false, error, meta: meta(ctx) });
}

export async function readBody(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    size += (chunk as Buffer).length;
    if (size > 1_000_000) throw new ApiError('invalid_request', 'Request body too large', 'limit is 1 MB');
    chunks.push(chunk as Buffer);
  }
  return Buffer.concat(chunks).toString('utf8');
}

/** JSON bodies only (form posts are refused, not parsed: the published description is JSON). */
export function parseJsonObject(ctx: Ctx, text: string): Record<string, unknown> {
  const type = String(ctx.req.headers['content-type'] ?? '');
  if (type !== '' && !/json/i.test(type)) {
    throw new ApiError('invalid_request', 'Request body must be JSON', `content type ${type.slice(0, 60)}`);
  }
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    throw new ApiError('invalid_request', 'Request body is not valid JSON', undefined, 'send a JSON object');
  }
  if (body === null || typeof body !== 'object' || Array.isArray(body)) {
    throw new ApiError('invalid_request', 'Request body must be a JSON object');
  }
  return body as Record<string, unknown>;
}

/** Canonical JSON (sorted keys), used for request fingerprints and audit digests. */
export function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    const obj = value as Record<string, unknown>;
    const keys = Object.keys(obj)
      .filter((k) => obj[k] !== undefined)
      .sort();
    return `{${keys.map((k) => `${JSON.stringify(k)}:${canonical(obj[k])}`).join(',')}}`;
  }
  return JSON.stringify(value);
}
