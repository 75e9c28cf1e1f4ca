// Shared HTTP plumbing of elm: envelopes, request ids, JSON bodies, the ASP.NET-like response habits.
import { randomBytes } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';

export const CURRENT_VERSION = '2026-07-01';
export const VERSIONS = ['2026-07-01', '2026-06-12'];

export type ErrorCode =
  | 'unauthorized'
  | 'forbidden'
  | 'not_found'
  | 'invalid_request'
  | 'capability_denied'
  | 'idempotency_conflict'
  | 'idempotency_required'
  | 'rate_limited'
  | 'internal';

const STATUS: Record<ErrorCode, number> = {
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

export type Meta = {
  requestId: string;
  version: string;
  at: string;
  idempotencyKey?: string;
  replayed?: boolean;
};

// One call: its request, response and what the pipeline learnt about it so far.
export type Ctx = {
  req: IncomingMessage;
  res: ServerResponse;
  method: string;
  path: string;
  query: URLSearchParams;
  requestId: string;
  traceId: string;
  version: string;
  headers: Record<string, string>;
  clientId?: string;
  tenant?: string;
};

let counter = 0;
const connectionPrefix = `0HN${randomBytes(5).toString('hex').toUpperCase()}`;

// Kestrel-style connection id plus a counter: "0HN…:0000002A".
export function newRequestId(): string {
  counter += 1;
  return `${connectionPrefix}:${counter.toString(16).toUpperCase().padStart(8, '0')}`;
}

export function newTraceId(): string {
  return `00-${randomBytes(16).toString('hex')}-${randomBytes(8).toString('hex')}-01`;
}

export function meta(ctx: Ctx, extra?: Partial<Meta>): Meta {
  return { requestId: ctx.requestId, version: ctx.version, at: new Date().toISOString(), ...extra };
}

export class HttpError extends Error {
  code: ErrorCode;
  hint?: string;
  constructor(code: ErrorCode, message: string, hint?: string) {
    super(message);
    this.code = code;
    this.hint = hint;
  }
}

function write(ctx: Ctx, status: number, body: string, contentType: string): void {
  const { res } = ctx;
  res.statusCode = status;
  res.setHeader('Server', 'Kestrel');
  res.setHeader('Content-Type', contentType);
  res.setHeader('X-Request-Id', ctx.requestId);
  for (const [name, value] of Object.entries(ctx.headers)) res.setHeader(name, value);
  res.setHeader('Content-Length', Buffer.byteLength(body));
  // HEAD is answered like GET without the body.
  res.end(ctx.method === 'HEAD' ? undefined : body);
}

export function sendJson(ctx: Ctx, status: number, payload: unknown): void {
  write(ctx, status, JSON.stringify(payload), 'application/json; charset=utf-8');
}

export function sendOk(ctx: Ctx, data: unknown, extra?: Partial<Meta>): void {
  sendJson(ctx, 200, { ok: true, data, meta: meta(ctx, extra) });
}

export function sendError(ctx: Ctx, code: ErrorCode, message: string, hint?: string): void {
  const error: Record<string, string> = { code, message, detail: `traceId: ${ctx.traceId}` };
  if (hint) error.hint = hint;
  sendJson(ctx, STATUS[code], { ok: false, error, meta: meta(ctx) });
}

export function statusOf(code: ErrorCode): number {
  return STATUS[code];
}

// Strict model binding: a query parameter the endpoint does not declare is refused.
export function allowQuery(ctx: Ctx, allowed: string[]): void {
  for (const name of ctx.query.keys()) {
    if (!allowed.includes(name)) throw new HttpError('invalid_request', `Unknown query parameter '${name}'.`);
  }
}

const MAX_BODY = 64 * 1024;

// Reads a JSON object body; anything else (form, text, array, malformed, oversized) is a 400.
export async function readJsonObject(ctx: Ctx): Promise<{ raw: string; body: Record<string, unknown> }> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of ctx.req) {
    size += (chunk as Buffer).length;
    if (size > MAX_BODY) throw new HttpError('invalid_request', 'The request body is too large.');
    chunks.push(chunk as Buffer);
  }
  const raw = Buffer.concat(chunks).toString('utf8');
  const type = String(ctx.req.headers['content-type'] ?? '').toLowerCase();
  if (!/^application\/([a-z.+-]*\+)?json\b/.test(type)) {
    throw new HttpError('invalid_request', 'The request body must be JSON (Content-Type: application/json).');
  }
  let body: unknown;
  try {
    body = JSON.parse(raw);
  } catch {
    throw new HttpError('invalid_request', 'The request body is not valid JSON.');
  }
  if (typeof body !== 'object' || body === null || Array.isArray(body)) {
    throw new HttpError('invalid_request', 'The request body must be a JSON object.');
  }
  return { raw, body: body as Record<string, unknown> };
}

// Lengths count characters (code points), not UTF-16 units or bytes.
export function textField(body: Record<string, unknown>, name: string, min: number, max: number): string {
  const value = body[name];
  if (typeof value !== 'string')
    throw new HttpError('invalid_request', `The field '${name}' is required and must be a string.`);
  const length = [...value].length;
  if (length < min || length > max) {
    throw new HttpError('invalid_request', `The field '${name}' must be ${min} to ${max} characters long.`);
  }
  return value;
}

export function onlyFields(body: Record<string, unknown>, allowed: string[]): void {
  for (const name of Object.keys(body)) {
    if (!allowed.includes(name)) throw new HttpError('invalid_request', `Unknown field '${name}'.`);
  }
}

export function baseUrlOf(ctx: Ctx): string {
  return `http://${ctx.req.headers.host ?? '127.0.0.1'}`;
}
