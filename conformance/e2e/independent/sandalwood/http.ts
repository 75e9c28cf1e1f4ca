// Wire helpers: identifiers, the success and failure envelopes (with google.rpc.Status-like details) and body reading.
import { randomBytes } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';

export const CURRENT_VERSION = '2026-07-01';
export const VERSIONS = ['2026-07-01', '2026-06-12'] as const;
export const PREFIX = '/api/public/v1';

const ALPHABET = 'abcdefghijklmnopqrstuvwxyz234567';
/** A lowercase base32 identifier with a kind prefix, e.g. `conn-k3x...`. */
export function newId(prefix: string, length = 20): string {
  const bytes = randomBytes(length);
  let out = '';
  for (const b of bytes) out += ALPHABET[b % 32];
  return `${prefix}-${out}`;
}

/** What every handler gets: the call's identity and the meta it answers with. */
export interface Call {
  req: IncomingMessage;
  res: ServerResponse;
  requestId: string;
  version: string;
  url: URL;
  /** Set once the call is authenticated. */
  clientId?: string;
  tenant?: string;
  idempotencyKey?: string;
  replayed?: boolean;
}

export function meta(call: Call): Record<string, unknown> {
  const m: Record<string, unknown> = { requestId: call.requestId, version: call.version, at: new Date().toISOString() };
  if (call.idempotencyKey !== undefined) {
    m.idempotencyKey = call.idempotencyKey;
    m.replayed = call.replayed === true;
  }
  return m;
}

export function sendJson(call: Call, status: number, body: unknown, headers: Record<string, string> = {}): void {
  const text = JSON.stringify(body);
  call.res.writeHead(status, {
    'content-type': 'application/json; charset=utf-8',
    'cache-control': 'no-store',
    'x-content-type-options': 'nosniff',
    'x-request-id': call.requestId,
    ...headers,
  });
  call.res.end(text);
}

export function ok(call: Call, data: unknown): void {
  sendJson(call, 200, { ok: true, data, meta: meta(call) });
}

const TABLE = {
  invalid_request: [400, 'INVALID_ARGUMENT'],
  unauthorized: [401, 'UNAUTHENTICATED'],
  forbidden: [403, 'PERMISSION_DENIED'],
  not_found: [404, 'NOT_FOUND'],
  capability_denied: [409, 'FAILED_PRECONDITION'],
  idempotency_conflict: [409, 'ABORTED'],
  idempotency_required: [428, 'FAILED_PRECONDITION'],
  rate_limited: [429, 'RESOURCE_EXHAUSTED'],
  internal: [500, 'INTERNAL'],
} as const;
export type ErrorCode = keyof typeof TABLE;

/** A failure the handlers throw; the server turns it into the failure envelope. */
export class ApiError extends Error {
  readonly code: ErrorCode;
  readonly detail: string | undefined;
  readonly hint: string | undefined;
  readonly violations: { field: string; description: string }[];
  readonly headers: Record<string, string>;
  constructor(
    code: ErrorCode,
    message: string,
    extra: { detail?: string; hint?: string; field?: string; headers?: Record<string, string> } = {},
  ) {
    super(message);
    this.code = code;
    this.detail = extra.detail;
    this.hint = extra.hint;
    this.violations = extra.field ? [{ field: extra.field, description: message }] : [];
    this.headers = extra.headers ?? {};
  }
}

export function fail(call: Call, err: ApiError): void {
  const [status, rpc] = TABLE[err.code];
  const details: unknown[] = [
    {
      '@type': 'type.googleapis.com/google.rpc.ErrorInfo',
      reason: err.code.toUpperCase(),
      domain: 'sandalwood.networkconnections',
    },
    { '@type': 'type.googleapis.com/google.rpc.RequestInfo', requestId: call.requestId },
  ];
  if (err.violations.length > 0)
    details.push({ '@type': 'type.googleapis.com/google.rpc.BadRequest', fieldViolations: err.violations });
  const error: Record<string, unknown> = { code: err.code, message: err.message, status: rpc };
  if (err.detail !== undefined) error.detail = err.detail;
  if (err.hint !== undefined) error.hint = err.hint;
  error.details = details;
  sendJson(call, status, { ok: false, error, meta: meta(call) }, err.headers);
}

/** Reads a JSON object body (at most 1 MiB); anything else is invalid_request. */
export async function readJson(req: IncomingMessage): Promise<{ raw: string; body: Record<string, unknown> }> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    size += (chunk as Buffer).length;
    if (size > 1_048_576) throw new ApiError('invalid_request', 'Request body exceeds 1 MiB.');
    chunks.push(chunk as Buffer);
  }
  const raw = Buffer.concat(chunks).toString('utf8');
  if (raw.trim() === '') throw new ApiError('invalid_request', 'A JSON object body is required.');
  let parsed: unknown;
  try {
    parsed = JSON.parse(raw);
  } catch {
    throw new ApiError('invalid_request', 'The body is not valid JSON.');
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed))
    throw new ApiError('invalid_request', 'The body must be a JSON object.');
  return { raw, body: parsed as Record<string, unknown> };
}

/** A required string field of length min..max. */
export function str(body: Record<string, unknown>, field: string, min: number, max: number): string {
  const v = body[field];
  if (v === undefined || v === null) throw new ApiError('invalid_request', `${field} is required.`, { field });
  if (typeof v !== 'string') throw new ApiError('invalid_request', `${field} must be a string.`, { field });
  if (v.length < min || v.length > max)
    throw new ApiError('invalid_request', `${field} must be ${min} to ${max} characters long.`, { field });
  return v;
}

/** Canonical JSON (sorted keys; RFC 8785 for the strings, integers and booleans this service stores). */
export function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>)
      .filter(([, v]) => v !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonical(v)}`).join(',')}}`;
  }
  return JSON.stringify(value);
}

/** Opaque page tokens: base64url of the next offset. */
export function page<T>(items: T[], url: URL, defaultSize = 50): { items: T[]; nextPageToken: string } {
  const sizeText = url.searchParams.get('pageSize');
  const size = sizeText === null ? defaultSize : Number(sizeText);
  if (!Number.isInteger(size) || size < 1 || size > 1000)
    throw new ApiError('invalid_request', 'pageSize must be an integer from 1 to 1000.', { field: 'pageSize' });
  const token = url.searchParams.get('pageToken');
  let offset = 0;
  if (token) {
    offset = Number(Buffer.from(token, 'base64url').toString('utf8').replace(/^o:/, ''));
    if (!Number.isInteger(offset) || offset < 0)
      throw new ApiError('invalid_request', 'pageToken is not valid.', { field: 'pageToken' });
  }
  const slice = items.slice(offset, offset + size);
  const next = offset + size < items.length ? Buffer.from(`o:${offset + size}`).toString('base64url') : '';
  return { items: slice, nextPageToken: next };
}
