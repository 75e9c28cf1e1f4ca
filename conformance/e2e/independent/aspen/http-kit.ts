// Envelopes, error answers and body reading: every JSON answer of aspen goes through `sendOk`/`sendError`,
// so meta, X-Request-Id and the rate-limit headers are set in one place.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { ulid } from './ulid.ts';

export const CURRENT_VERSION = '2026-07-01';
export const PUBLISHED_VERSIONS = ['2026-07-01', '2026-06-12'];

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

export type ErrorCode = keyof typeof STATUS;

/** One call in flight: what the pipeline learned so far, used to build meta and headers. */
export interface Call {
  req: IncomingMessage;
  res: ServerResponse;
  url: URL;
  requestId: string;
  version: string;
  /** The validated Idempotency-Key of a keyed route, echoed in meta. */
  idempotencyKey?: string;
  /** Rate-limit headers once the call was counted. */
  rateHeaders?: Record<string, string>;
  tenant?: string;
  clientId?: string;
  token?: string;
}

export class HttpError extends Error {
  code: ErrorCode;
  detail?: string;
  hint?: string;
  headers?: Record<string, string>;
  constructor(
    code: ErrorCode,
    message: string,
    extra: { detail?: string; hint?: string; headers?: Record<string, string> } = {},
  ) {
    super(message);
    this.code = code;
    this.detail = extra.detail;
    this.hint = extra.hint;
    this.headers = extra.headers;
  }
}

export function newCall(req: IncomingMessage, res: ServerResponse): Call {
  return { req, res, url: new URL(req.url ?? '/', 'http://127.0.0.1'), requestId: ulid(), version: CURRENT_VERSION };
}

export function meta(call: Call, replayed?: boolean): Record<string, unknown> {
  const m: Record<string, unknown> = { requestId: call.requestId, version: call.version, at: new Date().toISOString() };
  if (call.idempotencyKey !== undefined) {
    m.idempotencyKey = call.idempotencyKey;
    m.replayed = replayed === true;
  }
  return m;
}

function writeJson(call: Call, status: number, body: unknown, headers: Record<string, string> = {}): void {
  if (call.res.headersSent) return;
  const text = JSON.stringify(body);
  call.res.writeHead(status, {
    'content-type': 'application/json; charset=utf-8',
    'cache-control': 'no-store',
    'x-request-id': call.requestId,
    'x-content-type-options': 'nosniff',
    ...(call.rateHeaders ?? {}),
    ...headers,
  });
  call.res.end(text);
}

export function sendOk(call: Call, data: unknown, replayed?: boolean): void {
  writeJson(call, 200, { ok: true, data, meta: meta(call, replayed) });
}

/** A body stored for idempotent replays: the data only; meta is rebuilt for each answer. */
export function sendError(call: Call, err: HttpError, replayed?: boolean): void {
  const error: Record<string, string> = { code: err.code, message: err.message };
  if (err.detail !== undefined) error.detail = err.detail;
  if (err.hint !== undefined) error.hint = err.hint;
  writeJson(call, STATUS[err.code] ?? 500, { ok: false, error, meta: meta(call, replayed) }, err.headers);
}

export function sendRaw(
  res: ServerResponse,
  status: number,
  body: unknown,
  headers: Record<string, string> = {},
): void {
  res.writeHead(status, { 'content-type': 'application/json; charset=utf-8', 'cache-control': 'no-store', ...headers });
  res.end(JSON.stringify(body));
}

const MAX_BODY = 64 * 1024;

/** Reads the raw body (at most 64 KiB: a larger one is refused as invalid, 413 is not an interface status). */
export async function readText(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    const b = chunk as Buffer;
    size += b.length;
    if (size > MAX_BODY) throw new HttpError('invalid_request', 'request body too large', { detail: 'at most 64 KiB' });
    chunks.push(b);
  }
  return Buffer.concat(chunks).toString('utf8');
}

/** Parses a JSON object body; anything else (form, text, array) is refused with 400. */
export async function readJsonObject(call: Call): Promise<Record<string, unknown>> {
  const type = String(call.req.headers['content-type'] ?? '').toLowerCase();
  const text = await readText(call.req);
  if (!type.startsWith('application/json')) {
    throw new HttpError('invalid_request', 'body must be JSON', { hint: 'send Content-Type: application/json' });
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    throw new HttpError('invalid_request', 'body is not valid JSON');
  }
  if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed)) {
    throw new HttpError('invalid_request', 'body must be a JSON object');
  }
  return parsed as Record<string, unknown>;
}

/** Canonical JSON (sorted keys), the fingerprint of idempotent content and the audit leaf input. */
export function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    const o = value as Record<string, unknown>;
    return `{${Object.keys(o)
      .sort()
      .filter((k) => o[k] !== undefined)
      .map((k) => `${JSON.stringify(k)}:${canonical(o[k])}`)
      .join(',')}}`;
  }
  return JSON.stringify(value);
}
