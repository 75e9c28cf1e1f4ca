// Envelopes, request ids and small HTTP helpers of ironwood. Every answer carries a GUID request id, in
// meta.requestId and in the team's own header x-ironwood-request-id (the interface names no header).
import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';

export const VERSION = '2026-07-01';
export const PREFIX = '/api/public/v1';

/** What one call carries through the handlers. */
export interface Call {
  req: IncomingMessage;
  res: ServerResponse;
  requestId: string;
  url: URL;
  path: string;
  method: string;
  headers: Record<string, string>;
  idempotencyKey?: string;
}

export interface Meta {
  requestId: string;
  version: string;
  at: string;
  idempotencyKey?: string;
  replayed?: boolean;
}

/** A stored answer: status, body, extra headers; replays re-send it with a fresh meta. */
export interface Answer {
  status: number;
  body: Record<string, unknown>;
}

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

/** A refusal thrown by a handler and turned into the failure envelope. */
export class ApiError extends Error {
  code: string;
  detail: string | undefined;
  hint: string | undefined;
  constructor(code: string, message: string, detail?: string, hint?: string) {
    super(message);
    this.code = code;
    this.detail = detail;
    this.hint = hint;
  }
  get status(): number {
    return STATUS[this.code] ?? 500;
  }
}

export function newCall(req: IncomingMessage, res: ServerResponse): Call {
  const url = new URL(req.url ?? '/', 'http://127.0.0.1');
  const headers: Record<string, string> = {};
  for (const [k, v] of Object.entries(req.headers)) {
    if (typeof v === 'string') headers[k.toLowerCase()] = v;
    else if (Array.isArray(v)) headers[k.toLowerCase()] = v.join(', ');
  }
  return { req, res, requestId: randomUUID(), url, path: url.pathname, method: req.method ?? 'GET', headers };
}

export function meta(call: Call, extra: Partial<Meta> = {}): Meta {
  const m: Meta = { requestId: call.requestId, version: VERSION, at: new Date().toISOString() };
  if (call.idempotencyKey !== undefined) m.idempotencyKey = call.idempotencyKey;
  return { ...m, ...extra };
}

export function sendJson(call: Call, status: number, body: unknown, extraHeaders: Record<string, string> = {}): void {
  if (call.res.headersSent) return;
  const text = JSON.stringify(body);
  call.res.writeHead(status, {
    'content-type': 'application/json; charset=utf-8',
    'content-length': Buffer.byteLength(text),
    'x-ironwood-request-id': call.requestId,
    'service-version': VERSION,
    ...extraHeaders,
  });
  call.res.end(text);
}

export function ok(call: Call, data: Record<string, unknown>, extra: Partial<Meta> = {}): Answer {
  return { status: 200, body: { ok: true, data, meta: meta(call, extra) } };
}

export function failure(call: Call, err: ApiError): Answer {
  const error: Record<string, string> = { code: err.code, message: err.message };
  if (err.detail !== undefined) error.detail = err.detail;
  if (err.hint !== undefined) error.hint = err.hint;
  return { status: err.status, body: { ok: false, error, meta: meta(call) } };
}

const MAX_BODY = 256 * 1024;

/** Reads a JSON object body; an empty, oversized or malformed body is a 400. */
export async function readJson(req: IncomingMessage): Promise<Record<string, unknown>> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    size += (chunk as Buffer).length;
    if (size > MAX_BODY) throw new ApiError('invalid_request', 'The request body is too large.');
    chunks.push(chunk as Buffer);
  }
  const text = Buffer.concat(chunks).toString('utf8');
  if (text.trim() === '') throw new ApiError('invalid_request', 'A JSON request body is required.');
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    throw new ApiError('invalid_request', 'The request body is not valid JSON.');
  }
  if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed)) {
    throw new ApiError('invalid_request', 'The request body must be a JSON object.');
  }
  return parsed as Record<string, unknown>;
}

/** Drains a body nobody reads, so keep-alive sockets stay usable. */
export async function drain(req: IncomingMessage): Promise<void> {
  for await (const _ of req) {
    // discard
  }
}

/** RFC 8785-style canonical JSON for the values ironwood stores (strings, numbers, booleans, arrays, objects). */
export function canonical(value: unknown): string {
  if (value === null || typeof value !== 'object') return JSON.stringify(value);
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`;
  const obj = value as Record<string, unknown>;
  const keys = Object.keys(obj)
    .filter((k) => obj[k] !== undefined)
    .sort();
  return `{${keys.map((k) => `${JSON.stringify(k)}:${canonical(obj[k])}`).join(',')}}`;
}
