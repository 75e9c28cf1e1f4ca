// Request context, envelopes and errors: every answer of catalpa goes through here, so the envelope, the
// JSON content type with its charset and the X-Request-Id header are written in one place.
import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';

export const CURRENT_VERSION = '2026-07-01';
export const VERSIONS = ['2026-07-01', '2026-06-12'];
export const JSON_TYPE = 'application/json;charset=UTF-8';

export interface Ctx {
  req: IncomingMessage;
  res: ServerResponse;
  url: URL;
  origin: string;
  requestId: string;
  version: string;
  clientId?: string;
  tenant?: string;
  idempotencyKey?: string;
  rateHeaders?: Record<string, string>;
}

export const uuid = (): string => randomUUID().toUpperCase();
export const now = (): string => new Date().toISOString();

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

const MESSAGE: Record<string, string> = {
  unauthorized: 'The call was not signed in.',
  forbidden: 'The access may not perform this action.',
  not_found: 'The entry does not exist.',
  invalid_request: 'The request is incomplete or unsuitable.',
  capability_denied: 'The capability is not released for this connection.',
  idempotency_conflict: 'The idempotency key was already used with different content.',
  idempotency_required: 'An idempotency key is mandatory for this call.',
  rate_limited: 'Too many calls in a short time.',
  internal: 'A fault occurred on the service side.',
};

/** A refusal with the contract's code; detail and hint are always present (a house rule of the team). */
export class ApiError extends Error {
  code: string;
  detail: string;
  hint: string;
  headers: Record<string, string>;
  constructor(code: string, detail: string, hint: string, headers: Record<string, string> = {}) {
    super(detail);
    this.code = code;
    this.detail = detail;
    this.hint = hint;
    this.headers = headers;
  }
}

export function meta(ctx: Ctx, extra: Record<string, unknown> = {}): Record<string, unknown> {
  return { requestId: ctx.requestId, version: ctx.version, at: now(), ...extra };
}

export function sendJson(ctx: Ctx, status: number, body: unknown, headers: Record<string, string> = {}): void {
  const text = JSON.stringify(body);
  ctx.res.writeHead(status, {
    'Content-Type': JSON_TYPE,
    'Content-Length': String(Buffer.byteLength(text)),
    'X-Request-Id': ctx.requestId,
    'Cache-Control': 'no-store',
    ...(ctx.rateHeaders ?? {}),
    ...headers,
  });
  ctx.res.end(text);
}

export function ok(ctx: Ctx, data: unknown, extraMeta: Record<string, unknown> = {}): void {
  sendJson(ctx, 200, { ok: true, data, meta: meta(ctx, extraMeta) });
}

export function sendError(ctx: Ctx, err: ApiError): void {
  const status = STATUS[err.code] ?? 500;
  const error = { code: err.code, message: MESSAGE[err.code] ?? 'Error.', detail: err.detail, hint: err.hint };
  sendJson(ctx, status, { ok: false, error, meta: meta(ctx) }, err.headers);
}

const MAX_BODY = 64 * 1024;

/** Reads and parses a JSON object body; anything else is a 400 (never 415: the Errors table has no such code). */
export async function readJson(ctx: Ctx): Promise<Record<string, unknown>> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of ctx.req) {
    size += (chunk as Buffer).length;
    if (size > MAX_BODY) throw new ApiError('invalid_request', 'The body exceeds 64 KiB.', 'Send a smaller body.');
    chunks.push(chunk as Buffer);
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
    throw new ApiError('invalid_request', 'The body is not valid JSON.', 'Send a JSON object.');
  }
  if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed)) {
    throw new ApiError('invalid_request', 'The body must be a JSON object.', 'Send a JSON object.');
  }
  return parsed as Record<string, unknown>;
}

export function header(ctx: Ctx, name: string): string | undefined {
  const v = ctx.req.headers[name.toLowerCase()];
  return Array.isArray(v) ? v[0] : v;
}
