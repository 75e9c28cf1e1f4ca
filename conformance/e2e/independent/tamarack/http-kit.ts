// The "Play filters" of tamarack: request context, envelopes, JSON body reading and the error type every
// action throws. Kept free of business logic so every handler answers in one envelope shape.
import { randomBytes } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';

export const BASE = '/api/public/v1';
export const CURRENT_VERSION = '2026-07-01';
/** Published versions, oldest first (a date pin resolves to the newest one on or before it). */
export const PUBLISHED_VERSIONS = ['2026-06-12', '2026-07-01'] as const;
/** Play's default body limit is 100 KiB; the largest legal body is a few KiB. Above it: 400, never 413. */
export const MAX_BODY_BYTES = 64 * 1024;

const STATUS_OF: Record<string, number> = {
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

const MESSAGE_OF: Record<string, string> = {
  unauthorized: 'The call was not signed in.',
  forbidden: 'This access may not perform the action.',
  not_found: 'The entry does not exist.',
  invalid_request: 'The request is incomplete or unsuitable.',
  capability_denied: 'The capability is not released for this connection.',
  idempotency_conflict: 'This idempotency key was already used with different content.',
  idempotency_required: 'An idempotency key is mandatory for this call.',
  rate_limited: 'Too many calls in a short time.',
  internal: 'A fault occurred on the service side.',
};

const HINT_OF: Record<string, string> = {
  unauthorized: 'Request a new access token and check the environment.',
  forbidden: 'Check the permissions of the access and the x-service-tenant header.',
  not_found: 'Compare the identifier and the tenant header.',
  invalid_request: 'Check the request against /api/public/v1/openapi.json.',
  capability_denied: 'Have the capability released for this connector and environment.',
  idempotency_conflict: 'Use a new key for each new operation.',
  idempotency_required: 'Send an Idempotency-Key header (POST /api/public/v1/idempotency-keys issues one).',
  rate_limited: 'Wait for Retry-After seconds, then retry with growing intervals.',
  internal: 'Note the requestId and inform support.',
};

/** The one error type of the service: a code of the Errors table and a detail that quotes no request value. */
export class ApiError extends Error {
  code: string;
  detail: string | undefined;
  /** A refusal answered again from the idempotency store. */
  replayed = false;
  constructor(code: string, detail?: string) {
    super(MESSAGE_OF[code] ?? 'Error.');
    this.code = code;
    this.detail = detail;
  }
}

export interface Ctx {
  req: IncomingMessage;
  res: ServerResponse;
  method: string;
  path: string;
  query: URLSearchParams;
  requestId: string;
  /** The interface version this call is answered as. */
  version: string;
  /** Response headers gathered on the way (rate limits, Service-Version). */
  headers: Record<string, string>;
  tenant?: string;
  clientId?: string;
  scopes?: string[];
  idempotencyKey?: string;
  remote: string;
}

let counter = 0;
/** HAProxy-style unique id (hex accept time, hex counter, random), sent as X-Unique-ID and meta.requestId. */
export function uniqueId(): string {
  counter = (counter + 1) % 0xffffff;
  return `${Date.now().toString(16).toUpperCase()}-${counter.toString(16).toUpperCase().padStart(6, '0')}-${randomBytes(3).toString('hex').toUpperCase()}`;
}

let lastMicros = 0;
/** java.time.Instant.toString() with microseconds, as a JVM on Linux prints it. */
export function instant(ms?: number): string {
  let micros = ms === undefined ? Math.floor(performance.timeOrigin * 1000 + performance.now() * 1000) : ms * 1000;
  if (ms === undefined) {
    if (micros <= lastMicros) micros = lastMicros + 1;
    lastMicros = micros;
  }
  const base = new Date(Math.floor(micros / 1000)).toISOString().slice(0, 19);
  return `${base}.${String(micros % 1_000_000).padStart(6, '0')}Z`;
}

export function meta(ctx: Ctx, extra?: { replayed?: boolean }): Record<string, unknown> {
  const m: Record<string, unknown> = { requestId: ctx.requestId, version: ctx.version, at: instant() };
  if (ctx.idempotencyKey !== undefined) m.idempotencyKey = ctx.idempotencyKey;
  if (extra?.replayed) m.replayed = true;
  return m;
}

export function sendJson(ctx: Ctx, status: number, body: unknown, extraHeaders?: Record<string, string>): void {
  const text = JSON.stringify(body);
  ctx.res.writeHead(status, {
    ...ctx.headers,
    ...extraHeaders,
    'content-type': 'application/json',
    'content-length': String(Buffer.byteLength(text)),
    'cache-control': 'no-store',
    'x-unique-id': ctx.requestId,
  });
  ctx.res.end(text);
}

export function ok(ctx: Ctx, data: unknown, extra?: { replayed?: boolean }): void {
  sendJson(ctx, 200, { ok: true, data, meta: meta(ctx, extra) });
}

export function fail(ctx: Ctx, err: ApiError, extraHeaders?: Record<string, string>): void {
  const error: Record<string, unknown> = { code: err.code, message: err.message };
  if (err.detail) error.detail = err.detail;
  const hint = HINT_OF[err.code];
  if (hint) error.hint = hint;
  sendJson(
    ctx,
    STATUS_OF[err.code] ?? 500,
    { ok: false, error, meta: meta(ctx, { replayed: err.replayed }) },
    extraHeaders,
  );
}

/** Reads the raw body (capped) as text; the cap answers 400 like any unsuitable request. */
export async function readRaw(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    size += (chunk as Buffer).length;
    if (size > MAX_BODY_BYTES) throw new ApiError('invalid_request', `The body exceeds ${MAX_BODY_BYTES} bytes.`);
    chunks.push(chunk as Buffer);
  }
  return Buffer.concat(chunks).toString('utf8');
}

/** Play's parse.json: a JSON content type (any charset parameter) and a JSON object. */
export async function readJsonObject(ctx: Ctx, optional = false): Promise<Record<string, unknown>> {
  const type = String(ctx.req.headers['content-type'] ?? '')
    .split(';')[0]
    ?.trim()
    .toLowerCase();
  const raw = await readRaw(ctx.req);
  if (optional && raw.trim() === '') return {};
  if (type !== 'application/json' && type !== 'text/json' && !type?.endsWith('+json')) {
    throw new ApiError('invalid_request', 'The body must be JSON (Content-Type: application/json).');
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(raw);
  } catch {
    throw new ApiError('invalid_request', 'The body is not well-formed JSON.');
  }
  if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed)) {
    throw new ApiError('invalid_request', 'The body must be a JSON object.');
  }
  return parsed as Record<string, unknown>;
}

/** Canonical JSON (sorted keys): the fingerprint of "the same content" and the audit leaves. */
export function canonical(value: unknown): string {
  if (value === null || typeof value !== 'object') return JSON.stringify(value) ?? 'null';
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`;
  const obj = value as Record<string, unknown>;
  const keys = Object.keys(obj)
    .filter((k) => obj[k] !== undefined)
    .sort();
  return `{${keys.map((k) => `${JSON.stringify(k)}:${canonical(obj[k])}`).join(',')}}`;
}
