// The HTTP habits of an OpenResty front: nginx's $request_id (32 hex), lua-cjson's encoding (every `/` written
// as `\/`, an empty Lua table as `{}`), and one error helper in the style of `ngx.exit` with a JSON body.
import { randomBytes } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';

// biome-ignore lint/suspicious/noExplicitAny: JSON records as the folder's other deployments type them.
export type Rec = Record<string, any>;

export const CURRENT_VERSION = '2026-07-01';
export const VERSIONS = ['2026-06-12', '2026-07-01'];
export const PREFIX = '/api/public/v1';

/** What one request carries through the handlers (ngx.ctx in the Lua original). */
export interface Ctx {
  req: IncomingMessage;
  res: ServerResponse;
  url: URL;
  requestId: string;
  version: string;
  headers: Record<string, string>;
  idempotencyKey?: string;
  replayed?: boolean;
}

/** A refusal: thrown by any handler, answered once by the router with the failure envelope. */
export class ApiError extends Error {
  readonly status: number;
  readonly code: string;
  readonly detail: string | undefined;
  constructor(status: number, code: string, message: string, detail?: string) {
    super(message);
    this.status = status;
    this.code = code;
    this.detail = detail;
  }
}

/** nginx's $request_id: 16 random bytes as hex. */
export const requestId = (): string => randomBytes(16).toString('hex');

/** lua-cjson escapes the forward slash by default (encode_escape_forward_slash); the output stays valid JSON. */
export const cjson = (value: unknown): string => JSON.stringify(value).replace(/\//g, '\\/');

/**
 * lua-cjson cannot tell an empty array from an empty object and writes `{}`. The team marks the interface's
 * arrays with cjson.empty_array_mt; lists the interface does not show (the delivery log, the receivers, the
 * audit entries) keep the habit.
 */
export const luaList = (list: Rec[]): Rec[] | Rec => (list.length === 0 ? {} : list);

export function meta(ctx: Ctx): Rec {
  const m: Rec = { requestId: ctx.requestId, version: ctx.version, at: new Date().toISOString() };
  if (ctx.idempotencyKey !== undefined) m.idempotencyKey = ctx.idempotencyKey;
  if (ctx.replayed !== undefined) m.replayed = ctx.replayed;
  return m;
}

export function send(ctx: Ctx, status: number, body: Rec): void {
  const text = cjson(body);
  ctx.res.writeHead(status, {
    ...ctx.headers,
    'content-type': 'application/json; charset=utf-8',
    'content-length': Buffer.byteLength(text),
    'x-request-id': ctx.requestId,
    'service-version': ctx.version,
  });
  ctx.res.end(text);
}

export const ok = (ctx: Ctx, data: Rec): void => send(ctx, 200, { ok: true, data, meta: meta(ctx) });

export function fail(ctx: Ctx, e: ApiError): void {
  const error: Rec = { code: e.code, message: e.message };
  if (e.detail) error.detail = e.detail;
  // No internal details (interface: Errors): the request id is all support needs.
  error.hint = `quote request id ${ctx.requestId} to support`;
  send(ctx, e.status, { ok: false, error, meta: meta(ctx) });
}

/** The raw body (ngx.req.read_body + get_body_data), capped like client_max_body_size 1m. */
export async function rawBody(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const c of req) {
    size += (c as Buffer).length;
    if (size > 1_048_576) throw new ApiError(400, 'invalid_request', 'body too large');
    chunks.push(c as Buffer);
  }
  return Buffer.concat(chunks).toString('utf8');
}

/** cjson.decode under pcall: anything but a JSON object is a 400. */
export function jsonObject(text: string): Rec {
  let v: unknown;
  try {
    v = JSON.parse(text === '' ? 'null' : text);
  } catch {
    throw new ApiError(400, 'invalid_request', 'body is not valid JSON');
  }
  if (v === null || typeof v !== 'object' || Array.isArray(v)) {
    throw new ApiError(400, 'invalid_request', 'body must be a JSON object');
  }
  return v as Rec;
}

/** A string field of 'min' to 'max' characters (the Limits table), or a 400 naming it. */
export function str(body: Rec, field: string, min: number, max: number, required = true): string | undefined {
  const v = body[field];
  if (v === undefined || v === null) {
    if (required) throw new ApiError(400, 'invalid_request', `${field} is required`);
    return undefined;
  }
  if (typeof v !== 'string') throw new ApiError(400, 'invalid_request', `${field} must be a string`);
  if (v.length < min || v.length > max) {
    throw new ApiError(400, 'invalid_request', `${field} must be ${min} to ${max} characters`);
  }
  return v;
}
