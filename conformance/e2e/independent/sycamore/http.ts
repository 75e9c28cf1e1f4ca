// The envelopes and the request context of sycamore: every JSON answer goes through `ok()` or `fail()`, so meta
// (requestId, version, at, idempotencyKey, replayed) and the X-Request-Id header are set in one place.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { iso, newId } from './util.ts';

export const CURRENT_VERSION = '2026-07-01';
export const KNOWN_VERSIONS = ['2026-07-01', '2026-06-12'];
export const KEY_PATTERN = /^[A-Za-z0-9._:-]{8,128}$/;
const MAX_BODY = 64 * 1024;

export interface Ctx {
  req: IncomingMessage;
  res: ServerResponse;
  url: URL;
  requestId: string;
  version: string;
  /** The Idempotency-Key sent, once it matched the pattern (echoed in meta). */
  key?: string;
  tenant?: string;
  clientId?: string;
  token?: string;
}

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

const MESSAGES: Record<string, string> = {
  unauthorized: 'The call was not signed in.',
  forbidden: 'This access may not perform the action.',
  not_found: 'The entry does not exist.',
  invalid_request: 'The request is incomplete or unsuitable.',
  capability_denied: 'The capability is not released for this connection.',
  idempotency_conflict: 'The idempotency key was already used with different content.',
  idempotency_required: 'An idempotency key is mandatory for this call.',
  rate_limited: 'Too many calls in a short time.',
  internal: 'A fault on the service side.',
};

/** A refusal carried through handlers by `throw`, answered by the router with the failure envelope. */
export class ApiError extends Error {
  code: string;
  detail?: string;
  hint?: string;
  constructor(code: string, detail?: string, hint?: string) {
    super(code);
    this.code = code;
    this.detail = detail;
    this.hint = hint;
  }
}

export function meta(ctx: Ctx, replayed?: boolean): Record<string, unknown> {
  const m: Record<string, unknown> = { requestId: ctx.requestId, version: ctx.version, at: iso() };
  if (ctx.key !== undefined) m.idempotencyKey = ctx.key;
  if (replayed !== undefined) m.replayed = replayed;
  return m;
}

function write(ctx: Ctx, status: number, body: unknown): void {
  const text = JSON.stringify(body);
  ctx.res.statusCode = status;
  ctx.res.setHeader('Content-Type', 'application/json; charset=utf-8');
  ctx.res.setHeader('X-Request-Id', ctx.requestId);
  ctx.res.setHeader('Cache-Control', 'no-store');
  ctx.res.end(text);
}

export function ok(ctx: Ctx, data: unknown, replayed?: boolean): void {
  write(ctx, 200, { ok: true, data, meta: meta(ctx, replayed) });
}

export function fail(ctx: Ctx, err: ApiError, replayed?: boolean): void {
  const error: Record<string, string> = { code: err.code, message: MESSAGES[err.code] ?? 'Error.' };
  if (err.detail) error.detail = err.detail;
  if (err.hint) error.hint = err.hint;
  write(ctx, STATUS[err.code] ?? 500, { ok: false, error, meta: meta(ctx, replayed) });
}

/** Raw JSON answers (token endpoint, OpenAPI document) outside the envelope. */
export function raw(res: ServerResponse, status: number, type: string, text: string): void {
  res.statusCode = status;
  res.setHeader('Content-Type', type);
  res.end(text);
}

export function newCtx(req: IncomingMessage, res: ServerResponse, base: string): Ctx {
  return { req, res, url: new URL(req.url ?? '/', base), requestId: newId('req'), version: CURRENT_VERSION };
}

/** Service-Version is optional; a published value is answered as that version, an unknown one is refused. */
export function applyServiceVersion(ctx: Ctx): void {
  const v = ctx.req.headers['service-version'];
  if (v === undefined) return;
  const value = Array.isArray(v) ? v[0] : v;
  if (value !== undefined && KNOWN_VERSIONS.includes(value.trim())) {
    ctx.version = value.trim();
    return;
  }
  throw new ApiError(
    'invalid_request',
    'The Service-Version header names no published version.',
    `known versions: ${KNOWN_VERSIONS.join(', ')}`,
  );
}

export function readRaw(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (c: Buffer) => {
      size += c.length;
      if (size <= MAX_BODY) chunks.push(c);
    });
    req.on('end', () =>
      size > MAX_BODY
        ? reject(new ApiError('invalid_request', 'The body exceeds 64 KiB.'))
        : resolve(Buffer.concat(chunks).toString('utf8')),
    );
    req.on('error', reject);
  });
}

/** The JSON body of a POST: an object, or 400. */
export async function readJson(ctx: Ctx): Promise<Record<string, unknown>> {
  const text = await readRaw(ctx.req);
  let body: unknown;
  try {
    body = text.trim() === '' ? undefined : JSON.parse(text);
  } catch {
    throw new ApiError('invalid_request', 'The body is not valid JSON.');
  }
  if (body === null || typeof body !== 'object' || Array.isArray(body)) {
    throw new ApiError('invalid_request', 'The body must be a JSON object.');
  }
  return body as Record<string, unknown>;
}

export function header(ctx: Ctx, name: string): string | undefined {
  const v = ctx.req.headers[name];
  return Array.isArray(v) ? v[0] : v;
}
