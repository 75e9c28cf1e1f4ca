// Shared HTTP plumbing of wisteria: envelopes, errors, JSON bodies, canonical JSON, ids.
// A Spring team would get this from the framework (ResponseEntity, @ControllerAdvice); here it is by hand.
import { randomBytes, randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';

export const CURRENT_VERSION = '2026-07-01';
export const PUBLISHED_VERSIONS = ['2026-06-12', '2026-07-01'];

/** Status of every error code of the contract's Errors table. */
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

/** One call in flight: what every handler needs to answer it. */
export interface Call {
  req: IncomingMessage;
  res: ServerResponse;
  method: string;
  path: string;
  query: URLSearchParams;
  origin: string;
  requestId: string;
  version: string;
  headers: Record<string, string>;
  idempotencyKey?: string | undefined;
  replayed?: boolean;
}

export class ApiError extends Error {
  code: string;
  detail: string | undefined;
  hint: string | undefined;
  extraHeaders: Record<string, string>;
  constructor(code: string, message: string, detail?: string, hint?: string) {
    super(message);
    this.code = code;
    this.detail = detail;
    this.hint = hint;
    this.extraHeaders = {};
  }
}

/**
 * How times are written: UTC with milliseconds (default), or as Jackson writes an OffsetDateTime of a server in
 * another zone: a fixed offset and microseconds. Module-wide (set at start), as a JVM's default zone is.
 */
let offsetMinutes: number | undefined;
export function setTimeOffset(minutes: number | undefined): void {
  offsetMinutes = minutes;
}

export function nowIso(ms = Date.now()): string {
  if (offsetMinutes === undefined) return new Date(ms).toISOString();
  const local = new Date(ms + offsetMinutes * 60_000).toISOString().slice(0, -1);
  const sign = offsetMinutes < 0 ? '-' : '+';
  const abs = Math.abs(offsetMinutes);
  const hh = String(Math.floor(abs / 60)).padStart(2, '0');
  const mm = String(abs % 60).padStart(2, '0');
  return `${local}000${sign}${hh}:${mm}`;
}

/** Prefixed random ids (`con_…`), the way the team's JPA entities get theirs from a generator. */
export function newId(prefix: string): string {
  return `${prefix}_${randomBytes(10).toString('hex')}`;
}

export function newRequestId(): string {
  return randomUUID();
}

/** RFC 8785-style canonical JSON (sorted keys, no spaces): what entry hashes and signatures are taken over. */
export function canonical(value: unknown): string {
  if (value === null || typeof value !== 'object') return JSON.stringify(value);
  if (Array.isArray(value)) return `[${value.map((v) => canonical(v)).join(',')}]`;
  const obj = value as Record<string, unknown>;
  const keys = Object.keys(obj)
    .filter((k) => obj[k] !== undefined)
    .sort();
  return `{${keys.map((k) => `${JSON.stringify(k)}:${canonical(obj[k])}`).join(',')}}`;
}

function meta(call: Call): Record<string, unknown> {
  const m: Record<string, unknown> = { requestId: call.requestId, version: call.version, at: nowIso() };
  if (call.idempotencyKey !== undefined) m.idempotencyKey = call.idempotencyKey;
  if (call.replayed !== undefined) m.replayed = call.replayed;
  return m;
}

function write(call: Call, status: number, body: unknown): void {
  const text = JSON.stringify(body);
  call.res.statusCode = status;
  call.res.setHeader('Content-Type', 'application/json; charset=utf-8');
  call.res.setHeader('X-Request-Id', call.requestId);
  call.res.setHeader('Cache-Control', 'no-store');
  call.res.end(text);
}

export function sendOk(call: Call, data: unknown): void {
  write(call, 200, { ok: true, data, meta: meta(call) });
}

export function sendError(call: Call, err: ApiError): void {
  for (const [k, v] of Object.entries(err.extraHeaders)) call.res.setHeader(k, v);
  const error: Record<string, unknown> = { code: err.code, message: err.message };
  if (err.detail !== undefined) error.detail = err.detail;
  if (err.hint !== undefined) error.hint = err.hint;
  write(call, ERROR_STATUS[err.code] ?? 500, { ok: false, error, meta: meta(call) });
}

/** Sends a raw JSON body (token endpoint, JWK set, OpenAPI): these are not envelopes. */
export function sendRaw(res: ServerResponse, status: number, body: unknown, type = 'application/json'): void {
  res.statusCode = status;
  res.setHeader('Content-Type', `${type}; charset=utf-8`);
  res.setHeader('Cache-Control', 'no-store');
  res.end(JSON.stringify(body));
}

const MAX_BODY = 64 * 1024;

export async function readText(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    size += (chunk as Buffer).length;
    if (size > MAX_BODY) throw new ApiError('invalid_request', 'Request body too large.');
    chunks.push(chunk as Buffer);
  }
  return Buffer.concat(chunks).toString('utf8');
}

/** A JSON object body; anything else (empty, a form, malformed JSON, an array) is 400 invalid_request. */
export function parseJsonObject(call: Call, text: string): Record<string, unknown> {
  const type = (call.headers['content-type'] ?? '').toLowerCase();
  if (!type.startsWith('application/json') && !/^application\/[a-z.+-]*\+json/.test(type)) {
    throw new ApiError('invalid_request', 'Request body must be JSON.', 'Content-Type must be application/json.');
  }
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    throw new ApiError('invalid_request', 'Request body is not valid JSON.');
  }
  if (body === null || typeof body !== 'object' || Array.isArray(body)) {
    throw new ApiError('invalid_request', 'Request body must be a JSON object.');
  }
  return body as Record<string, unknown>;
}

/** Length in characters (code points), not bytes or UTF-16 units. */
export function charLength(s: string): number {
  return Array.from(s).length;
}

export function requireString(body: Record<string, unknown>, field: string, min: number, max: number): string {
  const v = body[field];
  if (v === undefined || v === null) throw new ApiError('invalid_request', `Field ${field} is required.`);
  if (typeof v !== 'string') throw new ApiError('invalid_request', `Field ${field} must be a string.`);
  const n = charLength(v);
  if (n < min || n > max) {
    throw new ApiError('invalid_request', `Field ${field} must be ${min} to ${max} characters long.`);
  }
  return v;
}

export function rejectUnknownFields(body: Record<string, unknown>, allowed: readonly string[]): void {
  const extra = Object.keys(body).filter((k) => !allowed.includes(k));
  if (extra.length > 0) {
    throw new ApiError('invalid_request', 'Request body has unknown fields.', `Unknown fields: ${extra.join(', ')}.`);
  }
}
