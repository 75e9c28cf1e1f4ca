// Envelopes, error answers and the headers every answer carries (the Varnish hop, the API Platform
// documentation Link, the request id).
import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { API, VERSION } from './catalog.ts';

export interface Ctx {
  req: IncomingMessage;
  res: ServerResponse;
  method: string;
  path: string;
  query: URLSearchParams;
  origin: string;
  requestId: string;
  version: string;
  /** Set once authenticated: the access and the tenant. */
  clientId?: string;
  tenant?: string;
  idempotencyKey?: string;
  rateHeaders?: Record<string, string>;
}

export const STATUS: Record<string, number> = {
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

const MESSAGES: Record<string, string> = {
  invalid_request: 'The request is incomplete or unsuitable.',
  unauthorized: 'The call was not signed in.',
  forbidden: 'This access may not perform the action.',
  not_found: 'The entry does not exist.',
  capability_denied: 'The capability is not released for this connection.',
  idempotency_conflict: 'The idempotency key was already used with different content.',
  idempotency_required: 'An idempotency key is mandatory for this call.',
  rate_limited: 'Too many calls in a short time.',
  internal: 'A fault occurred on the service side.',
};

/** Thrown by handlers; the router turns it into the failure envelope. */
export class ApiError extends Error {
  code: string;
  detail?: string;
  hint?: string;
  headers?: Record<string, string>;
  /** API Platform's ConstraintViolationList, shown with YARROW_VIOLATIONS_FIELD. */
  violations?: { propertyPath: string; message: string }[];
  /** Answered again from an earlier identical call (a stored refusal). */
  replayed?: boolean;
  constructor(code: string, detail?: string, hint?: string, headers?: Record<string, string>) {
    super(code);
    this.code = code;
    this.detail = detail;
    this.hint = hint;
    this.headers = headers;
  }
}

export function meta(ctx: Ctx, extra: Record<string, unknown> = {}) {
  return { requestId: ctx.requestId, version: ctx.version, at: new Date().toISOString(), ...extra };
}

export function newCtx(req: IncomingMessage, res: ServerResponse): Ctx {
  const url = new URL(req.url ?? '/', 'http://placeholder');
  const host = req.headers.host ?? '127.0.0.1';
  const path = url.pathname.length > 1 ? url.pathname.replace(/\/+$/, '') : url.pathname;
  return {
    req,
    res,
    method: req.method === 'HEAD' ? 'GET' : (req.method ?? 'GET'),
    path,
    query: url.searchParams,
    origin: `http://${host}`,
    requestId: randomUUID(),
    version: VERSION,
  };
}

let varnishXid = 32770;
/** Headers of every answer: Varnish in front (a pass for everything but the cached documents). */
export function baseHeaders(ctx: Ctx, age = 0): Record<string, string> {
  varnishXid += 2;
  return {
    'x-request-id': ctx.requestId,
    via: '1.1 varnish (Varnish/7.5)',
    'x-varnish': String(varnishXid),
    age: String(age),
    link: `<${ctx.origin}${API}/openapi.json>; rel="http://www.w3.org/ns/hydra/core#apiDocumentation"`,
    ...(ctx.rateHeaders ?? {}),
  };
}

export function sendJson(ctx: Ctx, status: number, body: unknown, headers: Record<string, string> = {}): void {
  const text = JSON.stringify(body);
  ctx.res.writeHead(status, {
    'content-type': 'application/json; charset=utf-8',
    'cache-control': 'no-store, private',
    ...baseHeaders(ctx),
    ...headers,
    'content-length': String(Buffer.byteLength(text)),
  });
  ctx.res.end(text);
}

export function ok(
  ctx: Ctx,
  data: unknown,
  extraMeta: Record<string, unknown> = {},
  headers: Record<string, string> = {},
) {
  sendJson(ctx, 200, { ok: true, data, meta: meta(ctx, extraMeta) }, headers);
}

export function errorBody(ctx: Ctx, e: ApiError, violations = false) {
  const error: Record<string, unknown> = { code: e.code, message: MESSAGES[e.code] ?? 'Error.' };
  if (e.detail) error.detail = e.detail;
  if (violations && e.violations) error.violations = e.violations;
  error.hint = e.hint ?? `Quote the request id ${ctx.requestId} when contacting support.`;
  const extra: Record<string, unknown> = ctx.idempotencyKey ? { idempotencyKey: ctx.idempotencyKey } : {};
  if (e.replayed) extra.replayed = true;
  return { ok: false, error, meta: meta(ctx, extra) };
}

export function fail(ctx: Ctx, e: ApiError, violations = false): void {
  sendJson(ctx, STATUS[e.code] ?? 500, errorBody(ctx, e, violations), e.headers ?? {});
}

const MAX_BODY = 64 * 1024;
/** Reads a JSON object body; anything else is a 400 (never 415 or 413: not interface statuses). */
export async function readJson(ctx: Ctx): Promise<Record<string, unknown>> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const c of ctx.req) {
    size += (c as Buffer).length;
    if (size > MAX_BODY) throw new ApiError('invalid_request', 'The body exceeds 64 KiB.');
    chunks.push(c as Buffer);
  }
  const type = String(ctx.req.headers['content-type'] ?? '');
  if (!/^application\/([a-z.+-]*\+)?json\b/i.test(type)) {
    throw new ApiError(
      'invalid_request',
      'The body must be sent as application/json.',
      'Set Content-Type: application/json.',
    );
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(Buffer.concat(chunks).toString('utf8'));
  } catch {
    throw new ApiError('invalid_request', 'Syntax error: the body is not valid JSON.');
  }
  if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed)) {
    throw new ApiError('invalid_request', 'The body must be a JSON object.');
  }
  return parsed as Record<string, unknown>;
}
