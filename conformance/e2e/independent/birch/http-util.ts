// Low-level HTTP helpers of birch: envelopes, JSON bodies, gzip. Written like a small Rack/Django
// middleware stack: every answer goes through sendJson so meta and headers are uniform.
import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { gzipSync } from 'node:zlib';

export const CURRENT_VERSION = '2026-07-01';
export const SUPPORTED_VERSIONS = ['2026-07-01', '2026-06-12'];
const MAX_BODY_BYTES = 64 * 1024;

export type Ctx = {
  req: IncomingMessage;
  res: ServerResponse;
  requestId: string;
  version: string;
  method: string;
  path: string;
  query: URLSearchParams;
  origin: string;
  headOnly: boolean;
  extraHeaders: Record<string, string>;
};

export type Meta = {
  requestId: string;
  version: string;
  at: string;
  idempotencyKey?: string;
  replayed?: boolean;
};

export class HttpError extends Error {
  status: number;
  code: string;
  detail: string | undefined;
  hint: string | undefined;
  headers: Record<string, string>;
  constructor(
    status: number,
    code: string,
    message: string,
    opts: { detail?: string; hint?: string; headers?: Record<string, string> } = {},
  ) {
    super(message);
    this.status = status;
    this.code = code;
    this.detail = opts.detail;
    this.hint = opts.hint;
    this.headers = opts.headers ?? {};
  }
}

export const invalid = (message: string, detail?: string): HttpError =>
  new HttpError(400, 'invalid_request', message, {
    detail,
    hint: 'Check the request against /api/public/v1/openapi.json.',
  });
export const notFound = (message = 'The entry does not exist.'): HttpError =>
  new HttpError(404, 'not_found', message, { hint: 'Compare the identifier and the x-service-tenant header.' });

export function newRequestId(): string {
  return randomUUID();
}

export function metaFor(ctx: Ctx, extra: Partial<Meta> = {}): Meta {
  return { requestId: ctx.requestId, version: ctx.version, at: new Date().toISOString(), ...extra };
}

// Writes a JSON body; compresses when the client asked for gzip and the body is worth it.
export function writeJson(ctx: Ctx, status: number, body: unknown, headers: Record<string, string> = {}): void {
  const { req, res } = ctx;
  if (res.headersSent) return;
  let payload: Buffer = Buffer.from(JSON.stringify(body), 'utf8');
  const all: Record<string, string> = {
    'content-type': 'application/json; charset=utf-8',
    'cache-control': 'no-store',
    'x-request-id': ctx.requestId,
    'service-version': ctx.version,
    ...ctx.extraHeaders,
    ...headers,
  };
  const accepts = String(req.headers['accept-encoding'] ?? '');
  if (payload.length > 1024 && /\bgzip\b/.test(accepts)) {
    payload = gzipSync(payload);
    all['content-encoding'] = 'gzip';
    all.vary = 'Accept-Encoding';
  }
  all['content-length'] = String(payload.length);
  res.writeHead(status, all);
  res.end(ctx.headOnly ? undefined : payload);
}

export function sendOk(
  ctx: Ctx,
  data: unknown,
  extraMeta: Partial<Meta> = {},
  headers: Record<string, string> = {},
): void {
  writeJson(ctx, 200, { ok: true, data, meta: metaFor(ctx, extraMeta) }, headers);
}

export function sendError(ctx: Ctx, err: HttpError): void {
  const error: Record<string, string> = { code: err.code, message: err.message };
  if (err.detail !== undefined) error.detail = err.detail;
  if (err.hint !== undefined) error.hint = err.hint;
  writeJson(ctx, err.status, { ok: false, error, meta: metaFor(ctx) }, err.headers);
}

export async function readRaw(req: IncomingMessage): Promise<Buffer> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    const buf = chunk as Buffer;
    size += buf.length;
    if (size > MAX_BODY_BYTES) throw invalid('The request body is too large.', `at most ${MAX_BODY_BYTES} bytes`);
    chunks.push(buf);
  }
  return Buffer.concat(chunks);
}

// Parses a JSON object body; DRF-style: a wrong media type or broken JSON is a 400.
export async function readJsonObject(ctx: Ctx): Promise<Record<string, unknown>> {
  const raw = await readRaw(ctx.req);
  const type = String(ctx.req.headers['content-type'] ?? '').toLowerCase();
  if (!type.startsWith('application/json') && !/^application\/[a-z.+-]*\+json/.test(type)) {
    throw invalid('The body must be JSON.', 'send Content-Type: application/json');
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(raw.toString('utf8'));
  } catch {
    throw invalid('The body is not valid JSON.');
  }
  if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed))
    throw invalid('The body must be a JSON object.');
  return parsed as Record<string, unknown>;
}

// For parameterless actions: no body (or an empty one) is an empty object, anything else must be JSON.
export async function readOptionalJsonObject(ctx: Ctx): Promise<Record<string, unknown>> {
  const length = ctx.req.headers['content-length'];
  const chunked = ctx.req.headers['transfer-encoding'] !== undefined;
  if (!chunked && (length === undefined || length === '0')) return {};
  return readJsonObject(ctx);
}

// Sorted-key serialisation: the idempotency fingerprint and the audit hashes must not depend on key order.
export function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    const obj = value as Record<string, unknown>;
    const keys = Object.keys(obj).sort();
    return `{${keys.map((k) => `${JSON.stringify(k)}:${canonicalJson(obj[k])}`).join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}

export function str(
  body: Record<string, unknown>,
  field: string,
  min: number,
  max: number,
  required = true,
): string | undefined {
  const v = body[field];
  if (v === undefined || v === null) {
    if (required) throw invalid(`Field ${field} is required.`, `${field}: this field is required`);
    return undefined;
  }
  if (typeof v !== 'string') throw invalid(`Field ${field} must be a string.`, `${field}: expected a string`);
  if (v.length < min || v.length > max)
    throw invalid(`Field ${field} has the wrong length.`, `${field}: length ${min} to ${max}`);
  return v;
}
