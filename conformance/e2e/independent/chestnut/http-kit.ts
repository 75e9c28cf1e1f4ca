// The envelope, the error type and the small HTTP helpers every handler uses.
import type { IncomingMessage, ServerResponse } from 'node:http';

export const CURRENT_VERSION = '2026-07-01';
export const KNOWN_VERSIONS = ['2026-07-01', '2026-06-12'];

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

/** A refusal: the code picks the status from the Errors table, so the two can never disagree. */
export class ApiError extends Error {
  readonly code: string;
  readonly detail: string | undefined;
  readonly hint: string | undefined;
  constructor(code: string, message: string, detail?: string, hint?: string) {
    super(message);
    this.code = code;
    this.detail = detail;
    this.hint = hint;
  }
}

/** What one call carries through the pipeline. */
export interface CallContext {
  requestId: string;
  version: string;
  at: string;
  headers: Record<string, string>;
  idempotencyKey?: string;
  replayed?: boolean;
  clientId?: string;
  tenant?: string;
}

export function meta(cc: CallContext): Record<string, unknown> {
  const m: Record<string, unknown> = { requestId: cc.requestId, version: cc.version, at: cc.at };
  if (cc.idempotencyKey !== undefined) m.idempotencyKey = cc.idempotencyKey;
  if (cc.replayed !== undefined) m.replayed = cc.replayed;
  return m;
}

export function sendJson(res: ServerResponse, cc: CallContext, status: number, body: unknown): void {
  const text = JSON.stringify(body);
  res.writeHead(status, {
    ...cc.headers,
    'content-type': 'application/json; charset=utf-8',
    'content-length': Buffer.byteLength(text),
    'audit-id': cc.requestId,
    'cache-control': 'no-store',
  });
  res.end(text);
}

export function sendOk(res: ServerResponse, cc: CallContext, data: unknown): void {
  sendJson(res, cc, 200, { ok: true, data, meta: meta(cc) });
}

export function sendError(res: ServerResponse, cc: CallContext, err: ApiError): void {
  const error: Record<string, string> = { code: err.code, message: err.message };
  if (err.detail !== undefined) error.detail = err.detail;
  if (err.hint !== undefined) error.hint = err.hint;
  sendJson(res, cc, ERROR_STATUS[err.code] ?? 500, { ok: false, error, meta: meta(cc) });
}

/** Reads at most 64 KiB; more is refused before parsing (a conservative API server limit). */
export async function readBody(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    size += (chunk as Buffer).length;
    if (size > 65536) throw new ApiError('invalid_request', 'request body too large', 'at most 65536 bytes');
    chunks.push(chunk as Buffer);
  }
  return Buffer.concat(chunks).toString('utf8');
}

/** JSON only, an object at the top: strict decoding like the API server's strict field validation. */
export function parseJsonObject(req: IncomingMessage, raw: string): Record<string, unknown> {
  const ct = String(req.headers['content-type'] ?? '').toLowerCase();
  if (!/^application\/([a-z0-9.+-]*\+)?json\b/.test(ct)) {
    throw new ApiError('invalid_request', 'the body must be JSON', 'send content-type application/json');
  }
  let v: unknown;
  try {
    v = JSON.parse(raw);
  } catch {
    throw new ApiError('invalid_request', 'the body is not valid JSON');
  }
  if (v === null || typeof v !== 'object' || Array.isArray(v)) {
    throw new ApiError('invalid_request', 'the body must be a JSON object');
  }
  return v as Record<string, unknown>;
}

/** Canonical JSON (sorted keys) for fingerprints and hash chains. */
export function canonical(v: unknown): string {
  if (Array.isArray(v)) return `[${v.map(canonical).join(',')}]`;
  if (v !== null && typeof v === 'object') {
    const o = v as Record<string, unknown>;
    return `{${Object.keys(o)
      .sort()
      .map((k) => `${JSON.stringify(k)}:${canonical(o[k])}`)
      .join(',')}}`;
  }
  return JSON.stringify(v);
}
