// Shared plumbing: the contract's envelopes, Nest-like HttpException, ids and canonical JSON.
import { createHash, randomBytes, randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';

export const CURRENT_VERSION = '2026-07-01';
export const VERSIONS = ['2026-06-12', '2026-07-01'];
export const BASE = '/api/public/v1';

/** Per-call context, what Nest keeps on the request object after guards and interceptors ran. */
export interface Ctx {
  req: IncomingMessage;
  res: ServerResponse;
  requestId: string;
  version: string;
  path: string;
  query: URLSearchParams;
  clientId?: string;
  tenant?: string;
  idempotencyKey?: string;
  replayed?: boolean;
}

/** Nest's HttpException reshaped: the exception filter turns it into the failure envelope. */
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

export const badRequest = (detail: string): ApiError =>
  new ApiError(
    400,
    'invalid_request',
    'Request incomplete or unsuitable',
    detail,
    'Check the request against the published description',
  );
export const notFound = (detail = 'No such entry'): ApiError =>
  new ApiError(404, 'not_found', 'The entry does not exist', detail, 'Compare identifier and tenant header');

/** cuid-like id: "c" + time base36 + counter + random, all lowercase, 25 chars. */
let counter = 0;
export function cuid(): string {
  counter = (counter + 1) % 1679616;
  const t = Date.now().toString(36).padStart(8, '0');
  const c = counter.toString(36).padStart(4, '0');
  const r = BigInt(`0x${randomBytes(8).toString('hex')}`)
    .toString(36)
    .padStart(12, '0')
    .slice(0, 12);
  return `c${t}${c}${r}`;
}

export const newRequestId = (): string => randomUUID();
export const sha256 = (s: string): string => createHash('sha256').update(s).digest('hex');

/** Sorted-key JSON, the fingerprint and hash input (so key order in a body never matters). */
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
  return JSON.stringify(v) ?? 'null';
}

export function meta(ctx: Ctx): Record<string, unknown> {
  const m: Record<string, unknown> = { requestId: ctx.requestId, version: ctx.version, at: new Date().toISOString() };
  if (ctx.idempotencyKey) m.idempotencyKey = ctx.idempotencyKey;
  if (ctx.replayed !== undefined) m.replayed = ctx.replayed;
  return m;
}

export function sendJson(
  res: ServerResponse,
  status: number,
  body: unknown,
  headers: Record<string, string> = {},
): void {
  if (res.headersSent) return;
  const text = JSON.stringify(body);
  res.writeHead(status, {
    'content-type': 'application/json; charset=utf-8',
    'content-length': String(Buffer.byteLength(text)),
    ...headers,
  });
  res.end(text);
}

export const ok = (ctx: Ctx, data: unknown): void => sendJson(ctx.res, 200, { ok: true, data, meta: meta(ctx) });

export function fail(ctx: Ctx, e: ApiError): void {
  const error: Record<string, unknown> = { code: e.code, message: e.message };
  if (e.detail) error.detail = e.detail;
  if (e.hint) error.hint = e.hint;
  sendJson(ctx.res, e.status, { ok: false, error, meta: meta(ctx) }, e.headers ?? {});
}

/** Reads the raw body (Nest's body-parser: JSON and urlencoded, 100 kB limit). */
export async function readBody(req: IncomingMessage): Promise<unknown> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    size += (chunk as Buffer).length;
    if (size > 100_000) throw badRequest('request body larger than 100 kB');
    chunks.push(chunk as Buffer);
  }
  const raw = Buffer.concat(chunks).toString('utf8');
  if (raw.trim() === '') return undefined;
  const type = String(req.headers['content-type'] ?? '').toLowerCase();
  if (type.includes('application/x-www-form-urlencoded')) return Object.fromEntries(new URLSearchParams(raw));
  try {
    return JSON.parse(raw);
  } catch {
    throw badRequest('body is not valid JSON');
  }
}
