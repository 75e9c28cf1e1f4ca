// Envelopes, errors and body reading shared by every handler.
import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';

export const VERSION = '2026-07-01';
export const PUBLISHED_VERSIONS = ['2026-06-12', '2026-07-01'];

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

export interface Meta {
  requestId: string;
  version: string;
  at: string;
  idempotencyKey?: string;
  replayed?: boolean;
}

/** A refusal thrown by a handler and written as the failure envelope. */
export class ApiError extends Error {
  code: string;
  detail?: string;
  headers: Record<string, string>;
  constructor(code: string, message: string, detail?: string, headers: Record<string, string> = {}) {
    super(message);
    this.code = code;
    this.detail = detail;
    this.headers = headers;
  }
  get status(): number {
    return STATUS[this.code] ?? 500;
  }
}

export function newMeta(): Meta {
  return { requestId: `req-${randomUUID()}`, version: VERSION, at: new Date().toISOString() };
}

export function sendJson(
  res: ServerResponse,
  status: number,
  body: unknown,
  headers: Record<string, string> = {},
): void {
  const text = JSON.stringify(body);
  res.writeHead(status, {
    'content-type': 'application/json; charset=utf-8',
    'cache-control': 'no-store',
    'service-version': VERSION,
    ...headers,
  });
  res.end(text);
}

export function sendOk(res: ServerResponse, meta: Meta, data: unknown, headers: Record<string, string> = {}): void {
  res.setHeader('x-request-id', meta.requestId);
  sendJson(res, 200, { ok: true, data, meta }, headers);
}

export function sendError(res: ServerResponse, meta: Meta, err: ApiError): void {
  const error: Record<string, string> = { code: err.code, message: err.message };
  if (err.detail) error.detail = err.detail;
  res.setHeader('x-request-id', meta.requestId);
  sendJson(res, err.status, { ok: false, error, meta }, err.headers);
}

/** Reads a JSON object body (64 KiB at most); anything else is invalid_request. */
export async function readJson(req: IncomingMessage): Promise<Record<string, unknown>> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const c of req) {
    size += (c as Buffer).length;
    if (size > 65536) throw new ApiError('invalid_request', 'Body too large.', 'at most 64 KiB');
    chunks.push(c as Buffer);
  }
  const raw = Buffer.concat(chunks).toString('utf8');
  if (raw.trim() === '') throw new ApiError('invalid_request', 'A JSON body is required.');
  let parsed: unknown;
  try {
    parsed = JSON.parse(raw);
  } catch {
    throw new ApiError('invalid_request', 'The body is not valid JSON.');
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) {
    throw new ApiError('invalid_request', 'The body must be a JSON object.');
  }
  return parsed as Record<string, unknown>;
}

/** Canonical JSON (sorted keys) for fingerprints and the audit hash chain. */
export function canonical(v: unknown): string {
  if (Array.isArray(v)) return `[${v.map(canonical).join(',')}]`;
  if (v && typeof v === 'object') {
    const o = v as Record<string, unknown>;
    return `{${Object.keys(o)
      .sort()
      .filter((k) => o[k] !== undefined)
      .map((k) => `${JSON.stringify(k)}:${canonical(o[k])}`)
      .join(',')}}`;
  }
  return JSON.stringify(v);
}

export function str(body: Record<string, unknown>, field: string, min: number, max: number): string {
  const v = body[field];
  if (typeof v !== 'string') throw new ApiError('invalid_request', `Field ${field} is required and must be a string.`);
  if (v.length < min || v.length > max) {
    throw new ApiError('invalid_request', `Field ${field} must be ${min} to ${max} characters long.`);
  }
  return v;
}

export const ENVIRONMENTS = ['development', 'sandbox', 'pilot', 'production'];

export function env(body: Record<string, unknown>, field: string, fallback?: string): string {
  const v = body[field] === undefined ? fallback : body[field];
  if (typeof v !== 'string' || !ENVIRONMENTS.includes(v)) {
    throw new ApiError('invalid_request', `Field ${field} must be one of ${ENVIRONMENTS.join(', ')}.`);
  }
  return v;
}
