// Envelope and response helpers: what wisp's `json_response` plus the team's own `envelope` module would do.

import { randomBytes } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { iso, type Rec, VERSION } from './state.ts';

export interface Ctx {
  req: IncomingMessage;
  res: ServerResponse;
  url: URL;
  requestId: string;
  version: string;
  raw: string;
  tenant?: string;
  clientId?: string;
  idempotencyKey?: string;
  replayed?: boolean;
  /** Headers every answer to this call carries (the rate-limit counters). */
  headers: Record<string, string>;
}

/** The request id as wisp's `request_id` middleware makes it: 16 random bytes, base16 lowercase. */
export function newRequestId(): string {
  return randomBytes(16).toString('hex');
}

export function meta(ctx: Ctx): Rec {
  const m: Rec = { requestId: ctx.requestId, version: ctx.version ?? VERSION, at: iso() };
  if (ctx.idempotencyKey) m.idempotencyKey = ctx.idempotencyKey;
  if (ctx.replayed !== undefined) m.replayed = ctx.replayed;
  return m;
}

export function send(ctx: Ctx, status: number, body: unknown, headers: Record<string, string> = {}): void {
  if (ctx.res.headersSent) return;
  const text = typeof body === 'string' ? body : JSON.stringify(body);
  ctx.res.writeHead(status, {
    'content-type': typeof body === 'string' ? 'text/plain; charset=utf-8' : 'application/json; charset=utf-8',
    'x-request-id': ctx.requestId,
    ...ctx.headers,
    ...headers,
  });
  ctx.res.end(text);
}

export function ok(ctx: Ctx, data: Rec): Rec {
  const body = { ok: true, data, meta: meta(ctx) };
  send(ctx, 200, body);
  return body;
}

/** A typed failure, thrown from handlers and rendered once by the router (Gleam's `Result(_, ApiError)`). */
export class ApiError extends Error {
  readonly status: number;
  readonly code: string;
  readonly detail: string | undefined;
  readonly headers: Record<string, string>;
  constructor(status: number, code: string, message: string, detail?: string, headers: Record<string, string> = {}) {
    super(message);
    this.status = status;
    this.code = code;
    this.detail = detail;
    this.headers = headers;
  }
}

export const invalid = (detail: string) => new ApiError(400, 'invalid_request', 'Request is invalid', detail);
export const notFound = (what: string) => new ApiError(404, 'not_found', `${what} not found`);

export function fail(ctx: Ctx, e: ApiError): void {
  const error: Rec = { code: e.code, message: e.message };
  if (e.detail) error.detail = e.detail;
  send(ctx, e.status, { ok: false, error, meta: meta(ctx) }, e.headers);
}

export function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    req.on('error', reject);
  });
}

/** The decoded JSON object body, or a 400 (gleam/dynamic decoding fails the same way for any non-object). */
export function jsonBody(ctx: Ctx): Rec {
  let v: unknown;
  try {
    v = JSON.parse(ctx.raw);
  } catch {
    throw invalid('body: expected a JSON object');
  }
  if (typeof v !== 'object' || v === null || Array.isArray(v)) throw invalid('body: expected a JSON object');
  return v as Rec;
}

export function str(body: Rec, field: string, min: number, max: number): string {
  const v = body[field];
  if (typeof v !== 'string') throw invalid(`${field}: expected a string`);
  if (v.length < min || v.length > max) throw invalid(`${field}: length must be ${min} to ${max}`);
  return v;
}
