// The envelope layer: what a Ballerina interceptor does around every resource function. Successes are the
// resource's record wrapped as {ok, data, meta}; `http:Caller` errors become the failure envelope.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { civilNow, type Rec, type Store, uuid, VERSION, VERSIONS } from './state.ts';

export interface Ctx {
  req: IncomingMessage;
  res: ServerResponse;
  store: Store;
  url: URL;
  method: string;
  requestId: string;
  /** The version answered: the Service-Version asked for, else the current one. */
  version: string;
  raw: string;
  tenant?: string;
  clientId?: string;
  /** Rate-limit headers to add to every answer of a counted call. */
  limitHeaders: Record<string, string>;
  idempotencyKey?: string;
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

/** A Ballerina `error` carrying the interface's code, raised by resource functions and mapped once. */
export class ApiError extends Error {
  readonly code: string;
  readonly hint: string | undefined;
  readonly headers: Record<string, string>;
  constructor(code: string, message: string, hint?: string, headers: Record<string, string> = {}) {
    super(message);
    this.code = code;
    this.hint = hint;
    this.headers = headers;
  }
}

export function meta(ctx: Ctx, extra: Rec = {}): Rec {
  return { requestId: ctx.requestId, version: ctx.version, at: civilNow(), ...extra };
}

export function sendJson(ctx: Ctx, status: number, body: Rec, headers: Record<string, string> = {}): void {
  const text = JSON.stringify(body);
  ctx.res.writeHead(status, {
    'content-type': 'application/json',
    'content-length': Buffer.byteLength(text),
    // Choreo's gateway names each call by its activity id; the envelope quotes the same value.
    activityid: ctx.requestId,
    'service-version': ctx.version,
    ...ctx.limitHeaders,
    ...headers,
  });
  ctx.res.end(text);
}

export function ok(ctx: Ctx, data: Rec, extraMeta: Rec = {}): Rec {
  const body = { ok: true, data, meta: meta(ctx, extraMeta) };
  sendJson(ctx, 200, body);
  return body;
}

export function fail(ctx: Ctx, err: ApiError): void {
  const error: Rec = { code: err.code, message: err.message };
  if (err.hint) error.hint = err.hint;
  const status = STATUS[err.code] ?? 500;
  sendJson(ctx, status, { ok: false, error, meta: meta(ctx) }, err.headers);
}

export async function readRaw(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const c of req) chunks.push(c as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

/** `check req.getJsonPayload()`: a body that is not a JSON object is a 400. */
export function jsonBody(ctx: Ctx): Rec {
  let parsed: unknown;
  try {
    parsed = JSON.parse(ctx.raw);
  } catch {
    throw new ApiError('invalid_request', 'The request body is not valid JSON.', 'Send a JSON object.');
  }
  if (!parsed || typeof parsed !== 'object' || Array.isArray(parsed)) {
    throw new ApiError('invalid_request', 'The request body must be a JSON object.');
  }
  return parsed as Rec;
}

/** A string field with Ballerina's `@constraint:String {minLength, maxLength}`. */
export function str(body: Rec, field: string, min: number, max: number, required = true): string | undefined {
  const v = body[field];
  if (v === undefined || v === null) {
    if (required) throw new ApiError('invalid_request', `Field '${field}' is required.`);
    return undefined;
  }
  if (typeof v !== 'string') throw new ApiError('invalid_request', `Field '${field}' must be a string.`);
  if (v.length < min || v.length > max) {
    throw new ApiError('invalid_request', `Field '${field}' must be ${min} to ${max} characters long.`);
  }
  return v;
}

export function newCtx(req: IncomingMessage, res: ServerResponse, store: Store, raw: string): Ctx {
  const url = new URL(req.url ?? '/', 'http://127.0.0.1');
  const asked = req.headers['service-version'];
  const version = typeof asked === 'string' && (VERSIONS as readonly string[]).includes(asked) ? asked : VERSION;
  return { req, res, store, url, method: req.method ?? 'GET', requestId: uuid(), version, raw, limitHeaders: {} };
}
