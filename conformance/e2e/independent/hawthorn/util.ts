// Shared plumbing of hawthorn: the request context, the envelopes (the JAX-RS ContainerResponseFilter of
// a Quarkus service would add meta and headers; here one function does it), ids and canonical JSON.
import { createHash, randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';

export const CURRENT_VERSION = '2026-07-01';
export const PUBLISHED_VERSIONS = ['2026-07-01', '2026-06-12'];
export const KEY_PATTERN = /^[A-Za-z0-9._:-]{8,128}$/;

export interface RateInfo {
  limit: number;
  remaining: number;
  retryAfter?: number;
}

export interface Ctx {
  req: IncomingMessage;
  res: ServerResponse;
  url: URL;
  /** The origin the caller used (main or alternate port), for links. */
  origin: string;
  requestId: string;
  /** The version this call is answered as (Service-Version when published, else the current one). */
  version: string;
  idempotencyKey?: string;
  rate?: RateInfo;
  clientId?: string;
  tenant?: string;
}

/** Jackson's default for OffsetDateTime ("…Z", milliseconds) or, switched, nanoseconds with "+00:00". */
let timeStyle: 'z' | 'offset-nanos' = 'z';
export function setTimeStyle(style: 'z' | 'offset-nanos'): void {
  timeStyle = style;
}

export function nowIso(): string {
  const iso = new Date().toISOString();
  if (timeStyle === 'z') return iso;
  const nanos = String(process.hrtime.bigint() % 1_000_000n).padStart(6, '0');
  return `${iso.slice(0, -1)}${nanos}+00:00`;
}

export function uuid(): string {
  return randomUUID();
}

export function sha256Hex(text: string | Buffer): string {
  return createHash('sha256').update(text).digest('hex');
}

/** Canonical JSON (keys sorted, no spaces): the fingerprint of idempotent bodies and the audit chain. */
export function canonical(value: unknown): string {
  if (value === null || typeof value !== 'object') return JSON.stringify(value) ?? 'null';
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`;
  const obj = value as Record<string, unknown>;
  const keys = Object.keys(obj)
    .filter((k) => obj[k] !== undefined)
    .sort();
  return `{${keys.map((k) => `${JSON.stringify(k)}:${canonical(obj[k])}`).join(',')}}`;
}

function baseHeaders(ctx: Ctx): Record<string, string> {
  const h: Record<string, string> = {
    'content-type': 'application/json;charset=UTF-8',
    'x-request-id': ctx.requestId,
    'service-version': ctx.version,
    'cache-control': 'no-store',
  };
  if (ctx.rate) {
    h['x-ratelimit-limit'] = String(ctx.rate.limit);
    h['x-ratelimit-remaining'] = String(ctx.rate.remaining);
    if (ctx.rate.retryAfter !== undefined) h['retry-after'] = String(ctx.rate.retryAfter);
  }
  return h;
}

export interface MetaExtra {
  replayed?: boolean;
}

export function meta(ctx: Ctx, extra: MetaExtra = {}): Record<string, unknown> {
  const m: Record<string, unknown> = { requestId: ctx.requestId, version: ctx.version, at: nowIso() };
  if (ctx.idempotencyKey !== undefined) m.idempotencyKey = ctx.idempotencyKey;
  if (extra.replayed) m.replayed = true;
  return m;
}

export function sendData(ctx: Ctx, data: unknown, extra: MetaExtra = {}, headers: Record<string, string> = {}): void {
  const body = JSON.stringify({ ok: true, data, meta: meta(ctx, extra) });
  ctx.res.writeHead(200, { ...baseHeaders(ctx), ...headers });
  ctx.res.end(body);
}

export class ApiError extends Error {
  status: number;
  code: string;
  detail?: string;
  hint?: string;
  constructor(status: number, code: string, message: string, detail?: string, hint?: string) {
    super(message);
    this.status = status;
    this.code = code;
    this.detail = detail;
    this.hint = hint;
  }
}

export function sendError(ctx: Ctx, err: ApiError, headers: Record<string, string> = {}): void {
  const error: Record<string, string> = { code: err.code, message: err.message };
  if (err.detail) error.detail = err.detail;
  if (err.hint) error.hint = err.hint;
  const body = JSON.stringify({ ok: false, error, meta: meta(ctx) });
  if (ctx.res.headersSent) return;
  ctx.res.writeHead(err.status, { ...baseHeaders(ctx), ...headers });
  ctx.res.end(body);
}

export const invalid = (detail: string) =>
  new ApiError(
    400,
    'invalid_request',
    'Request incomplete or unsuitable',
    detail,
    'Check the request against the published description',
  );
export const notFound = (detail = 'No such entry for this tenant') =>
  new ApiError(404, 'not_found', 'The entry does not exist', detail, 'Compare identifier and tenant header');

const MAX_BODY = 64 * 1024;

/** Reads a JSON object body; anything else is 400 (never 415: no endpoint of the interface answers it). */
export async function readJson(req: IncomingMessage): Promise<Record<string, unknown>> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    size += (chunk as Buffer).length;
    if (size > MAX_BODY) throw invalid('body: larger than 65536 bytes');
    chunks.push(chunk as Buffer);
  }
  const text = Buffer.concat(chunks).toString('utf8');
  if (text.trim() === '') throw invalid('body: must be a JSON object');
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    throw invalid('body: malformed JSON');
  }
  if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed))
    throw invalid('body: must be a JSON object');
  return parsed as Record<string, unknown>;
}
