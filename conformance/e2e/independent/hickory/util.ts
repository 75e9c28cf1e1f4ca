// Shared plumbing of hickory: ids, canonical JSON, the envelopes and the error type the handlers throw.
import { createHash, randomBytes } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';

export const CURRENT_VERSION = '2026-07-01';
export const VERSIONS = ['2026-07-01', '2026-06-12'];
export const KEY_PATTERN = /^[A-Za-z0-9._:-]{8,128}$/;

const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_-';

/** A nanoid: 21 characters of the URL-safe alphabet (64 symbols, so a byte masked to 6 bits is unbiased). */
export function nanoid(): string {
  const bytes = randomBytes(21);
  let id = '';
  for (const b of bytes) id += ALPHABET[b & 63];
  return id;
}

/** A stable nanoid-shaped id for catalog entries, so the catalog reads the same after every restart. */
export function stableId(seed: string): string {
  const digest = createHash('sha256').update(seed).digest();
  let id = '';
  for (let i = 0; i < 21; i++) id += ALPHABET[(digest[i] ?? 0) & 63];
  return id;
}

/** JSON with object keys sorted at every level: the form fingerprints and audit signatures are computed over. */
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

/** What a handler throws to refuse a call; the server turns it into the failure envelope. */
export class ApiError extends Error {
  code: string;
  status: number;
  detail?: string;
  hint?: string;
  constructor(code: string, message: string, extra: { detail?: string; hint?: string } = {}) {
    super(message);
    this.code = code;
    this.status = STATUS[code] ?? 500;
    this.detail = extra.detail;
    this.hint = extra.hint;
  }
}

/** A date-time in RFC 3339 with the given UTC offset in minutes (0: the `Z` form). */
export function stamp(offsetMin: number, ms = Date.now()): string {
  if (offsetMin === 0) return new Date(ms).toISOString();
  const local = new Date(ms + offsetMin * 60_000).toISOString().slice(0, -1);
  const abs = Math.abs(offsetMin);
  const hh = String(Math.floor(abs / 60)).padStart(2, '0');
  const mm = String(abs % 60).padStart(2, '0');
  return `${local}${offsetMin < 0 ? '-' : '+'}${hh}:${mm}`;
}

/** One call in flight: what every layer (auth, rate limit, idempotency, handler) reads and adds to. */
export interface Ctx {
  req: IncomingMessage;
  res: ServerResponse;
  url: URL;
  method: string;
  requestId: string;
  version: string;
  /** The origin the call came in on (main or alternate base address). */
  origin: string;
  params: Record<string, string>;
  body: unknown;
  clientId?: string;
  tenant?: string;
  idempotencyKey?: string;
  replayed?: boolean;
  headers: Record<string, string>;
  /** UTC offset of the date-times written (minutes). */
  offsetMin: number;
}

export interface Result {
  status: number;
  data: unknown;
}

export function meta(ctx: Ctx): Record<string, unknown> {
  const m: Record<string, unknown> = { requestId: ctx.requestId, version: ctx.version, at: stamp(ctx.offsetMin) };
  if (ctx.idempotencyKey !== undefined) m.idempotencyKey = ctx.idempotencyKey;
  if (ctx.replayed) m.replayed = true;
  return m;
}

export function sendJson(ctx: Ctx, status: number, body: unknown): void {
  const text = JSON.stringify(body);
  ctx.res.writeHead(status, {
    ...ctx.headers,
    'content-type': 'application/json; charset=utf-8',
    'content-length': Buffer.byteLength(text),
    'x-request-id': ctx.requestId,
    'cache-control': 'no-store',
  });
  ctx.res.end(text);
}

export function sendOk(ctx: Ctx, result: Result): void {
  sendJson(ctx, result.status, { ok: true, data: result.data, meta: meta(ctx) });
}

export function sendError(ctx: Ctx, err: ApiError): void {
  const error: Record<string, string> = { code: err.code, message: err.message };
  if (err.detail) error.detail = err.detail;
  if (err.hint) error.hint = err.hint;
  sendJson(ctx, err.status, { ok: false, error, meta: meta(ctx) });
}

/** Reads the raw body (capped at 1 MiB: no body of the interface comes near it). */
export async function readRaw(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    size += (chunk as Buffer).length;
    if (size > 1_048_576) throw new ApiError('invalid_request', 'The request body is too large.');
    chunks.push(chunk as Buffer);
  }
  return Buffer.concat(chunks).toString('utf8');
}

/** The body of a POST as a JSON object, or a 400 naming what is wrong with it. */
export async function readJsonBody(req: IncomingMessage): Promise<Record<string, unknown>> {
  const raw = await readRaw(req);
  const type = String(req.headers['content-type'] ?? '').toLowerCase();
  if (raw.trim() === '') throw new ApiError('invalid_request', 'A JSON body is required.');
  if (type && !type.includes('json')) {
    throw new ApiError('invalid_request', 'The body must be JSON.', { hint: 'Send content-type: application/json.' });
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(raw);
  } catch {
    throw new ApiError('invalid_request', 'The body is not valid JSON.');
  }
  if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed)) {
    throw new ApiError('invalid_request', 'The body must be a JSON object.');
  }
  return parsed as Record<string, unknown>;
}
