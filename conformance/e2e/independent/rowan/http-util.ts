// Envelopes, request ids and body reading, the way the team's DRF renderer and exception handler do it.
import { randomBytes } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';

export const CURRENT_VERSION = '2026-07-01';
export const PUBLISHED_VERSIONS = ['2026-06-12', '2026-07-01'];

export interface Ctx {
  req: IncomingMessage;
  res: ServerResponse;
  requestId: string;
  version: string;
  path: string;
  query: URLSearchParams;
  /** The address the call came in on, for DRF-style absolute next/previous links. */
  origin: string;
  headers: Record<string, string>;
}

/** The ALB's trace id (Root=1-…) when present, else one of the same form. */
export function requestIdOf(req: IncomingMessage): string {
  const trace = String(req.headers['x-amzn-trace-id'] ?? '');
  const root = /(?:^|;)\s*Root=(1-[0-9a-f]{8}-[0-9a-f]{24})/i.exec(trace);
  if (root?.[1]) return root[1];
  const epoch = Math.floor(Date.now() / 1000)
    .toString(16)
    .padStart(8, '0');
  return `1-${epoch}-${randomBytes(12).toString('hex')}`;
}

/** Service-Version is optional: a published value is answered as that version, anything else as the current. */
export function versionOf(req: IncomingMessage): string {
  const asked = String(req.headers['service-version'] ?? '').trim();
  return PUBLISHED_VERSIONS.includes(asked) ? asked : CURRENT_VERSION;
}

export function meta(ctx: Ctx, extra: Record<string, unknown> = {}): Record<string, unknown> {
  return { requestId: ctx.requestId, version: ctx.version, at: new Date().toISOString(), ...extra };
}

export function sendJson(ctx: Ctx, status: number, body: unknown): void {
  if (ctx.res.headersSent) return;
  const text = JSON.stringify(body);
  ctx.res.statusCode = status;
  ctx.res.setHeader('Content-Type', 'application/json; charset=utf-8');
  ctx.res.setHeader('Content-Length', Buffer.byteLength(text));
  for (const [k, v] of Object.entries(ctx.headers)) ctx.res.setHeader(k, v);
  ctx.res.end(text);
}

export function ok(ctx: Ctx, data: unknown, extraMeta: Record<string, unknown> = {}): void {
  sendJson(ctx, 200, { ok: true, data, meta: meta(ctx, extraMeta) });
}

export const STATUS_OF: Record<string, number> = {
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

/** A refusal; DRF's exception handler renders it into the failure envelope. */
export class ApiError extends Error {
  code: string;
  detail: string | undefined;
  constructor(code: string, message: string, detail?: string) {
    super(message);
    this.code = code;
    this.detail = detail;
  }
}

export function fail(ctx: Ctx, err: ApiError): void {
  const error: Record<string, string> = { code: err.code, message: err.message };
  if (err.detail) error.detail = err.detail;
  sendJson(ctx, STATUS_OF[err.code] ?? 500, { ok: false, error, meta: meta(ctx) });
}

const MAX_BODY = 256 * 1024;

export async function readBody(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    size += (chunk as Buffer).length;
    if (size > MAX_BODY) throw new ApiError('invalid_request', 'Request body too large.');
    chunks.push(chunk as Buffer);
  }
  return Buffer.concat(chunks).toString('utf8');
}

/** A JSON object body; anything else (a form, a list, broken JSON) is a 400, never a 415. */
export function parseObject(raw: string): Record<string, unknown> {
  let value: unknown;
  try {
    value = JSON.parse(raw);
  } catch {
    throw new ApiError('invalid_request', 'Malformed JSON body.', 'The body must be a JSON object.');
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw new ApiError('invalid_request', 'The body must be a JSON object.');
  }
  return value as Record<string, unknown>;
}

export function str(body: Record<string, unknown>, field: string, min: number, max: number): string {
  const v = body[field];
  if (v === undefined || v === null) throw new ApiError('invalid_request', `${field}: this field is required.`);
  if (typeof v !== 'string') throw new ApiError('invalid_request', `${field}: not a valid string.`);
  if (v.length < min || v.length > max) {
    throw new ApiError('invalid_request', `${field}: length must be between ${min} and ${max}.`);
  }
  return v;
}

/** DRF PageNumberPagination: count, next, previous as absolute URLs of the called address. */
export function paginate<T>(
  ctx: Ctx,
  items: T[],
  pageSize: number,
): { count: number; next: string | null; previous: string | null; page: T[] } {
  const raw = ctx.query.get('page') ?? '1';
  const page = /^[1-9][0-9]{0,6}$/.test(raw) ? Number(raw) : 0;
  if (page < 1) throw new ApiError('not_found', 'Invalid page.');
  const last = Math.max(1, Math.ceil(items.length / pageSize));
  if (page > last) throw new ApiError('not_found', 'Invalid page.');
  const link = (n: number): string => {
    const q = new URLSearchParams(ctx.query);
    if (n === 1) q.delete('page');
    else q.set('page', String(n));
    const qs = q.toString();
    return `${ctx.origin}${ctx.path}/${qs ? `?${qs}` : ''}`;
  };
  return {
    count: items.length,
    next: page < last ? link(page + 1) : null,
    previous: page > 1 ? link(page - 1) : null,
    page: items.slice((page - 1) * pageSize, page * pageSize),
  };
}
