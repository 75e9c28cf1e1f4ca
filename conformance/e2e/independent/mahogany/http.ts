// Request context, envelopes, errors and small helpers shared by every handler.
import { createHash, randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { CURRENT_VERSION } from './options.ts';
import type { State } from './state.ts';

export const ERROR_STATUS = {
  unauthorized: 401,
  forbidden: 403,
  not_found: 404,
  invalid_request: 400,
  capability_denied: 409,
  idempotency_conflict: 409,
  idempotency_required: 428,
  rate_limited: 429,
  internal: 500,
} as const;
export type ErrorCode = keyof typeof ERROR_STATUS;

/** A refusal: thrown by handlers, answered with the failure envelope. */
export class ApiError extends Error {
  code: ErrorCode;
  detail: string | undefined;
  hint: string | undefined;
  headers: Record<string, string>;
  constructor(code: ErrorCode, message: string, detail?: string, hint?: string, headers: Record<string, string> = {}) {
    super(message);
    this.code = code;
    this.detail = detail;
    this.hint = hint;
    this.headers = headers;
  }
}

export const invalid = (message: string, detail?: string) =>
  new ApiError('invalid_request', message, detail, 'Check the request against the published description.');
export const notFound = (what: string) =>
  new ApiError('not_found', `${what} does not exist`, undefined, 'Compare the identifier and the tenant header.');

export interface Ctx {
  req: IncomingMessage;
  res: ServerResponse;
  url: URL;
  state: State;
  requestId: string;
  version: string;
  params: Record<string, string>;
  rawBody: string;
  body: unknown;
  clientId?: string;
  tenant?: string;
  idempotencyKey?: string;
  replayed?: boolean;
  /** Extra response headers gathered on the way (rate limit, ETag). */
  headers: Record<string, string>;
}

export interface Reply {
  status?: number;
  data: unknown;
}

export const newId = () => randomUUID();
export const nowIso = () => new Date().toISOString();
export const sha256 = (s: string) => createHash('sha256').update(s).digest('hex');

/** RFC 8785 JSON for the values this service produces (strings, integers, booleans, null, arrays, objects). */
export function canonical(v: unknown): string {
  if (Array.isArray(v)) return `[${v.map(canonical).join(',')}]`;
  if (v !== null && typeof v === 'object') {
    const entries = Object.entries(v as Record<string, unknown>).filter(([, x]) => x !== undefined);
    entries.sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, x]) => `${JSON.stringify(k)}:${canonical(x)}`).join(',')}}`;
  }
  return JSON.stringify(v) ?? 'null';
}

export function meta(ctx: Pick<Ctx, 'requestId' | 'version' | 'idempotencyKey' | 'replayed'>) {
  const m: Record<string, unknown> = {
    requestId: ctx.requestId,
    version: ctx.version ?? CURRENT_VERSION,
    at: nowIso(),
  };
  if (ctx.idempotencyKey) {
    m.idempotencyKey = ctx.idempotencyKey;
    m.replayed = ctx.replayed === true;
  }
  return m;
}

function writeJson(ctx: Ctx, status: number, body: unknown, extra: Record<string, string> = {}) {
  if (ctx.res.headersSent) return;
  const text = JSON.stringify(body);
  ctx.res.writeHead(status, {
    'content-type': 'application/json; charset=utf-8',
    'cache-control': 'no-store',
    'x-request-id': ctx.requestId,
    'sap-request-id': ctx.requestId,
    'service-version': ctx.version,
    ...ctx.headers,
    ...extra,
  });
  ctx.res.end(text);
}

export function sendOk(ctx: Ctx, reply: Reply) {
  const status = reply.status ?? 200;
  if (ctx.req.method === 'GET') ctx.headers.etag = `W/"${sha256(canonical(reply.data)).slice(0, 32)}"`;
  writeJson(ctx, status, { ok: true, data: reply.data, meta: meta(ctx) });
}

export function sendError(ctx: Ctx, err: ApiError) {
  const error: Record<string, string> = { code: err.code, message: err.message };
  if (err.detail) error.detail = err.detail;
  if (err.hint) error.hint = err.hint;
  writeJson(ctx, ERROR_STATUS[err.code], { ok: false, error, meta: meta(ctx) }, err.headers);
}

/** Reads the raw request body (at most 1 MiB). */
export function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (c: Buffer) => {
      size += c.length;
      if (size > 1 << 20) {
        reject(invalid('Request body too large', 'The body may hold at most 1 MiB.'));
        req.destroy();
        return;
      }
      chunks.push(c);
    });
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    req.on('error', reject);
  });
}

/** The body as a JSON object, or invalid_request. */
export function jsonObject(ctx: Ctx): Record<string, unknown> {
  if (ctx.body === null || typeof ctx.body !== 'object' || Array.isArray(ctx.body)) {
    throw invalid('Request body must be a JSON object');
  }
  return ctx.body as Record<string, unknown>;
}

/** A required (or optional) string field of length min..max. */
export function str(o: Record<string, unknown>, field: string, min: number, max: number, required = true) {
  const v = o[field];
  if (v === undefined || v === null) {
    if (required) throw invalid(`Field ${field} is required`, `${field}: required string of length ${min} to ${max}`);
    return undefined;
  }
  if (typeof v !== 'string') throw invalid(`Field ${field} must be a string`, `${field}: wrong data type`);
  if (v.length < min || v.length > max) {
    throw invalid(`Field ${field} has an invalid length`, `${field}: length ${min} to ${max}`);
  }
  return v;
}
