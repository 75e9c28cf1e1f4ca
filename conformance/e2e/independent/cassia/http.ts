// The edge of cassia's interceptor chain: request context, the envelopes and the error interceptor's
// mapping from a thrown ex-info (here an ApiError) to the failure envelope.
import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { instant, type Rec, type Store, VERSION } from './state.ts';

export interface Ctx {
  store: Store;
  req: IncomingMessage;
  res: ServerResponse;
  url: URL;
  requestId: string;
  raw: string;
  body: Rec | undefined;
  headers: Record<string, string>;
  tenant?: string;
  clientId?: string;
  idempotencyKey?: string;
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

export const fail = (code: string, message: string, detail?: string, hint?: string): never => {
  throw new ApiError(code, message, detail, hint);
};

export function meta(ctx: Ctx, extra: Rec = {}): Rec {
  return { requestId: ctx.requestId, version: VERSION, at: instant(), ...extra };
}

export function sendJson(ctx: Ctx, status: number, body: unknown, type = 'application/json; charset=utf-8') {
  const text = typeof body === 'string' ? body : JSON.stringify(body);
  ctx.res.writeHead(status, { ...ctx.headers, 'content-type': type, 'cache-control': 'no-store' });
  ctx.res.end(text);
}

export function ok(ctx: Ctx, data: Rec, extra: Rec = {}) {
  sendJson(ctx, 200, { ok: true, data, meta: meta(ctx, extra) });
}

export function errorBody(ctx: Ctx, e: ApiError): { status: number; body: Rec } {
  const error: Rec = { code: e.code, message: e.message };
  if (e.detail) error.detail = e.detail;
  if (e.hint) error.hint = e.hint;
  return { status: STATUS[e.code] ?? 500, body: { ok: false, error, meta: meta(ctx) } };
}

export function sendError(ctx: Ctx, e: unknown) {
  const err = e instanceof ApiError ? e : new ApiError('internal', 'Internal error', undefined, 'Quote meta.requestId');
  const { status, body } = errorBody(ctx, err);
  sendJson(ctx, status, body);
}

export async function readBody(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const c of req) chunks.push(c as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

export function newCtx(store: Store, req: IncomingMessage, res: ServerResponse, raw: string): Ctx {
  const url = new URL(req.url ?? '/', 'http://127.0.0.1');
  const requestId = randomUUID();
  return { store, req, res, url, requestId, raw, body: undefined, headers: { 'x-request-id': requestId } };
}

/** The body-params interceptor: JSON objects only, parsed once. */
export function jsonBody(ctx: Ctx): Rec {
  if (ctx.body) return ctx.body;
  let parsed: unknown;
  try {
    parsed = ctx.raw === '' ? undefined : JSON.parse(ctx.raw);
  } catch {
    fail('invalid_request', 'Malformed JSON body');
  }
  if (!parsed || typeof parsed !== 'object' || Array.isArray(parsed))
    fail('invalid_request', 'Body must be a JSON object');
  ctx.body = parsed as Rec;
  return ctx.body;
}

/** A spec-style string check: type and length bounds, named in the detail. */
export function str(body: Rec, field: string, min: number, max: number, required = true): string | undefined {
  const v = body[field];
  if (v === undefined || v === null) {
    if (required) fail('invalid_request', 'Request incomplete', `${field} is required`);
    return undefined;
  }
  if (typeof v !== 'string' || v.length < min || v.length > max)
    fail('invalid_request', 'Request unsuitable', `${field} must be a string of length ${min} to ${max}`);
  return v as string;
}
