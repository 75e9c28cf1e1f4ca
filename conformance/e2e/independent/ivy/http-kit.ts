// The envelopes and the plumbing every handler shares: one Call per request (its id, version, headers to
// send), success and failure envelopes, JSON body reading. Errors are thrown as ApiError and turned into
// the failure envelope in one place, so no handler can answer a shape of its own.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { requestId } from './ids.ts';

export const CURRENT_VERSION = '2026-07-01';
export const PUBLISHED_VERSIONS = ['2026-07-01', '2026-06-12'];
export const BASE_PATH = '/api/public/v1';

const STATUS_OF: Record<string, number> = {
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

export class ApiError extends Error {
  code: string;
  status: number;
  detail: string | undefined;
  hint: string | undefined;
  constructor(code: string, message: string, detail?: string, hint?: string) {
    super(message);
    this.code = code;
    this.status = STATUS_OF[code] ?? 500;
    this.detail = detail;
    this.hint = hint;
  }
}

/** One request as the handlers see it. */
export interface Call {
  req: IncomingMessage;
  res: ServerResponse;
  stage: 'main' | 'alt';
  baseUrl: string;
  method: string;
  path: string;
  query: URLSearchParams;
  requestId: string;
  version: string;
  /** Headers every answer of this call carries (rate limits, request id). */
  headers: Record<string, string>;
  /** Set once the Idempotency-Key was read. */
  idempotencyKey?: string | undefined;
}

export function newCall(req: IncomingMessage, res: ServerResponse, stage: 'main' | 'alt', baseUrl: string): Call {
  const url = new URL(req.url ?? '/', 'http://ivy.invalid');
  const asked = header(req, 'service-version');
  // A published version is answered as that version; anything else as the current one (Service-Version is
  // optional and an unknown value is not refused: the gateway maps it to the default stage variable).
  const version = asked && PUBLISHED_VERSIONS.includes(asked) ? asked : CURRENT_VERSION;
  const id = requestId();
  let path = url.pathname;
  if (path.length > 1 && path.endsWith('/')) path = path.slice(0, -1);
  return {
    req,
    res,
    stage,
    baseUrl,
    method: req.method ?? 'GET',
    path,
    query: url.searchParams,
    requestId: id,
    version,
    headers: { 'x-amzn-RequestId': id, 'Service-Version': version },
  };
}

export function header(req: IncomingMessage, name: string): string | undefined {
  const v = req.headers[name.toLowerCase()];
  return Array.isArray(v) ? v[0] : v;
}

export function meta(call: Call, extra: Record<string, unknown> = {}) {
  const m: Record<string, unknown> = { requestId: call.requestId, version: call.version, at: new Date().toISOString() };
  if (call.idempotencyKey !== undefined) m.idempotencyKey = call.idempotencyKey;
  return { ...m, ...extra };
}

export function sendJson(call: Call, status: number, body: unknown): void {
  const text = JSON.stringify(body);
  call.res.writeHead(status, {
    ...call.headers,
    'Content-Type': 'application/json; charset=utf-8',
    'Content-Length': Buffer.byteLength(text),
  });
  call.res.end(text);
}

export function ok(call: Call, data: unknown, extraMeta: Record<string, unknown> = {}): void {
  sendJson(call, 200, { ok: true, data, meta: meta(call, extraMeta) });
}

export function fail(call: Call, err: ApiError): void {
  const error: Record<string, string> = { code: err.code, message: err.message };
  if (err.detail) error.detail = err.detail;
  if (err.hint) error.hint = err.hint;
  if (err.code === 'rate_limited' && !call.headers['Retry-After']) call.headers['Retry-After'] = '1';
  sendJson(call, err.status, { ok: false, error, meta: meta(call) });
}

/** The raw body, at most 256 KiB (API Gateway's payload limit is larger; nothing here needs more). */
export async function readRaw(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    const b = chunk as Buffer;
    size += b.length;
    if (size > 262_144) throw new ApiError('invalid_request', 'The request body is too large.');
    chunks.push(b);
  }
  return Buffer.concat(chunks).toString('utf8');
}

/** The JSON object of a body; anything else (empty, malformed, an array, a form) is invalid_request. */
export function parseObject(raw: string): Record<string, unknown> {
  let value: unknown;
  try {
    value = JSON.parse(raw);
  } catch {
    throw new ApiError('invalid_request', 'The request body is not valid JSON.', undefined, 'Send a JSON object.');
  }
  if (value === null || typeof value !== 'object' || Array.isArray(value)) {
    throw new ApiError('invalid_request', 'The request body must be a JSON object.');
  }
  return value as Record<string, unknown>;
}

export function sleep(ms: number): Promise<void> {
  return new Promise((r) => setTimeout(r, ms));
}
