// Request context, envelopes and body parsing: the "Fiber middleware" layer of zelkova, on plain node:http.
import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';

export const CURRENT_VERSION = '2026-07-01';
export const KNOWN_VERSIONS = ['2026-07-01', '2026-06-12'];
export const BASE = '/api/public/v1';

/** What the auth middleware resolved: the access (client), its tenant and environment. */
export interface Access {
  clientId: string;
  tenant: string;
  environment: string;
}

export interface Ctx {
  req: IncomingMessage;
  res: ServerResponse;
  url: URL;
  /** Path below nothing: trailing slashes trimmed, so `/api/public/v1/` routes like `/api/public/v1`. */
  path: string;
  method: string;
  requestId: string;
  version: string;
  access?: Access;
  /** Rate-limit headers to send on every answer once the access was counted. */
  rateHeaders?: Record<string, string>;
  raw?: string;
}

export class ApiError extends Error {
  status: number;
  code: string;
  detail?: string;
  hint?: string;
  headers?: Record<string, string>;
  /** Extra meta of the failure envelope (a replayed refusal names its key). */
  meta?: Record<string, unknown>;
  constructor(status: number, code: string, message: string, detail?: string, hint?: string) {
    super(message);
    this.status = status;
    this.code = code;
    this.detail = detail;
    this.hint = hint;
  }
}

export const bad = (message: string, detail?: string) =>
  new ApiError(400, 'invalid_request', message, detail, 'check the request against the published description');
export const notFound = (message = 'the entry does not exist') =>
  new ApiError(404, 'not_found', message, undefined, 'compare identifier and tenant header');

/** Postgres renders timestamptz as `…+00:00` with microseconds; zelkova keeps that form (RFC 3339). */
export function pgTime(ms: number = Date.now()): string {
  return new Date(ms).toISOString().replace(/\.(\d{3})Z$/, '.$1000+00:00');
}

export function newCtx(req: IncomingMessage, res: ServerResponse): Ctx {
  const url = new URL(req.url ?? '/', 'http://127.0.0.1');
  const path = url.pathname.length > 1 ? url.pathname.replace(/\/+$/, '') : url.pathname;
  const asked = header(req, 'service-version');
  // A published version is answered as itself; an unknown one is ignored like any unknown header (Fiber default).
  const version = asked && KNOWN_VERSIONS.includes(asked) ? asked : CURRENT_VERSION;
  return { req, res, url, path, method: req.method ?? 'GET', requestId: randomUUID(), version };
}

export function header(req: IncomingMessage, name: string): string | undefined {
  const v = req.headers[name.toLowerCase()];
  return Array.isArray(v) ? v[0] : v;
}

export function meta(ctx: Ctx, extra: Record<string, unknown> = {}) {
  return { requestId: ctx.requestId, version: ctx.version, at: pgTime(), ...extra };
}

function send(ctx: Ctx, status: number, body: unknown, headers: Record<string, string> = {}): void {
  if (ctx.res.headersSent) return;
  const text = JSON.stringify(body);
  ctx.res.writeHead(status, {
    'content-type': 'application/json; charset=utf-8',
    'x-request-id': ctx.requestId,
    'cache-control': 'no-store',
    ...ctx.rateHeaders,
    ...headers,
  });
  ctx.res.end(text);
}

export function ok(ctx: Ctx, data: unknown, extraMeta: Record<string, unknown> = {}): void {
  send(ctx, 200, { ok: true, data, meta: meta(ctx, extraMeta) });
}

export function fail(ctx: Ctx, e: ApiError): void {
  const error: Record<string, string> = { code: e.code, message: e.message };
  if (e.detail) error.detail = e.detail;
  if (e.hint) error.hint = e.hint;
  send(ctx, e.status, { ok: false, error, meta: meta(ctx, e.meta) }, e.headers);
}

export function internal(ctx: Ctx): void {
  fail(
    ctx,
    new ApiError(
      500,
      'internal',
      'fault on the service side',
      undefined,
      'note the request identifier and inform support',
    ),
  );
}

/** Reads the whole body (at most 1 MiB). */
export async function readRaw(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const c of req) {
    size += (c as Buffer).length;
    if (size > 1_048_576) throw new ApiError(400, 'invalid_request', 'request body too large');
    chunks.push(c as Buffer);
  }
  return Buffer.concat(chunks).toString('utf8');
}

/** A JSON object body, or 400 invalid_request. */
export function jsonObject(ctx: Ctx): Record<string, unknown> {
  const ct = header(ctx.req, 'content-type') ?? '';
  if (!/^application\/([\w.+-]*\+)?json\b/i.test(ct))
    throw bad('the body must be JSON', 'content-type must be application/json');
  let value: unknown;
  try {
    value = JSON.parse(ctx.raw ?? '');
  } catch {
    throw bad('the body is not valid JSON');
  }
  if (!value || typeof value !== 'object' || Array.isArray(value)) throw bad('the body must be a JSON object');
  return value as Record<string, unknown>;
}
