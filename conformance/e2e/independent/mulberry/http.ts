// Request context and the answer writers: every answer carries X-Request-Id (= meta.requestId) and
// Server-Timing; errors use the failure envelope, `hint` only where it helps (400/401/428/429).
import type { IncomingMessage, ServerResponse } from 'node:http';
import { ksuid, now, type State } from './state.ts';

export interface Ctx {
  req: IncomingMessage;
  res: ServerResponse;
  url: URL;
  state: State;
  requestId: string;
  started: bigint;
  version: string;
  /** Origin of the listener that was called (main or alternate). */
  origin: string;
  auth?: { clientId: string; tenant: string; expiresAt: number };
  rate?: { limit: number; remaining: number; retryAfter?: number };
  idempotencyKey?: string;
  replayed?: boolean;
}

const STATUS: Record<string, number> = {
  invalid_request: 400,
  unauthorized: 401,
  forbidden: 403,
  not_found: 404,
  capability_denied: 409,
  idempotency_conflict: 409,
  idempotency_required: 428,
  rate_limited: 429,
  internal: 500,
};

/** A refusal, thrown by handlers and written by the router. */
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

export const invalid = (message: string, detail?: string, hint?: string): ApiError =>
  new ApiError('invalid_request', message, detail, hint ?? 'Check the request against /api/public/v1/openapi.json.');

export function meta(ctx: Ctx): Record<string, unknown> {
  const m: Record<string, unknown> = { requestId: ctx.requestId, version: ctx.version, at: now(ctx.state) };
  if (ctx.idempotencyKey !== undefined) m.idempotencyKey = ctx.idempotencyKey;
  if (ctx.replayed !== undefined) m.replayed = ctx.replayed;
  return m;
}

/** Headers every answer carries, stream included. */
export function baseHeaders(ctx: Ctx): Record<string, string> {
  const ms = Number(process.hrtime.bigint() - ctx.started) / 1e6;
  const h: Record<string, string> = {
    'X-Request-Id': ctx.requestId,
    'Server-Timing': `app;dur=${ms.toFixed(2)}`,
    'Service-Version': ctx.version,
    'Cache-Control': 'no-store',
  };
  if (ctx.rate) {
    h['X-RateLimit-Limit'] = String(ctx.rate.limit);
    h['X-RateLimit-Remaining'] = String(ctx.rate.remaining);
    if (ctx.rate.retryAfter !== undefined) h['Retry-After'] = String(ctx.rate.retryAfter);
  }
  return h;
}

export function sendJson(ctx: Ctx, status: number, body: unknown, extra: Record<string, string> = {}): void {
  const text = JSON.stringify(body);
  ctx.res.writeHead(status, {
    ...baseHeaders(ctx),
    'Content-Type': 'application/json; charset=utf-8',
    'Content-Length': String(Buffer.byteLength(text)),
    ...extra,
  });
  ctx.res.end(text);
}

export function ok(ctx: Ctx, data: unknown): void {
  sendJson(ctx, 200, { ok: true, data, meta: meta(ctx) });
}

export function fail(ctx: Ctx, e: ApiError): void {
  const status = STATUS[e.code] ?? 500;
  const error: Record<string, string> = { code: e.code, message: e.message };
  if (e.detail) error.detail = e.detail;
  if (e.hint && [400, 401, 428, 429].includes(status)) error.hint = e.hint;
  sendJson(ctx, status, { ok: false, error, meta: meta(ctx) });
}

export function newCtx(req: IncomingMessage, res: ServerResponse, state: State, origin: string): Ctx {
  return {
    req,
    res,
    state,
    origin,
    url: new URL(req.url ?? '/', origin),
    requestId: ksuid(),
    started: process.hrtime.bigint(),
    version: state.opts.versionRequired ? '' : '2026-07-01',
  };
}

const MAX_BODY = 64 * 1024;

export async function readText(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const c of req) {
    size += (c as Buffer).length;
    if (size > MAX_BODY) throw invalid('Body too large.', `At most ${MAX_BODY} bytes.`);
    chunks.push(c as Buffer);
  }
  return Buffer.concat(chunks).toString('utf8');
}

/** The body as a JSON object; anything else (form, array, broken JSON) is 400. */
export async function readObject(ctx: Ctx): Promise<Record<string, unknown>> {
  const text = await readText(ctx.req);
  // An empty body is an empty object (redeliver takes none); missing fields are refused later.
  if (text.trim() === '') return {};
  let v: unknown;
  try {
    v = JSON.parse(text);
  } catch {
    throw invalid('Body is not valid JSON.', 'Send a JSON object with Content-Type: application/json.');
  }
  if (!v || typeof v !== 'object' || Array.isArray(v)) throw invalid('Body must be a JSON object.');
  return v as Record<string, unknown>;
}

export function str(
  body: Record<string, unknown>,
  field: string,
  min: number,
  max: number,
  required = true,
): string | undefined {
  const v = body[field];
  if (v === undefined || v === null) {
    if (required) throw invalid(`Field ${field} is required.`, `${field}: missing`);
    return undefined;
  }
  if (typeof v !== 'string') throw invalid(`Field ${field} must be a string.`, `${field}: wrong type`);
  if (v.length < min || v.length > max)
    throw invalid(`Field ${field} must be ${min} to ${max} characters.`, `${field}: length ${v.length}`);
  return v;
}
