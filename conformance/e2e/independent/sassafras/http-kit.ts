// Envelope, identifiers and clock of sassafras: what an ASP.NET Core team's middleware would give every answer
// (GUID ids in "D" format, seven fractional digits like DateTime.ToString("O"), a W3C trace id on failures).
import { randomBytes, randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';

export const CURRENT_VERSION = '2026-07-01';
export const SUPPORTED_VERSIONS = ['2026-07-01', '2026-06-12'] as const;

export interface Caller {
  clientId: string;
  tenant: string;
  token: string;
}

/** One call in flight: what the handlers need to answer it. */
export interface Ctx {
  req: IncomingMessage;
  res: ServerResponse;
  url: URL;
  method: string;
  path: string;
  requestId: string;
  traceId: string;
  version: string;
  /** The origin the caller used (main or alternate address), for links in answers. */
  origin: string;
  caller?: Caller;
  headers: Record<string, string>;
  idempotencyKey?: string;
  /** Unknown body fields are dropped instead of refused (SassafrasOptions.ignoreUnknownFields). */
  lenientBinding?: boolean;
}

export function newId(): string {
  return randomUUID();
}

/** `2026-11-27T11:40:27.1234567Z`: .NET's round-trip format (100 ns ticks; the last four digits are sub-ms). */
export function stamp(ms: number = Date.now()): string {
  const ticks = String(Number(process.hrtime.bigint() % 10000n)).padStart(4, '0');
  return new Date(ms).toISOString().replace(/\.(\d{3})Z$/, `.$1${ticks}Z`);
}

export function newTraceId(): string {
  return `00-${randomBytes(16).toString('hex')}-${randomBytes(8).toString('hex')}-00`;
}

function meta(ctx: Ctx, extra: Record<string, unknown> = {}): Record<string, unknown> {
  const m: Record<string, unknown> = { requestId: ctx.requestId, version: ctx.version, at: stamp() };
  if (ctx.idempotencyKey !== undefined) m.idempotencyKey = ctx.idempotencyKey;
  return { ...m, ...extra };
}

export function writeJson(
  ctx: Ctx,
  status: number,
  body: unknown,
  contentType = 'application/json; charset=utf-8',
): void {
  const text = JSON.stringify(body);
  ctx.res.writeHead(status, {
    ...ctx.headers,
    'Content-Type': contentType,
    'Content-Length': Buffer.byteLength(text),
    'X-Request-Id': ctx.requestId,
  });
  ctx.res.end(text);
}

export function ok(ctx: Ctx, data: unknown, extraMeta: Record<string, unknown> = {}): void {
  writeJson(ctx, 200, { ok: true, data, meta: meta(ctx, extraMeta) });
}

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

/** Thrown by handlers and turned into the failure envelope by the router. */
export class ApiError extends Error {
  code: string;
  detail?: string;
  hint?: string;
  constructor(code: string, message: string, detail?: string, hint?: string) {
    super(message);
    this.code = code;
    this.detail = detail;
    this.hint = hint;
  }
}

export function fail(ctx: Ctx, e: ApiError): void {
  const error: Record<string, unknown> = { code: e.code, message: e.message };
  if (e.detail !== undefined) error.detail = e.detail;
  if (e.hint !== undefined) error.hint = e.hint;
  error.traceId = ctx.traceId;
  writeJson(ctx, STATUS_OF[e.code] ?? 500, { ok: false, error, meta: meta(ctx) });
}

const MAX_BODY = 64 * 1024;

/** Reads the raw body (bounded); JSON parsing is the caller's, so a malformed body is a 400 of its own. */
export async function readBody(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    size += (chunk as Buffer).length;
    if (size > MAX_BODY) throw new ApiError('invalid_request', 'The request body is too large.', 'Limit 64 KiB.');
    chunks.push(chunk as Buffer);
  }
  return Buffer.concat(chunks).toString('utf8');
}

export function parseJsonObject(text: string): Record<string, unknown> {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw new ApiError('invalid_request', 'The request body is not valid JSON.', undefined, 'Send a JSON object.');
  }
  if (value === null || typeof value !== 'object' || Array.isArray(value)) {
    throw new ApiError('invalid_request', 'The request body must be a JSON object.');
  }
  return value as Record<string, unknown>;
}

/** Canonical JSON (sorted keys) for idempotency fingerprints and audit hashes. */
export function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    const o = value as Record<string, unknown>;
    return `{${Object.keys(o)
      .sort()
      .map((k) => `${JSON.stringify(k)}:${canonical(o[k])}`)
      .join(',')}}`;
  }
  return JSON.stringify(value);
}
