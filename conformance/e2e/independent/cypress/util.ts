// Shared plumbing of cypress: the success and failure envelopes (jbuilder-style, camelCase keys), request ids
// (Rails' ActionDispatch::RequestId: a UUID in X-Request-Id), body reading and the typed HTTP error.
import { createHash, randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';

export const BASE = '/api/public/v1';
export const CURRENT_VERSION = '2026-07-01';
export const PUBLISHED_VERSIONS = ['2026-07-01', '2026-06-12'];
const MAX_BODY_BYTES = 1024 * 1024;

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

/** An answer refused by a rescue_from in ApplicationController: the code decides the status. */
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

/** One call: what the handlers need to answer it. */
export interface Ctx {
  req: IncomingMessage;
  res: ServerResponse;
  requestId: string;
  version: string;
  method: string;
  path: string;
  query: URLSearchParams;
  origin: string;
  /** Headers set before the answer (rate-limit headers of Rack::Attack). */
  extraHeaders: Record<string, string>;
  /** The clock of the deployment, in its time zone (Rails config.time_zone). */
  iso: (ms?: number) => string;
  idempotencyKey?: string | undefined;
  replayed?: boolean;
}

export function newContext(req: IncomingMessage, res: ServerResponse): Ctx {
  const url = new URL(req.url ?? '/', 'http://placeholder');
  const asked = header(req, 'service-version');
  // An unknown Service-Version is answered as the current version (Rails would not refuse an unknown header).
  const version = asked && PUBLISHED_VERSIONS.includes(asked) ? asked : CURRENT_VERSION;
  const host = header(req, 'host') ?? '127.0.0.1';
  return {
    req,
    res,
    requestId: randomUUID(),
    version,
    method: req.method ?? 'GET',
    path: url.pathname,
    query: url.searchParams,
    origin: `http://${host}`,
    extraHeaders: {},
    iso: nowIso,
  };
}

export function header(req: IncomingMessage, name: string): string | undefined {
  const v = req.headers[name];
  return Array.isArray(v) ? v[0] : v;
}

export function nowIso(ms = Date.now()): string {
  return new Date(ms).toISOString();
}

/** ActiveSupport::TimeWithZone#as_json in a zone of fixed offset ("+01:00"): local time, milliseconds, offset. */
export function zonedIso(offset: string): (ms?: number) => string {
  const m = /^([+-])(\d{2}):(\d{2})$/.exec(offset);
  if (!m || offset === '+00:00') return nowIso;
  const minutes = (m[1] === '-' ? -1 : 1) * (Number(m[2]) * 60 + Number(m[3]));
  return (ms = Date.now()) => new Date(ms + minutes * 60_000).toISOString().replace('Z', offset);
}

function meta(ctx: Ctx): Record<string, unknown> {
  const m: Record<string, unknown> = { requestId: ctx.requestId, version: ctx.version, at: ctx.iso() };
  if (ctx.idempotencyKey !== undefined) m.idempotencyKey = ctx.idempotencyKey;
  if (ctx.replayed) m.replayed = true;
  return m;
}

/** ActiveSupport's JSON encoding: <, >, & and U+2028/2029 escaped as \uXXXX (escape_html_entities_in_json). */
export function jsonText(value: unknown): string {
  const escapes: Record<string, string> = {
    '<': '\\u003c',
    '>': '\\u003e',
    '&': '\\u0026',
    '\u2028': '\\u2028',
    '\u2029': '\\u2029',
  };
  return JSON.stringify(value).replace(/[<>&\u2028\u2029]/g, (c) => escapes[c] ?? c);
}

function writeJson(ctx: Ctx, status: number, body: unknown, extra: Record<string, string> = {}): void {
  const text = jsonText(body);
  ctx.res.writeHead(status, {
    'content-type': 'application/json; charset=utf-8',
    'content-length': String(Buffer.byteLength(text)),
    'x-request-id': ctx.requestId,
    'service-version': ctx.version,
    'cache-control': 'no-store',
    ...ctx.extraHeaders,
    ...extra,
  });
  ctx.res.end(text);
}

export function ok(ctx: Ctx, data: unknown, extra: Record<string, string> = {}): void {
  writeJson(ctx, 200, { ok: true, data, meta: meta(ctx) }, extra);
}

export function fail(ctx: Ctx, err: ApiError, extra: Record<string, string> = {}): void {
  const error: Record<string, string> = { code: err.code, message: err.message };
  if (err.detail) error.detail = err.detail;
  if (err.hint) error.hint = err.hint;
  writeJson(ctx, STATUS_OF[err.code] ?? 500, { ok: false, error, meta: meta(ctx) }, extra);
}

export function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (c: Buffer) => {
      size += c.length;
      if (size > MAX_BODY_BYTES)
        reject(new ApiError('invalid_request', 'Request body is too large (maximum is 1 MiB)'));
      else chunks.push(c);
    });
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    req.on('error', reject);
  });
}

/** Rails' JSON params parser, strict: only a JSON object under a JSON content type is a body. */
export function parseJsonObject(req: IncomingMessage, raw: string, forms = false): Record<string, unknown> {
  const type = (header(req, 'content-type') ?? '').split(';')[0]?.trim().toLowerCase() ?? '';
  if (forms && type === 'application/x-www-form-urlencoded') return parseForm(raw);
  if (type !== 'application/json' && !type.endsWith('+json')) {
    throw new ApiError('invalid_request', 'Request body must be JSON', 'Content-Type must be application/json');
  }
  if (raw.trim() === '') throw new ApiError('invalid_request', 'Request body is missing');
  let parsed: unknown;
  try {
    parsed = JSON.parse(raw);
  } catch {
    throw new ApiError('invalid_request', 'Request body is not valid JSON');
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) {
    throw new ApiError('invalid_request', 'Request body must be a JSON object');
  }
  return parsed as Record<string, unknown>;
}

/** Rack's nested query parsing, flat: name=v is a text, name[]=v an item of a list. */
function parseForm(raw: string): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [k, v] of new URLSearchParams(raw)) {
    if (k.endsWith('[]')) {
      const name = k.slice(0, -2);
      const list = Array.isArray(out[name]) ? (out[name] as unknown[]) : [];
      list.push(v);
      out[name] = list;
    } else out[k] = v;
  }
  return out;
}

/** Sorted-key JSON: the fingerprint of a body and the text the audit chain hashes. */
export function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`;
  if (value && typeof value === 'object') {
    const o = value as Record<string, unknown>;
    const keys = Object.keys(o)
      .filter((k) => o[k] !== undefined)
      .sort();
    return `{${keys.map((k) => `${JSON.stringify(k)}:${canonical(o[k])}`).join(',')}}`;
  }
  return JSON.stringify(value);
}

export function sha256(text: string): string {
  return createHash('sha256').update(text).digest('hex');
}

/** Length in characters (code points), as the contract's limits count them, not bytes. */
export function chars(s: string): number {
  return Array.from(s).length;
}
