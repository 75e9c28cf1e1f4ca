// Envelopes, errors and body reading: the shape every JSON answer of alder takes (the contract's success
// and failure envelopes), kept in one place so no controller builds its own.
import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';

export const CURRENT_VERSION = '2026-07-01';
export const PUBLISHED_VERSIONS = ['2026-06-12', '2026-07-01'];

/** The Errors table: each code with the only status it is sent with. */
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

/** One call in flight: what the pipeline learned so far and the headers to send with the answer. */
export interface Call {
  req: IncomingMessage;
  res: ServerResponse;
  url: URL;
  origin: string;
  requestId: string;
  version: string;
  headers: Record<string, string>;
  clientId?: string;
  tenant?: string;
  idempotencyKey?: string;
}

/** A refusal thrown anywhere in a controller and answered with the failure envelope. */
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

export function newCall(req: IncomingMessage, res: ServerResponse): Call {
  const host = req.headers.host ?? '127.0.0.1';
  const url = new URL(req.url ?? '/', `http://${host}`);
  const asked = header(req, 'service-version');
  // Unknown or absent Service-Version: served as the current version (Rails teams ignore what they do not know).
  const version = asked && PUBLISHED_VERSIONS.includes(asked) ? asked : CURRENT_VERSION;
  return { req, res, url, origin: `http://${host}`, requestId: randomUUID(), version, headers: {} };
}

export function header(req: IncomingMessage, name: string): string | undefined {
  const v = req.headers[name.toLowerCase()];
  return Array.isArray(v) ? v[0] : v;
}

export function meta(call: Call, extra: Record<string, unknown> = {}): Record<string, unknown> {
  return { requestId: call.requestId, version: call.version, at: new Date().toISOString(), ...extra };
}

export function sendJson(call: Call, status: number, body: unknown): void {
  if (call.res.headersSent) return;
  const text = JSON.stringify(body);
  call.res.writeHead(status, {
    ...call.headers,
    'Content-Type': 'application/json; charset=utf-8',
    'Content-Length': Buffer.byteLength(text),
    'X-Request-Id': call.requestId,
    'Cache-Control': 'no-store',
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
  sendJson(call, ERROR_STATUS[err.code] ?? 500, { ok: false, error, meta: meta(call) });
}

/** Reads the raw body; past 1 MiB the rest is drained unread and the call refused (400), not buffered. */
export function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (c: Buffer) => {
      size += c.length;
      if (size <= 1_048_576) chunks.push(c);
    });
    req.on('end', () => {
      if (size > 1_048_576) reject(new ApiError('invalid_request', 'Request body too large', 'the limit is 1 MiB'));
      else resolve(Buffer.concat(chunks).toString('utf8'));
    });
    req.on('error', reject);
  });
}

/** Parses a JSON object body; anything else (form, text, array) is a 400. */
export async function jsonBody(call: Call): Promise<Record<string, unknown>> {
  const raw = await readBody(call.req);
  const type = header(call.req, 'content-type') ?? '';
  if (!/^application\/(.+\+)?json\b/i.test(type)) {
    throw new ApiError('invalid_request', 'Request body must be JSON', 'send Content-Type: application/json');
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(raw);
  } catch {
    throw new ApiError('invalid_request', 'Request body is not valid JSON');
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) {
    throw new ApiError('invalid_request', 'Request body must be a JSON object');
  }
  return parsed as Record<string, unknown>;
}

/** Rails-style timestamps: ISO 8601 in UTC with milliseconds. */
export function now(): string {
  return new Date().toISOString();
}
