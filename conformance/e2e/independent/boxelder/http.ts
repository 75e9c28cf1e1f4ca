// Response writing and the error union: every failure is one of `ApiError`'s codes, mapped to its status
// in one switch (the Zig `error{...}` set and its `switch (err)`), and every answer carries the meta block.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { LIMITS, nextId, nowIso, type Rec, type Store, VERSION, VERSIONS } from './state.ts';

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

export class ApiError extends Error {
  readonly code: ErrorCode;
  readonly detail: string | undefined;
  constructor(code: ErrorCode, message: string, detail?: string) {
    super(message);
    this.code = code;
    this.detail = detail;
  }
}

export function statusOf(code: ErrorCode): number {
  switch (code) {
    case 'unauthorized':
      return 401;
    case 'forbidden':
      return 403;
    case 'not_found':
      return 404;
    case 'invalid_request':
      return 400;
    case 'capability_denied':
    case 'idempotency_conflict':
      return 409;
    case 'idempotency_required':
      return 428;
    case 'rate_limited':
      return 429;
    case 'internal':
      return 500;
  }
}

/** One call: its request id, the version it asked for, and headers collected before the answer. */
export interface Ctx {
  store: Store;
  req: IncomingMessage;
  res: ServerResponse;
  url: URL;
  requestId: string;
  version: string;
  headers: Record<string, string>;
  idempotencyKey?: string;
  tenant?: string;
  clientId?: string;
}

export function newCtx(store: Store, req: IncomingMessage, res: ServerResponse): Ctx {
  const url = new URL(req.url ?? '/', 'http://127.0.0.1');
  const requestId = `req-${nextId(store, 'request').toString(16).padStart(12, '0')}`;
  return { store, req, res, url, requestId, version: VERSION, headers: {} };
}

/** Service-Version is optional; a value we do not serve is refused rather than guessed at. */
export function readVersion(ctx: Ctx): void {
  const asked = ctx.req.headers['service-version'];
  if (asked === undefined) {
    if (ctx.store.opts.versionRequired)
      throw new ApiError('invalid_request', 'header Service-Version is required', `supported: ${VERSIONS.join(', ')}`);
    return;
  }
  const v = String(asked).trim();
  if (!(VERSIONS as readonly string[]).includes(v)) {
    throw new ApiError('invalid_request', 'unsupported Service-Version', `supported: ${VERSIONS.join(', ')}`);
  }
  ctx.version = v;
}

export function meta(ctx: Ctx, extra: Rec = {}): Rec {
  return { requestId: ctx.requestId, version: ctx.version, at: nowIso(), ...extra };
}

export function sendJson(ctx: Ctx, status: number, body: unknown, extraHeaders: Record<string, string> = {}): void {
  const text = JSON.stringify(body);
  ctx.res.writeHead(status, {
    'content-type': 'application/json',
    'content-length': String(Buffer.byteLength(text)),
    'x-request-id': ctx.requestId,
    ...ctx.headers,
    ...extraHeaders,
  });
  ctx.res.end(text);
}

export function ok(ctx: Ctx, data: Rec, extraMeta: Rec = {}): void {
  sendJson(ctx, 200, { ok: true, data, meta: meta(ctx, extraMeta) });
}

export function fail(ctx: Ctx, err: unknown): void {
  const e = err instanceof ApiError ? err : new ApiError('internal', 'internal error');
  const error: Rec = { code: e.code, message: e.message };
  if (e.detail !== undefined) error.detail = e.detail;
  const extra: Record<string, string> = {};
  if (e.code === 'unauthorized') extra['www-authenticate'] = 'Bearer realm="boxelder"';
  sendJson(ctx, statusOf(e.code), { ok: false, error, meta: meta(ctx) }, extra);
}

/** Reads the body into a fixed-size buffer: past LIMITS.maxBody the call is refused, not buffered. */
export async function readBody(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    const b = chunk as Buffer;
    size += b.length;
    if (size > LIMITS.maxBody) throw new ApiError('invalid_request', `body exceeds ${LIMITS.maxBody} bytes`);
    chunks.push(b);
  }
  return Buffer.concat(chunks).toString('utf8');
}

export function parseJson(raw: string): Rec {
  let v: unknown;
  try {
    v = JSON.parse(raw);
  } catch {
    throw new ApiError('invalid_request', 'body is not valid JSON');
  }
  if (typeof v !== 'object' || v === null || Array.isArray(v)) {
    throw new ApiError('invalid_request', 'body must be a JSON object');
  }
  return v as Rec;
}
