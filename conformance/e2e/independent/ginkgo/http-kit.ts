// Request/response plumbing: the success and failure envelopes, meta, body reading and the error type.
// Like a FastAPI exception handler, every HttpError thrown anywhere becomes the contract's failure envelope.
import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';

export const VERSION = '2026-07-01';
export const KNOWN_VERSIONS = ['2026-07-01', '2026-06-12'];
const MAX_BODY = 1024 * 1024;

export const STATUS_OF: Record<string, number> = {
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

export class HttpError extends Error {
  code: string;
  detail?: string;
  hint?: string;
  headers: Record<string, string>;
  constructor(code: string, message: string, detail?: string, hint?: string, headers: Record<string, string> = {}) {
    super(message);
    this.code = code;
    this.detail = detail;
    this.hint = hint;
    this.headers = headers;
  }
}

/** One call in flight: what the routing, auth and idempotency layers learn about it on the way. */
export interface Call {
  req: IncomingMessage;
  res: ServerResponse;
  requestId: string;
  method: string;
  path: string;
  query: URLSearchParams;
  origin: string;
  /** Headers every answer of this call carries (rate-limit headers once the call was counted). */
  headers: Record<string, string>;
  clientId?: string;
  tenant?: string;
  token?: string;
  idempotencyKey?: string;
  replayed?: boolean;
}

export function newCall(req: IncomingMessage, res: ServerResponse): Call {
  const url = new URL(req.url ?? '/', 'http://127.0.0.1');
  // FastAPI would redirect a trailing slash; ginkgo simply serves the same route.
  const path = url.pathname.length > 1 ? url.pathname.replace(/\/+$/, '') : url.pathname;
  return {
    req,
    res,
    requestId: randomUUID(),
    method: (req.method ?? 'GET').toUpperCase(),
    path,
    query: url.searchParams,
    origin: `http://${req.headers.host ?? '127.0.0.1'}`,
    headers: {},
  };
}

export function meta(call: Call): Record<string, unknown> {
  const m: Record<string, unknown> = { requestId: call.requestId, version: VERSION, at: new Date().toISOString() };
  if (call.idempotencyKey !== undefined) {
    m.idempotencyKey = call.idempotencyKey;
    m.replayed = call.replayed === true;
  }
  return m;
}

export function sendRaw(
  call: Call,
  status: number,
  contentType: string,
  text: string,
  extra: Record<string, string> = {},
): void {
  if (call.res.headersSent) return;
  call.res.writeHead(status, {
    ...call.headers,
    ...extra,
    'content-type': contentType,
    'cache-control': 'no-store',
    'x-request-id': call.requestId,
    'content-length': String(Buffer.byteLength(text)),
  });
  call.res.end(text);
}

export function sendJson(call: Call, status: number, body: unknown, extra: Record<string, string> = {}): void {
  sendRaw(call, status, 'application/json', JSON.stringify(body), extra);
}

export function ok(call: Call, data: unknown, extra: Record<string, string> = {}): void {
  sendJson(call, 200, { ok: true, data, meta: meta(call) }, extra);
}

export function fail(call: Call, err: unknown): void {
  // Anything that is not an HttpError is a bug: answer `internal` without internals (the request id is enough).
  const e =
    err instanceof HttpError
      ? err
      : new HttpError('internal', 'Internal server error', undefined, 'quote meta.requestId to support');
  if (!(err instanceof HttpError)) console.error(`ginkgo ${call.requestId}:`, err);
  const error: Record<string, string> = { code: e.code, message: e.message };
  if (e.detail !== undefined) error.detail = e.detail;
  if (e.hint !== undefined) error.hint = e.hint;
  const extra: Record<string, string> = { ...e.headers };
  if (e.code === 'unauthorized') extra['www-authenticate'] = 'Bearer realm="ginkgo"';
  sendJson(call, STATUS_OF[e.code] ?? 500, { ok: false, error, meta: meta(call) }, extra);
}

export function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (c: Buffer) => {
      size += c.length;
      if (size > MAX_BODY) {
        reject(new HttpError('invalid_request', 'Request body too large', `body: at most ${MAX_BODY} bytes`));
        req.destroy();
        return;
      }
      chunks.push(c);
    });
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    req.on('error', reject);
  });
}

/** JSON body as an object, or the pydantic-style refusal. */
export function parseJsonObject(text: string): Record<string, unknown> {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw new HttpError('invalid_request', 'body: JSON decode error', 'body: JSON decode error', 'send a JSON object');
  }
  if (value === null || typeof value !== 'object' || Array.isArray(value)) {
    const msg = 'body: Input should be a valid dictionary or object to extract fields from';
    throw new HttpError('invalid_request', msg, msg);
  }
  return value as Record<string, unknown>;
}

/** Sorted-key JSON, used for idempotency fingerprints and audit digests. */
export function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    const o = value as Record<string, unknown>;
    const keys = Object.keys(o)
      .filter((k) => o[k] !== undefined)
      .sort();
    return `{${keys.map((k) => `${JSON.stringify(k)}:${canonical(o[k])}`).join(',')}}`;
  }
  return JSON.stringify(value);
}
