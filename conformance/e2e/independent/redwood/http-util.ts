// Envelopes, identifiers and body reading shared by every handler. Identifiers are prefixed UUIDv7
// (AIP-style resource ids that sort by creation time), times are RFC 3339 with milliseconds in UTC.
import { createHash, randomBytes } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';

export const CURRENT_VERSION = '2026-07-01';
export const VERSIONS = ['2026-06-12', '2026-07-01'];
const MAX_BODY_BYTES = 64 * 1024;

/** A UUIDv7: 48 bits of milliseconds, version 7, variant 10, the rest random (or seeded for stable catalog ids). */
export function uuidv7(ms = Date.now(), seed?: string): string {
  const b = seed ? createHash('sha256').update(seed).digest().subarray(0, 16) : randomBytes(16);
  b.writeUIntBE(ms, 0, 6);
  b.writeUInt8((b.readUInt8(6) & 0x0f) | 0x70, 6);
  b.writeUInt8((b.readUInt8(8) & 0x3f) | 0x80, 8);
  const h = b.toString('hex');
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20)}`;
}

export function newId(prefix: string): string {
  return `${prefix}_${uuidv7()}`;
}

export interface Ctx {
  req: IncomingMessage;
  res: ServerResponse;
  url: URL;
  requestId: string;
  version: string;
  /** Headers to add to whatever answer is sent (rate-limit headers once the call was counted). */
  extraHeaders: Record<string, string>;
  idempotencyKey?: string;
  replayed?: boolean;
  /** requestId and at of an earlier answer, when a replay repeats it verbatim. */
  metaOverride?: { requestId: string; at: string };
}

export class ApiError extends Error {
  status: number;
  code: string;
  detail?: string;
  hint?: string;
  headers?: Record<string, string>;
  constructor(status: number, code: string, message: string, detail?: string, hint?: string) {
    super(message);
    this.status = status;
    this.code = code;
    this.detail = detail;
    this.hint = hint;
  }
}

/** The canonical gRPC status each code maps to (AIP-193), sent beside the interface's code. */
const GRPC_STATUS: Record<string, string> = {
  unauthorized: 'UNAUTHENTICATED',
  forbidden: 'PERMISSION_DENIED',
  not_found: 'NOT_FOUND',
  invalid_request: 'INVALID_ARGUMENT',
  capability_denied: 'FAILED_PRECONDITION',
  idempotency_conflict: 'ABORTED',
  idempotency_required: 'FAILED_PRECONDITION',
  rate_limited: 'RESOURCE_EXHAUSTED',
  internal: 'INTERNAL',
};

export function meta(ctx: Ctx): Record<string, unknown> {
  const m: Record<string, unknown> = {
    requestId: ctx.metaOverride?.requestId ?? ctx.requestId,
    version: ctx.version,
    at: ctx.metaOverride?.at ?? new Date().toISOString(),
  };
  if (ctx.idempotencyKey !== undefined) m.idempotencyKey = ctx.idempotencyKey;
  if (ctx.replayed) m.replayed = true;
  return m;
}

export function sendJson(ctx: Ctx, status: number, body: unknown, headers: Record<string, string> = {}): void {
  if (ctx.res.headersSent) return;
  const text = JSON.stringify(body);
  ctx.res.writeHead(status, {
    'content-type': 'application/json; charset=utf-8',
    'cache-control': 'no-store',
    'x-request-id': ctx.requestId,
    'service-version': ctx.version,
    ...ctx.extraHeaders,
    ...headers,
  });
  ctx.res.end(text);
}

export function ok(ctx: Ctx, data: unknown): void {
  sendJson(ctx, 200, { ok: true, data, meta: meta(ctx) });
}

export function fail(ctx: Ctx, e: ApiError): void {
  const error: Record<string, unknown> = { code: e.code, message: e.message, status: GRPC_STATUS[e.code] ?? 'UNKNOWN' };
  if (e.detail) error.detail = e.detail;
  if (e.hint) error.hint = e.hint;
  sendJson(ctx, e.status, { ok: false, error, meta: meta(ctx) }, e.headers);
}

export const invalid = (detail: string) =>
  new ApiError(
    400,
    'invalid_request',
    'The request is incomplete or unsuitable.',
    detail,
    'Check the request against /api/public/v1/openapi.json.',
  );
export const notFound = (detail: string) =>
  new ApiError(404, 'not_found', 'The entry does not exist.', detail, 'Compare the identifier and the tenant header.');

/** Reads a JSON object body; anything else (no JSON content type, malformed, not an object, too big) is a 400. */
export async function readJson(ctx: Ctx): Promise<Record<string, unknown>> {
  const type = String(ctx.req.headers['content-type'] ?? '').toLowerCase();
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const c of ctx.req) {
    size += (c as Buffer).length;
    if (size > MAX_BODY_BYTES) throw invalid(`body: at most ${MAX_BODY_BYTES} bytes`);
    chunks.push(c as Buffer);
  }
  if (!/^application\/([a-z.+-]*\+)?json\b/.test(type)) throw invalid('Content-Type: must be application/json');
  const raw = Buffer.concat(chunks).toString('utf8');
  let body: unknown;
  try {
    body = JSON.parse(raw);
  } catch {
    throw invalid('body: not valid JSON');
  }
  if (!body || typeof body !== 'object' || Array.isArray(body)) throw invalid('body: must be a JSON object');
  return body as Record<string, unknown>;
}

/** A required (or optional) string field of length min..max. */
export function str(
  body: Record<string, unknown>,
  field: string,
  min: number,
  max: number,
  required = true,
): string | undefined {
  const v = body[field];
  if (v === undefined || v === null) {
    if (required) throw invalid(`${field}: required`);
    return undefined;
  }
  if (typeof v !== 'string') throw invalid(`${field}: must be a string`);
  if (v.length < min || v.length > max) throw invalid(`${field}: length ${min} to ${max}`);
  return v;
}

/** AIP-158 page size: absent or 0 is the default, above the maximum is coerced down, anything else is a 400. */
export function pageSize(raw: string | null, field: string, max = 500, fallback = 50): number {
  if (raw === null || raw === '' || raw === '0') return fallback;
  if (!/^\d{1,9}$/.test(raw)) throw invalid(`${field}: integer, minimum 0`);
  return Math.min(Number(raw), max);
}

/** Canonical JSON (sorted keys), used for idempotency fingerprints and audit hashes. */
export function canonical(v: unknown): string {
  if (Array.isArray(v)) return `[${v.map(canonical).join(',')}]`;
  if (v && typeof v === 'object') {
    const o = v as Record<string, unknown>;
    return `{${Object.keys(o)
      .filter((k) => o[k] !== undefined)
      .sort()
      .map((k) => `${JSON.stringify(k)}:${canonical(o[k])}`)
      .join(',')}}`;
  }
  return JSON.stringify(v);
}
