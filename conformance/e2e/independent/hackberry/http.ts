// Envelopes, request ids and body reading, as a Dream app's middleware stack would provide them: Dream numbers
// requests with a per-process counter (its `request_id` field), so meta.requestId is that decimal counter.
import type { IncomingMessage, ServerResponse } from 'node:http';

// biome-ignore lint/suspicious/noExplicitAny: JSON records, as ppx_yojson_conv's Yojson.Safe.t
export type Rec = Record<string, any>;

export const VERSION = '2026-07-01';
export const VERSIONS = ['2026-06-12', '2026-07-01'] as const;
export const BASE = '/api/public/v1';

let counter = 0;

/** One call's context: its id, the version it reports, the idempotency key it replays under. */
export interface Call {
  req: IncomingMessage;
  res: ServerResponse;
  requestId: string;
  path: string;
  query: URLSearchParams;
  headers: Record<string, string>;
}

export function newCall(req: IncomingMessage, res: ServerResponse): Call {
  counter += 1;
  const url = new URL(req.url ?? '/', 'http://127.0.0.1');
  const headers: Record<string, string> = {};
  for (const [k, v] of Object.entries(req.headers)) {
    if (typeof v === 'string') headers[k] = v;
    else if (Array.isArray(v)) headers[k] = v.join(', ');
  }
  const path = url.pathname.length > 1 ? url.pathname.replace(/\/+$/, '') : url.pathname;
  return { req, res, requestId: String(counter), path, query: url.searchParams, headers };
}

export function meta(call: Call, extra: Rec = {}): Rec {
  return { requestId: call.requestId, version: VERSION, at: new Date().toISOString(), ...extra };
}

export function sendJson(call: Call, status: number, body: unknown, headers: Record<string, string> = {}): void {
  if (call.res.headersSent) return;
  const text = JSON.stringify(body);
  call.res.writeHead(status, {
    'content-type': 'application/json; charset=utf-8',
    'content-length': String(Buffer.byteLength(text)),
    'x-request-id': call.requestId,
    'service-version': VERSION,
    ...headers,
  });
  call.res.end(text);
}

export function ok(call: Call, data: Rec, extraMeta: Rec = {}): void {
  sendJson(call, 200, { ok: true, data, meta: meta(call, extraMeta) });
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

/** The thrown form of a failure, so handlers read like Dream's `Lwt_result` chains: fail early, answer once. */
export class Failure extends Error {
  readonly code: string;
  readonly extra: { detail?: string; hint?: string; headers?: Record<string, string> };
  constructor(code: string, message: string, extra: Failure['extra'] = {}) {
    super(message);
    this.code = code;
    this.extra = extra;
  }
}

export function fail(call: Call, f: Failure): void {
  const error: Rec = { code: f.code, message: f.message };
  if (f.extra.detail) error.detail = f.extra.detail;
  if (f.extra.hint) error.hint = f.extra.hint;
  sendJson(call, STATUS[f.code] ?? 500, { ok: false, error, meta: meta(call) }, f.extra.headers ?? {});
}

export async function readRaw(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const c of req) chunks.push(c as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

/** The JSON object body; Yojson's parse error becomes a plain 400 without the parser's internals. */
export async function readJson(call: Call, allowEmpty = false): Promise<Rec> {
  const raw = await readRaw(call.req);
  if (allowEmpty && raw.trim() === '') return {};
  let parsed: unknown;
  try {
    parsed = JSON.parse(raw);
  } catch {
    throw new Failure('invalid_request', 'request body is not valid JSON', { hint: 'send a JSON object' });
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) {
    throw new Failure('invalid_request', 'request body must be a JSON object');
  }
  return parsed as Rec;
}
