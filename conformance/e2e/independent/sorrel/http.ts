// The envelope and error mapping: a port of Javalin's `app.exception(ApiException::class)` handler and of the
// Jackson mapper the team configures (`@JsonInclude(NON_NULL)`, so an absent value is left out, never `null`).
import type { IncomingMessage, ServerResponse } from 'node:http';
import { instant, type Rec, ulid, VERSION } from './state.ts';

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
  forbidden: 'The access may not perform this action.',
  not_found: 'The entry does not exist.',
  invalid_request: 'The request is incomplete or unsuitable.',
  capability_denied: 'The capability is not released for this connection.',
  idempotency_conflict: 'The idempotency key was used with different content.',
  idempotency_required: 'An Idempotency-Key header is mandatory for this call.',
  rate_limited: 'Too many calls in a short time.',
  internal: 'A fault on the service side.',
};

/** The exception every handler throws; `app.exception` turns it into the failure envelope. */
export class ApiError extends Error {
  code: string;
  detail: string | undefined;
  hint: string | undefined;
  headers: Record<string, string>;
  constructor(code: string, detail?: string, hint?: string, headers: Record<string, string> = {}) {
    super(MESSAGES[code] ?? code);
    this.code = code;
    this.detail = detail;
    this.hint = hint;
    this.headers = headers;
  }
}

/** One call in flight (Javalin's `Context`). */
export interface Ctx {
  req: IncomingMessage;
  res: ServerResponse;
  url: URL;
  requestId: string;
  params: Record<string, string>;
  raw: string;
  headers: Record<string, string>;
  tenant?: string;
  clientId?: string;
  idempotencyKey?: string;
}

export function meta(ctx: Ctx, extra: Rec = {}): Rec {
  return { requestId: ctx.requestId, version: VERSION, at: instant(), ...extra };
}

export function send(ctx: Ctx, status: number, body: Rec, type = 'application/json; charset=utf-8'): void {
  const text = JSON.stringify(body);
  ctx.res.writeHead(status, { ...ctx.headers, 'content-type': type, 'x-request-id': ctx.requestId });
  ctx.res.end(text);
}

export function ok(ctx: Ctx, data: Rec, extra: Rec = {}): void {
  send(ctx, 200, { ok: true, data, meta: meta(ctx, extra) });
}

export function fail(ctx: Ctx, err: ApiError): void {
  const error: Rec = { code: err.code, message: err.message };
  if (err.detail) error.detail = err.detail;
  if (err.hint) error.hint = err.hint;
  Object.assign(ctx.headers, err.headers);
  send(ctx, STATUS[err.code] ?? 500, { ok: false, error, meta: meta(ctx) });
}

export function newContext(req: IncomingMessage, res: ServerResponse, raw: string): Ctx {
  const url = new URL(req.url ?? '/', `http://${req.headers.host ?? '127.0.0.1'}`);
  return { req, res, url, requestId: `req_${ulid().toLowerCase()}`, params: {}, raw, headers: {} };
}

export function readRaw(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    req.on('error', reject);
  });
}

/**
 * `ctx.bodyAsClass<T>()` with the team's ObjectMapper: anything but a JSON object is refused, and so is a field
 * the data class does not declare (FAIL_ON_UNKNOWN_PROPERTIES left on, the Jackson default).
 */
export function jsonBody(ctx: Ctx, fields: readonly string[]): Rec {
  let body: unknown;
  try {
    body = JSON.parse(ctx.raw);
  } catch {
    throw new ApiError('invalid_request', 'The body is not valid JSON.', 'Send a JSON object.');
  }
  if (typeof body !== 'object' || body === null || Array.isArray(body)) {
    throw new ApiError('invalid_request', 'The body must be a JSON object.');
  }
  const unknown = Object.keys(body).filter((k) => !fields.includes(k));
  if (unknown.length > 0) throw new ApiError('invalid_request', `Unrecognized field "${unknown[0]}".`);
  return body as Rec;
}

/** A required (or optional) string field with its length limits, as the team's Valiktor constraints. */
export function text(body: Rec, name: string, min: number, max: number, optional = false): string | undefined {
  const v = body[name];
  if (v === undefined && optional) return undefined;
  if (v === undefined || v === null) throw new ApiError('invalid_request', `Field "${name}" is required.`);
  if (typeof v !== 'string') throw new ApiError('invalid_request', `Field "${name}" must be a string.`);
  if (v.length < min || v.length > max) {
    throw new ApiError('invalid_request', `Field "${name}" must be ${min} to ${max} characters long.`);
  }
  return v;
}

export function environment(v: unknown, name = 'environment'): string {
  const envs = ['development', 'sandbox', 'pilot', 'production'];
  if (typeof v !== 'string' || !envs.includes(v)) {
    throw new ApiError('invalid_request', `Field "${name}" must be one of ${envs.join(', ')}.`);
  }
  return v;
}
