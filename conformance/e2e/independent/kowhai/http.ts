// Express's habits on plain node:http: `x-powered-by`, `res.json` with a weak ETag (the `etag` package's form)
// and 304 for a matching If-None-Match, `qs` query parsing, express.json body parsing, and the envelopes.
import { createHash } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Ctx } from './types.ts';

export class HttpError extends Error {
  readonly status: number;
  readonly code: string;
  readonly detail: string | undefined;
  readonly hint: string | undefined;
  readonly headers: Record<string, string>;
  constructor(
    status: number,
    code: string,
    message: string,
    detail?: string,
    hint?: string,
    headers: Record<string, string> = {},
  ) {
    super(message);
    this.status = status;
    this.code = code;
    this.detail = detail;
    this.hint = hint;
    this.headers = headers;
  }
}

export function meta(ctx: Pick<Ctx, 'requestId' | 'version'>, extra: Record<string, unknown> = {}) {
  return { requestId: ctx.requestId, version: ctx.version, at: new Date().toISOString(), ...extra };
}

/** The `etag` package's weak tag: W/"<length hex>-<sha1 base64, 27 characters>". */
export function etag(body: string): string {
  const hash = createHash('sha1').update(body, 'utf8').digest('base64').slice(0, 27);
  return `W/"${Buffer.byteLength(body).toString(16)}-${hash}"`;
}

/** res.json as Express writes it; GET answers carry an ETag and a matching If-None-Match gets 304. */
export function sendJson(req: IncomingMessage, res: ServerResponse, status: number, value: unknown): void {
  const body = JSON.stringify(value);
  res.setHeader('Content-Type', 'application/json; charset=utf-8');
  if (req.method === 'GET' && status >= 200 && status < 300) {
    const tag = etag(body);
    res.setHeader('ETag', tag);
    const inm = req.headers['if-none-match'];
    if (inm?.split(/\s*,\s*/).some((t) => t === tag || t === '*')) {
      res.removeHeader('Content-Type');
      res.writeHead(304);
      res.end();
      return;
    }
  }
  res.setHeader('Content-Length', Buffer.byteLength(body));
  res.writeHead(status);
  res.end(body);
}

export function ok(ctx: Ctx, data: unknown, extraMeta: Record<string, unknown> = {}): void {
  sendJson(ctx.req, ctx.res, 200, { ok: true, data, meta: meta(ctx, extraMeta) });
}

export function fail(ctx: Pick<Ctx, 'req' | 'res' | 'requestId' | 'version'>, err: HttpError): void {
  for (const [k, v] of Object.entries(err.headers)) ctx.res.setHeader(k, v);
  const error: Record<string, string> = { code: err.code, message: err.message };
  if (err.detail) error.detail = err.detail;
  if (err.hint) error.hint = err.hint;
  sendJson(ctx.req, ctx.res, err.status, { ok: false, error, meta: meta(ctx) });
}

function decode(s: string): string {
  try {
    return decodeURIComponent(s.replace(/\+/g, ' '));
  } catch {
    return s;
  }
}

const FORBIDDEN = new Set(['__proto__', 'constructor', 'prototype']);

function put(target: Record<string, unknown>, segs: string[], value: string): void {
  const [head = '', ...rest] = segs;
  if (FORBIDDEN.has(head)) return;
  const existing = target[head];
  if (rest.length === 0 || (rest.length === 1 && rest[0] === '')) {
    if (existing === undefined) target[head] = rest.length ? [value] : value;
    else if (Array.isArray(existing)) existing.push(value);
    else target[head] = [existing, value];
    return;
  }
  if (existing === null || typeof existing !== 'object' || Array.isArray(existing)) target[head] = {};
  put(target[head] as Record<string, unknown>, rest, value);
}

/** `qs` semantics (as Express's "extended" query parser): `a[b]=1` nests, `a[]=1` and a repeated key make arrays. */
export function parseQs(search: string): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const part of search.replace(/^\?/, '').split('&')) {
    if (!part) continue;
    const eq = part.indexOf('=');
    const rawKey = decode(eq < 0 ? part : part.slice(0, eq));
    const value = eq < 0 ? '' : decode(part.slice(eq + 1));
    const m = /^([^[]+)((?:\[[^\]]*\])*)$/.exec(rawKey);
    const segs = m?.[1] ? [m[1], ...[...(m[2] ?? '').matchAll(/\[([^\]]*)\]/g)].map((x) => x[1] ?? '')] : [rawKey];
    put(out, segs, value);
  }
  return out;
}

export function readBody(req: IncomingMessage, limit = 100 * 1024): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (c: Buffer) => {
      size += c.length;
      if (size > limit) reject(new HttpError(400, 'invalid_request', 'Request body too large.', 'limit 100kb'));
      else chunks.push(c);
    });
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    req.on('error', reject);
  });
}

/** express.json({ strict: true }): parses a JSON object or array when the content type says JSON, else no body. */
export async function jsonBody(req: IncomingMessage): Promise<unknown> {
  const raw = await readBody(req);
  const type = String(req.headers['content-type'] ?? '');
  if (!/json/i.test(type)) return undefined;
  if (raw.trim() === '') return {};
  if (!/^\s*[[{]/.test(raw)) throw new HttpError(400, 'invalid_request', 'Malformed JSON body.', 'strict mode');
  try {
    return JSON.parse(raw);
  } catch (e) {
    throw new HttpError(400, 'invalid_request', 'Malformed JSON body.', (e as Error).message);
  }
}
