// Envelope helpers of the experience API: every JSON answer leaves through send()/fail(), so the envelope,
// the correlation id and the version are written once (the MuleSoft "global error handler" habit).
import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { stamp } from './time.ts';

export const CURRENT_VERSION = '2026-07-01';
export const PUBLISHED_VERSIONS = ['2026-07-01', '2026-06-12'];

/** Error codes and their statuses, exactly the contract's Errors table. */
export const ERROR_STATUS: Record<string, number> = {
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

/** A refusal thrown anywhere in a flow and rendered by the router (never carries request values). */
export class ApiError extends Error {
  code: string;
  detail: string | undefined;
  hint: string | undefined;
  headers: Record<string, string>;
  constructor(code: string, message: string, detail?: string, hint?: string, headers?: Record<string, string>) {
    super(message);
    this.code = code;
    this.detail = detail;
    this.hint = hint;
    this.headers = headers ?? {};
  }
}

/** One call as the flows see it. */
export interface Ctx {
  req: IncomingMessage;
  res: ServerResponse;
  method: string;
  path: string;
  query: URLSearchParams;
  correlationId: string;
  version: string;
  baseUrl: string;
  /** Set by the client-id/OAuth policy on authenticated calls. */
  clientId?: string;
  tenant?: string;
  idempotencyKey?: string;
  replayed?: boolean;
}

export function newCorrelationId(): string {
  return randomUUID();
}

export function meta(ctx: Ctx): Record<string, unknown> {
  const m: Record<string, unknown> = {
    requestId: ctx.correlationId,
    version: ctx.version,
    at: stamp(),
  };
  if (ctx.idempotencyKey !== undefined) m.idempotencyKey = ctx.idempotencyKey;
  if (ctx.replayed !== undefined) m.replayed = ctx.replayed;
  return m;
}

function write(ctx: Ctx, status: number, body: unknown, headers: Record<string, string> = {}): void {
  if (ctx.res.headersSent) return;
  const text = JSON.stringify(body);
  ctx.res.writeHead(status, {
    'content-type': 'application/json; charset=utf-8',
    'content-length': String(Buffer.byteLength(text)),
    'x-correlation-id': ctx.correlationId,
    'cache-control': 'no-store',
    ...headers,
  });
  ctx.res.end(text);
}

export function send(ctx: Ctx, data: unknown): void {
  write(ctx, 200, { ok: true, data, meta: meta(ctx) });
}

export function sendRaw(ctx: Ctx, status: number, body: unknown, headers: Record<string, string> = {}): void {
  write(ctx, status, body, headers);
}

export function fail(ctx: Ctx, err: ApiError): void {
  const status = ERROR_STATUS[err.code] ?? 500;
  const error: Record<string, string> = { code: err.code, message: err.message };
  if (err.detail !== undefined) error.detail = err.detail;
  if (err.hint !== undefined) error.hint = err.hint;
  // A refusal is never marked replayed: it is not an earlier operation's answer.
  const m = meta({ ...ctx, replayed: undefined });
  write(ctx, status, { ok: false, error, meta: m }, err.headers);
}

const MAX_BODY = 256 * 1024;

/** Reads the raw body (bounded); JSON parsing is the validator's job. */
export async function readBody(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    const b = chunk as Buffer;
    size += b.length;
    if (size > MAX_BODY)
      throw new ApiError('invalid_request', 'The request body is too large.', 'body: at most 256 KiB');
    chunks.push(b);
  }
  return Buffer.concat(chunks).toString('utf8');
}

export function parseJsonObject(raw: string): Record<string, unknown> {
  let value: unknown;
  try {
    value = JSON.parse(raw === '' ? 'null' : raw);
  } catch {
    throw new ApiError('invalid_request', 'The request body is not valid JSON.', 'body: expected a JSON object');
  }
  if (value === null || typeof value !== 'object' || Array.isArray(value)) {
    throw new ApiError('invalid_request', 'The request body must be a JSON object.', 'body: expected a JSON object');
  }
  return value as Record<string, unknown>;
}

export function header(ctx: Ctx, name: string): string | undefined {
  const v = ctx.req.headers[name.toLowerCase()];
  return Array.isArray(v) ? v[0] : v;
}
