// The wire helpers every handler shares: TypeID-style ids, the success and failure envelopes, JSON body
// reading (serde-style: a body that is not JSON is a 400, never a 415) and the error type handlers throw.
import { randomBytes, randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';

export const CURRENT_VERSION = '2026-07-01';
export const VERSIONS = ['2026-07-01', '2026-06-12'] as const;

const CROCKFORD = '0123456789abcdefghjkmnpqrstvwxyz';

/** A TypeID (`conn_01jd…`): prefix, then 26 Crockford base32 characters of a 48-bit time and 80 random bits. */
export function typeId(prefix: string): string {
  const bytes = Buffer.alloc(16);
  bytes.writeUIntBE(Date.now(), 0, 6);
  randomBytes(10).copy(bytes, 6);
  let n = BigInt(`0x${bytes.toString('hex')}`);
  let out = '';
  for (let i = 0; i < 26; i++) {
    out = CROCKFORD[Number(n & 31n)] + out;
    n >>= 5n;
  }
  return `${prefix}_${out}`;
}

/** tower-http's MakeRequestUuid: every call gets a fresh UUID, echoed as X-Request-Id. */
export function requestId(): string {
  return randomUUID();
}

/** What a handler throws to answer with the failure envelope. */
export class ApiError extends Error {
  status: number;
  code: string;
  detail: string | undefined;
  hint: string | undefined;
  constructor(status: number, code: string, message: string, detail?: string, hint?: string) {
    super(message);
    this.status = status;
    this.code = code;
    this.detail = detail;
    this.hint = hint;
  }
}

export const invalid = (detail: string) =>
  new ApiError(
    400,
    'invalid_request',
    'The request is incomplete or unsuitable.',
    detail,
    'Check the request against the published description.',
  );
export const notFound = (detail: string) =>
  new ApiError(404, 'not_found', 'The entry does not exist.', detail, 'Compare the identifier and the tenant header.');

/** Per-call context: ids, version, headers to add (rate limit, request id). */
export interface Call {
  req: IncomingMessage;
  res: ServerResponse;
  url: URL;
  requestId: string;
  version: string;
  headers: Record<string, string>;
}

export interface Meta {
  requestId: string;
  version: string;
  at: string;
  idempotencyKey?: string;
  replayed?: boolean;
}

export function meta(call: Call, extra: Partial<Meta> = {}): Meta {
  return { requestId: call.requestId, version: call.version, at: timestamp(), ...extra };
}

export function sendJson(call: Call, status: number, body: unknown, extraHeaders: Record<string, string> = {}): void {
  const text = JSON.stringify(body);
  call.res.writeHead(status, {
    'content-type': 'application/json',
    'content-length': Buffer.byteLength(text),
    'x-request-id': call.requestId,
    'service-version': call.version,
    ...call.headers,
    ...extraHeaders,
  });
  call.res.end(text);
}

export function ok(call: Call, data: unknown, extra: Partial<Meta> = {}): void {
  sendJson(call, 200, { ok: true, data, meta: meta(call, extra) });
}

export function fail(call: Call, e: ApiError, extraHeaders: Record<string, string> = {}): void {
  const error: Record<string, string> = { code: e.code, message: e.message };
  if (e.detail !== undefined) error.detail = e.detail;
  if (e.hint !== undefined) error.hint = e.hint;
  sendJson(call, e.status, { ok: false, error, meta: meta(call) }, extraHeaders);
}

/** Reads the raw body (at most 64 KiB: past that it is a 400, the interface has no 413). */
export async function rawBody(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    size += (chunk as Buffer).length;
    if (size > 65_536) throw invalid('The body is larger than 64 KiB.');
    chunks.push(chunk as Buffer);
  }
  return Buffer.concat(chunks).toString('utf8');
}

/** serde_json: a JSON object, else 400. A declared non-JSON content type (a form) is refused 400 too. */
export async function jsonBody(req: IncomingMessage): Promise<Record<string, unknown>> {
  const type = (req.headers['content-type'] ?? '').split(';')[0]?.trim().toLowerCase() ?? '';
  const text = await rawBody(req);
  if (type !== '' && type !== 'application/json' && !type.endsWith('+json')) {
    throw invalid('The body must be JSON (Content-Type: application/json).');
  }
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw invalid('The body is not valid JSON.');
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value))
    throw invalid('The body must be a JSON object.');
  return value as Record<string, unknown>;
}

/**
 * chrono's `DateTime<Utc>::to_rfc3339()`: nine fraction digits and a `+00:00` offset (not `Z`), the
 * sub-millisecond digits from the monotonic clock.
 */
export function timestamp(at: Date | number = Date.now()): string {
  const d = typeof at === 'number' ? new Date(at) : at;
  const sub = String(process.hrtime.bigint() % 1_000_000n).padStart(6, '0');
  return d.toISOString().replace(/\.(\d{3})Z$/, (_m, ms: string) => `.${ms}${sub}+00:00`);
}
