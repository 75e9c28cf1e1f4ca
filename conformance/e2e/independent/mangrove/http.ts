// Envelopes, errors and body reading shared by every controller (the ApplicationController of mangrove).
import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';

export const VERSION = '2026-07-01';

/** Offset of Time.zone in minutes (config.time_zone); 0 renders UTC with `Z`, as Rails does by default. */
let zoneMinutes = 0;

/** Sets the process's time zone offset (the start script's MANGROVE_TIME_ZONE, e.g. +01:00). */
export function setTimeZone(offset: string): void {
  const m = /^([+-])(\d{2}):(\d{2})$/.exec(offset);
  zoneMinutes = m ? (m[1] === '-' ? -1 : 1) * (Number(m[2]) * 60 + Number(m[3])) : 0;
}

/** An instant as ActiveSupport renders it in JSON: ISO 8601 with milliseconds, in the configured zone. */
export function iso(ms: number = Date.now()): string {
  if (zoneMinutes === 0) return new Date(ms).toISOString();
  const local = new Date(ms + zoneMinutes * 60_000).toISOString().slice(0, -1);
  const abs = Math.abs(zoneMinutes);
  const sign = zoneMinutes < 0 ? '-' : '+';
  return `${local}${sign}${String(Math.floor(abs / 60)).padStart(2, '0')}:${String(abs % 60).padStart(2, '0')}`;
}

/** Status of every error code of the interface's Errors table. */
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

/** One request in flight: what every controller reads and writes. */
export interface Ctx {
  req: IncomingMessage;
  res: ServerResponse;
  url: URL;
  requestId: string;
  /** Headers every answer of this request carries (rate-limit headers once counted). */
  headers: Record<string, string>;
  tenant: string;
  clientId: string;
  idempotencyKey?: string;
  /** performance.now() at arrival, for X-Runtime (Rack::Runtime). */
  started: number;
}

/** A refusal thrown by a controller and rendered with the failure envelope. */
export class ApiError extends Error {
  code: string;
  detail?: string;
  constructor(code: string, message: string, detail?: string) {
    super(message);
    this.code = code;
    this.detail = detail;
  }
}

export function newCtx(req: IncomingMessage, res: ServerResponse): Ctx {
  const url = new URL(req.url ?? '/', 'http://127.0.0.1');
  // ActionDispatch::RequestId: a caller's X-Request-Id is kept (sanitized, at most 255 characters).
  const given = String(req.headers['x-request-id'] ?? '')
    .replace(/[^\w\-@]/g, '')
    .slice(0, 255);
  return {
    req,
    res,
    url,
    requestId: given || randomUUID(),
    headers: {},
    tenant: '',
    clientId: '',
    started: performance.now(),
  };
}

export function meta(ctx: Ctx, extra: Record<string, unknown> = {}): Record<string, unknown> {
  return { requestId: ctx.requestId, version: VERSION, at: iso(), ...extra };
}

export function sendJson(ctx: Ctx, status: number, body: unknown, headers: Record<string, string> = {}): void {
  const text = JSON.stringify(body);
  ctx.res.writeHead(status, {
    'content-type': 'application/json; charset=utf-8',
    'content-length': String(Buffer.byteLength(text)),
    'x-request-id': ctx.requestId,
    'cache-control': 'no-store',
    'x-runtime': ((performance.now() - ctx.started) / 1000).toFixed(6),
    ...ctx.headers,
    ...headers,
  });
  ctx.res.end(text);
}

export function ok(ctx: Ctx, data: unknown, extraMeta: Record<string, unknown> = {}): void {
  sendJson(ctx, 200, { ok: true, data, meta: meta(ctx, extraMeta) });
}

export function fail(ctx: Ctx, err: ApiError, headers: Record<string, string> = {}): void {
  const error: Record<string, string> = { code: err.code, message: err.message };
  if (err.detail) error.detail = err.detail;
  const extra = ctx.idempotencyKey ? { idempotencyKey: ctx.idempotencyKey } : {};
  sendJson(ctx, STATUS[err.code] ?? 500, { ok: false, error, meta: meta(ctx, extra) }, headers);
}

const MAX_BODY = 1_000_000;

/** The raw body as text; a body over 1 MB is refused before it is parsed. */
export async function readBody(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    size += (chunk as Buffer).length;
    if (size > MAX_BODY) throw new ApiError('invalid_request', 'request body too large');
    chunks.push(chunk as Buffer);
  }
  return Buffer.concat(chunks).toString('utf8');
}

/** A JSON object body (strong parameters start from a hash: anything else is a 400). */
export function parseObject(text: string): Record<string, unknown> {
  let value: unknown;
  try {
    value = JSON.parse(text === '' ? 'null' : text);
  } catch {
    throw new ApiError('invalid_request', 'request body is not valid JSON');
  }
  if (value === null || typeof value !== 'object' || Array.isArray(value)) {
    throw new ApiError('invalid_request', 'request body must be a JSON object');
  }
  return value as Record<string, unknown>;
}

/** A string of min..max characters (code points, not bytes). */
export function str(body: Record<string, unknown>, field: string, min: number, max: number): string {
  const v = body[field];
  if (typeof v !== 'string') throw new ApiError('invalid_request', `${field} must be a string`, `param: ${field}`);
  const n = [...v].length;
  if (n < min || n > max) {
    throw new ApiError('invalid_request', `${field} must be ${min} to ${max} characters`, `param: ${field}`);
  }
  return v;
}

/** Refuses fields the schema does not list (the interface: "the field list above is the schema"). */
export function onlyFields(body: Record<string, unknown>, allowed: readonly string[]): void {
  for (const k of Object.keys(body)) {
    if (!allowed.includes(k)) throw new ApiError('invalid_request', `unknown field ${k}`, `param: ${k}`);
  }
}

/** RFC 8785-style canonical JSON (keys sorted; mangrove stores no floats). */
export function canonical(value: unknown): string {
  if (value === null || typeof value !== 'object') return JSON.stringify(value);
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`;
  const obj = value as Record<string, unknown>;
  const keys = Object.keys(obj)
    .filter((k) => obj[k] !== undefined)
    .sort();
  return `{${keys.map((k) => `${JSON.stringify(k)}:${canonical(obj[k])}`).join(',')}}`;
}
