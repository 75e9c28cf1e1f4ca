// Response helpers in the shape a Rocket team's `ApiResponse<T>` responder and `ApiError` catcher produce:
// every JSON answer is an envelope, every error carries only the request id (no internals, no tokens).
import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';

// biome-ignore lint/suspicious/noExplicitAny: JSON payloads are free-form here, as serde_json::Value is.
export type Rec = Record<string, any>;

export const VERSION = '2026-07-01';
export const VERSIONS = ['2026-06-12', '2026-07-01'] as const;

/** What one call carries through the handlers (Rocket's request-local state). */
export interface Ctx {
  req: IncomingMessage;
  res: ServerResponse;
  url: URL;
  requestId: string;
  version: string;
  headers: Record<string, string>;
}

export function newCtx(req: IncomingMessage, res: ServerResponse, base: string): Ctx {
  return { req, res, url: new URL(req.url ?? '/', base), requestId: randomUUID(), version: VERSION, headers: {} };
}

/** chrono's `to_rfc3339_opts(SecondsFormat::Millis, true)`: milliseconds and a `Z`. */
export const now = () => new Date().toISOString();

export function meta(ctx: Ctx, extra: Rec = {}): Rec {
  return { requestId: ctx.requestId, version: ctx.version, at: now(), ...extra };
}

export function send(ctx: Ctx, status: number, body: unknown, type = 'application/json; charset=utf-8'): void {
  const text = typeof body === 'string' ? body : JSON.stringify(body);
  ctx.res.writeHead(status, { 'content-type': type, 'x-request-id': ctx.requestId, ...ctx.headers });
  ctx.res.end(text);
}

export function ok(ctx: Ctx, data: Rec, extra: Rec = {}): void {
  send(ctx, 200, { ok: true, data, meta: meta(ctx, extra) });
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

/** The error a handler throws; the router's catcher turns it into the failure envelope. */
export class ApiError extends Error {
  readonly code: string;
  readonly detail: string | undefined;
  constructor(code: string, message: string, detail?: string) {
    super(message);
    this.code = code;
    this.detail = detail;
  }
  get status(): number {
    return STATUS[this.code] ?? 500;
  }
}

export function fail(ctx: Ctx, err: ApiError): void {
  const error: Rec = { code: err.code, message: err.message };
  if (err.detail) error.detail = err.detail;
  send(ctx, err.status, { ok: false, error, meta: meta(ctx) });
}

/** Reads the raw body (Rocket's data limit for JSON is 1 MiB). */
export async function readRaw(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const c of req) {
    size += (c as Buffer).length;
    if (size > 1 << 20) throw new ApiError('invalid_request', 'Body too large', 'limit is 1 MiB');
    chunks.push(c as Buffer);
  }
  return Buffer.concat(chunks).toString('utf8');
}

/** `Json<T>` guard: a JSON object or a 400 (Rocket answers 422 by default; the team maps it to the contract's 400). */
export async function readJson(ctx: Ctx): Promise<Rec> {
  const raw = await readRaw(ctx.req);
  let body: unknown;
  try {
    body = JSON.parse(raw);
  } catch {
    throw new ApiError('invalid_request', 'Body is not valid JSON');
  }
  if (typeof body !== 'object' || body === null || Array.isArray(body)) {
    throw new ApiError('invalid_request', 'Body must be a JSON object');
  }
  return body as Rec;
}

/** serde field validation (`#[validate(length(min, max))]`). */
export function str(body: Rec, field: string, min: number, max: number, required = true): string | undefined {
  const v = body[field];
  if (v === undefined && !required) return undefined;
  if (typeof v !== 'string') throw new ApiError('invalid_request', `Field ${field} must be a string`);
  if (v.length < min || v.length > max) {
    throw new ApiError('invalid_request', `Field ${field} must be ${min} to ${max} characters long`);
  }
  return v;
}

/** `#[serde(deny_unknown_fields)]`: a field the struct does not declare is refused, not ignored. */
export function denyUnknown(body: Rec, allowed: readonly string[]): void {
  const extra = Object.keys(body).filter((k) => !allowed.includes(k));
  if (extra.length) throw new ApiError('invalid_request', `Unknown field ${extra[0]}`, `expected one of ${allowed}`);
}
