// Envelope, error and body helpers shared by every atlas handler (plain node:http, no framework).
import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';

export const CURRENT_VERSION = '2026-07-01';
export const PUBLISHED_VERSIONS = ['2026-07-01', '2026-06-12'];
/** Our own correlation header (a Java gateway habit); the interface names none. */
export const CORRELATION_HEADER = 'X-Correlation-ID';
const MAX_BODY_BYTES = 64 * 1024;

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

export class ApiError extends Error {
  code: ErrorCode;
  detail: string | undefined;
  hint: string | undefined;
  headers: Record<string, string>;
  constructor(
    code: ErrorCode,
    message: string,
    opts: { detail?: string; hint?: string; headers?: Record<string, string> } = {},
  ) {
    super(message);
    this.code = code;
    this.detail = opts.detail;
    this.hint = opts.hint;
    this.headers = opts.headers ?? {};
  }
}

export type Ctx = {
  req: IncomingMessage;
  res: ServerResponse;
  url: URL;
  requestId: string;
  version: string;
  headers: Record<string, string>;
  idempotencyKey?: string;
  replayed?: boolean;
};

/** Java's OffsetDateTime.toString(): microseconds (Linux clock) and an explicit +00:00 offset instead of Z. */
export function isoTime(d: Date = new Date()): string {
  const micros = String(Math.floor(Number(process.hrtime.bigint() % 1000n))).padStart(3, '0');
  return d.toISOString().replace('Z', `${micros}+00:00`);
}

export function newCtx(req: IncomingMessage, res: ServerResponse, url: URL): Ctx {
  return { req, res, url, requestId: randomUUID(), version: CURRENT_VERSION, headers: {} };
}

function meta(ctx: Ctx): Record<string, unknown> {
  const m: Record<string, unknown> = { requestId: ctx.requestId, version: ctx.version, at: isoTime() };
  if (ctx.idempotencyKey !== undefined) {
    m.idempotencyKey = ctx.idempotencyKey;
    m.replayed = ctx.replayed === true;
  }
  return m;
}

export function sendJson(ctx: Ctx, status: number, body: unknown, extra: Record<string, string> = {}): void {
  if (ctx.res.headersSent) return;
  const text = JSON.stringify(body);
  ctx.res.writeHead(status, {
    'Content-Type': 'application/json;charset=UTF-8',
    'Cache-Control': 'no-store',
    [CORRELATION_HEADER]: ctx.requestId,
    'Service-Version': ctx.version,
    ...ctx.headers,
    ...extra,
  });
  ctx.res.end(text);
}

export function sendOk(ctx: Ctx, data: unknown): void {
  sendJson(ctx, 200, { ok: true, data, meta: meta(ctx) });
}

export function sendError(ctx: Ctx, err: ApiError): void {
  const error: Record<string, string> = { code: err.code, message: err.message };
  if (err.detail !== undefined) error.detail = err.detail;
  if (err.hint !== undefined) error.hint = err.hint;
  sendJson(ctx, ERROR_STATUS[err.code], { ok: false, error, meta: meta(ctx) }, err.headers);
}

/** Reads a JSON object body; anything else is a 400 (415 is not a status of the interface). */
export async function readJsonBody(req: IncomingMessage): Promise<Record<string, unknown>> {
  const type = String(req.headers['content-type'] ?? '').toLowerCase();
  const length = req.headers['content-length'];
  // An action without payload (e.g. a re-trigger) may be sent with no body at all.
  if (type === '' && (length === '0' || (length === undefined && req.headers['transfer-encoding'] === undefined)))
    return {};
  if (!/^application\/([a-z.+-]*\+)?json\b/.test(type)) {
    await drain(req);
    throw new ApiError('invalid_request', 'request body must be JSON', { hint: 'send Content-Type: application/json' });
  }
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    size += (chunk as Buffer).length;
    if (size > MAX_BODY_BYTES)
      throw new ApiError('invalid_request', 'request body too large', { detail: 'max 65536 bytes' });
    chunks.push(chunk as Buffer);
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(Buffer.concat(chunks).toString('utf8'));
  } catch {
    throw new ApiError('invalid_request', 'request body is not valid JSON');
  }
  if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed)) {
    throw new ApiError('invalid_request', 'request body must be a JSON object');
  }
  return parsed as Record<string, unknown>;
}

async function drain(req: IncomingMessage): Promise<void> {
  for await (const _ of req) {
    // discard
  }
}

/** Canonical JSON (sorted keys) used for idempotency fingerprints. */
export function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonical(v)}`).join(',')}}`;
  }
  return JSON.stringify(value);
}
