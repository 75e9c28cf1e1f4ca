// The HTTP plumbing every handler shares: the envelopes, content negotiation, compression, strong ETags,
// chunked bodies, and strict JSON request bodies. One place, so every route answers the same way.
import { createHash } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';
import { newId, timestamp } from './values.ts';

export const VERSION = '2026-07-01';

/** Process-wide HTTP style (start.ts: BUCKEYE_NO_COMPRESSION=1 turns compression off). */
export const httpStyle = { compress: true };
export const VERSIONS = ['2026-07-01', '2026-06-12'];

/** One request in flight. */
export interface Ctx {
  req: IncomingMessage;
  res: ServerResponse;
  url: URL;
  method: string;
  requestId: string;
  version: string;
  params: Record<string, string>;
}

/** A refusal with the contract's code; the status follows the code table. */
export class ApiError extends Error {
  status: number;
  code: string;
  detail: string | undefined;
  hint: string | undefined;
  headers: Record<string, string>;
  /** Extra meta fields (a replayed refusal names its key). */
  meta: Record<string, unknown> = {};
  constructor(status: number, code: string, message: string, detail?: string, hint?: string) {
    super(message);
    this.status = status;
    this.code = code;
    this.detail = detail;
    this.hint = hint;
    this.headers = {};
  }
}

export const badRequest = (message: string, detail?: string) =>
  new ApiError(400, 'invalid_request', message, detail, 'check the request against /api/public/v1/openapi.json');
export const notFound = (message: string, detail?: string) =>
  new ApiError(404, 'not_found', message, detail, 'compare the identifier and the x-service-tenant header');

export function newCtx(req: IncomingMessage, res: ServerResponse, url: URL): Ctx {
  return { req, res, url, method: req.method ?? 'GET', requestId: newId('req'), version: VERSION, params: {} };
}

function meta(ctx: Ctx, extra: Record<string, unknown> = {}) {
  return { requestId: ctx.requestId, version: ctx.version, at: timestamp(), ...extra };
}

/** Media ranges of an Accept-like header with their q values (RFC 9110 §12.5.1). */
function ranges(header: string | undefined): { type: string; q: number }[] {
  if (!header || header.trim() === '') return [{ type: '*/*', q: 1 }];
  return header.split(',').map((part) => {
    const [type = '', ...params] = part.split(';').map((s) => s.trim().toLowerCase());
    const q = params.find((p) => p.startsWith('q='));
    return { type, q: q ? Number(q.slice(2)) : 1 };
  });
}

/** Whether the client accepts `type` (e.g. application/json); the most specific range decides. */
export function accepts(header: string | undefined, type: string): boolean {
  const [major] = type.split('/');
  const all = ranges(header);
  const pick =
    all.find((r) => r.type === type) ?? all.find((r) => r.type === `${major}/*`) ?? all.find((r) => r.type === '*/*');
  return pick !== undefined && pick.q > 0;
}

/** The encoding to answer with, br preferred to gzip when both are asked for equally. */
function pickEncoding(header: string | undefined): 'br' | 'gzip' | undefined {
  if (!header) return undefined;
  const all = header.split(',').map((p) => {
    const [name = '', ...params] = p.split(';').map((s) => s.trim().toLowerCase());
    const q = params.find((x) => x.startsWith('q='));
    return { name, q: q ? Number(q.slice(2)) : 1 };
  });
  const q = (n: string) => all.find((e) => e.name === n)?.q ?? all.find((e) => e.name === '*')?.q ?? 0;
  if (q('br') > 0 && q('br') >= q('gzip')) return 'br';
  return q('gzip') > 0 ? 'gzip' : undefined;
}

export interface SendOptions {
  headers?: Record<string, string>;
  /** Strong validator of the payload (catalog reads): answers 304 to a matching If-None-Match. */
  etagOf?: unknown;
  contentType?: string;
}

/** Writes a body chunked (no Content-Length), compressed when asked; HEAD gets the headers only. */
export function send(ctx: Ctx, status: number, text: string, opts: SendOptions = {}): void {
  const { res, req } = ctx;
  res.statusCode = status;
  res.setHeader('x-request-id', ctx.requestId);
  res.setHeader('service-version', ctx.version);
  res.setHeader('vary', 'Accept, Accept-Encoding');
  for (const [k, v] of Object.entries(opts.headers ?? {})) res.setHeader(k, v);
  if (opts.etagOf !== undefined) {
    const tag = `"${createHash('sha256').update(JSON.stringify(opts.etagOf)).digest('base64url').slice(0, 32)}"`;
    res.setHeader('etag', tag);
    res.setHeader('cache-control', 'private, no-cache');
    const inm = req.headers['if-none-match'];
    if (inm && (inm.trim() === '*' || inm.split(',').some((t) => t.trim() === tag))) {
      res.statusCode = 304;
      res.end();
      return;
    }
  } else if (!res.hasHeader('cache-control')) {
    res.setHeader('cache-control', 'no-store');
  }
  res.setHeader('content-type', opts.contentType ?? 'application/json; charset=utf-8');
  let body: Buffer = Buffer.from(text, 'utf8');
  const enc = httpStyle.compress && body.length >= 256 ? pickEncoding(req.headers['accept-encoding']) : undefined;
  if (enc === 'br') body = brotliCompressSync(body, { params: { [constants.BROTLI_PARAM_QUALITY]: 4 } });
  if (enc === 'gzip') body = gzipSync(body);
  if (enc) res.setHeader('content-encoding', enc);
  if (ctx.method === 'HEAD') {
    res.end();
    return;
  }
  // Two writes: node sends Transfer-Encoding: chunked, as a streaming (hyper) body would.
  const cut = Math.floor(body.length / 2);
  res.write(body.subarray(0, cut));
  res.end(body.subarray(cut));
}

export function ok(ctx: Ctx, data: unknown, opts: SendOptions & { meta?: Record<string, unknown> } = {}): void {
  send(ctx, 200, JSON.stringify({ ok: true, data, meta: meta(ctx, opts.meta) }), opts);
}

export function fail(ctx: Ctx, err: ApiError): void {
  const error: Record<string, string> = { code: err.code, message: err.message };
  if (err.detail) error.detail = err.detail;
  if (err.hint) error.hint = err.hint;
  send(ctx, err.status, JSON.stringify({ ok: false, error, meta: meta(ctx, err.meta) }), { headers: err.headers });
}

const MAX_BODY = 64 * 1024;

/**
 * The JSON object body; anything not declared as JSON is refused (a 415 in spirit, 400 by the contract).
 * `mayBeEmpty`: a trigger without fields also takes no body at all.
 */
export async function readJson(ctx: Ctx, mayBeEmpty = false): Promise<Record<string, unknown>> {
  const type = (ctx.req.headers['content-type'] ?? '').split(';')[0]?.trim().toLowerCase() ?? '';
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of ctx.req) {
    size += (chunk as Buffer).length;
    if (size > MAX_BODY) throw badRequest('request body too large', `at most ${MAX_BODY} bytes`);
    chunks.push(chunk as Buffer);
  }
  if (mayBeEmpty && size === 0) return {};
  if (type !== 'application/json' && !/^application\/[a-z0-9.+-]+\+json$/.test(type)) {
    throw badRequest('unsupported content type', 'send the body as application/json');
  }
  let value: unknown;
  try {
    value = JSON.parse(Buffer.concat(chunks).toString('utf8'));
  } catch {
    throw badRequest('body is not valid JSON');
  }
  if (value === null || typeof value !== 'object' || Array.isArray(value))
    throw badRequest('body must be a JSON object');
  return value as Record<string, unknown>;
}
