// Response helpers in the shape of a Mojolicious controller's `render(json => ...)`: Mojo::JSON escapes
// every '/' in strings as '\/' and writes non-ASCII as raw UTF-8, and the envelope is the contract's.
import { randomBytes } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Rec } from './state.ts';

export interface Ctx {
  req: IncomingMessage;
  res: ServerResponse;
  method: string;
  path: string;
  query: URLSearchParams;
  /** Mojo's request id: eight hex characters, also sent as X-Request-Id. */
  requestId: string;
  version: string;
  rawBody: string;
  tenant?: string;
  clientId?: string;
  params: Record<string, string>;
}

export function requestId(): string {
  return randomBytes(4).toString('hex');
}

/** Mojo::JSON's encoding: JSON text with '/' escaped inside strings (the only place a '/' can occur). */
export function mojoJson(value: unknown): string {
  return JSON.stringify(value).replaceAll('/', '\\/');
}

export function meta(ctx: Ctx, extra: Rec = {}): Rec {
  return { requestId: ctx.requestId, version: ctx.version, at: new Date().toISOString(), ...extra };
}

export function send(ctx: Ctx, status: number, body: Rec, headers: Record<string, string> = {}): void {
  if (ctx.res.headersSent) return;
  const text = mojoJson(body);
  ctx.res.writeHead(status, {
    'content-type': 'application/json;charset=UTF-8',
    'content-length': String(Buffer.byteLength(text)),
    'x-request-id': ctx.requestId,
    ...headers,
  });
  ctx.res.end(text);
}

export function ok(ctx: Ctx, data: Rec, extraMeta: Rec = {}): Rec {
  const body = { ok: true, data, meta: meta(ctx, extraMeta) };
  send(ctx, 200, body);
  return body;
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

/** Thrown by handlers and rendered once by the dispatcher, like Mojo's `reply->exception` hook. */
export class ApiError extends Error {
  readonly code: string;
  readonly detail: string | undefined;
  readonly headers: Record<string, string>;
  constructor(code: string, message: string, detail?: string, headers: Record<string, string> = {}) {
    super(message);
    this.code = code;
    this.detail = detail;
    this.headers = headers;
  }
}

export function fail(ctx: Ctx, err: ApiError): void {
  const error: Rec = { code: err.code, message: err.message };
  if (err.detail) error.detail = err.detail;
  send(ctx, STATUS[err.code] ?? 500, { ok: false, error, meta: meta(ctx) }, err.headers);
}

export function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    req.on('error', reject);
  });
}

/** `$c->req->json`: undef (here undefined) when the body is not JSON, so validation reports it. */
export function jsonBody(ctx: Ctx): unknown {
  if (ctx.rawBody.trim() === '') return undefined;
  try {
    return JSON.parse(ctx.rawBody);
  } catch {
    return undefined;
  }
}
