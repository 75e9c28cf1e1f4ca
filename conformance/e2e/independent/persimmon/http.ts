// Envelopes, errors and the small HTTP plumbing every handler shares. A Servant team would have these as
// a custom `ServerError` formatter and an aeson `ToJSON` for the envelope; here they are plain functions.
import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';

// biome-ignore lint/suspicious/noExplicitAny: JSON payloads, as the folder's other deployments type them
export type Rec = Record<string, any>;

export const VERSION = '2026-07-01';
export const VERSIONS = ['2026-07-01', '2026-06-12'] as const;

/** What a handler knows about the call beyond the raw request: its id, version and (once known) key. */
export interface Ctx {
  req: IncomingMessage;
  res: ServerResponse;
  url: URL;
  requestId: string;
  version: string;
  idempotencyKey?: string;
  headers: Record<string, string>;
}

export class ApiError extends Error {
  readonly status: number;
  readonly code: string;
  readonly hint: string | undefined;
  constructor(status: number, code: string, message: string, hint?: string) {
    super(message);
    this.status = status;
    this.code = code;
    this.hint = hint;
  }
}

/** Code per status, as the contract's error table pairs them. */
export const fail = {
  badRequest: (m: string, hint?: string) => new ApiError(400, 'invalid_request', m, hint),
  unauthorized: (m: string) => new ApiError(401, 'unauthorized', m, 'request a new access token'),
  forbidden: (m: string) => new ApiError(403, 'forbidden', m),
  notFound: (m = 'no such entry') => new ApiError(404, 'not_found', m),
};

let lastMicros = 0n;
let picos = 0;
/**
 * aeson renders a UTCTime with as many fractional digits as the value has (up to 12, trailing zeros
 * dropped, none at all on a whole second). JS clocks stop at nanoseconds, so the digits come from hrtime
 * and a picosecond tick, which GHC's clock would fill from the OS.
 */
export function utcNow(): string {
  const ns = process.hrtime.bigint();
  // Keep timestamps strictly increasing within the process, as a database clock would.
  let micros = BigInt(Date.now()) * 1000n + ((ns / 1000n) % 1000n);
  if (micros <= lastMicros) micros = lastMicros + 1n;
  lastMicros = micros;
  const whole = new Date(Number(micros / 1000n)).toISOString().slice(0, 19);
  const frac = `${(micros % 1_000_000n).toString().padStart(6, '0')}${(ns % 1000n).toString().padStart(3, '0')}${String(picos++ % 1000).padStart(3, '0')}`;
  const trimmed = frac.replace(/0+$/, '');
  return trimmed ? `${whole}.${trimmed}Z` : `${whole}Z`;
}

export function meta(ctx: Ctx, extra: Rec = {}): Rec {
  const m: Rec = { requestId: ctx.requestId, version: ctx.version, at: utcNow() };
  if (ctx.idempotencyKey !== undefined) m.idempotencyKey = ctx.idempotencyKey;
  return { ...m, ...extra };
}

export function sendJson(ctx: Ctx, status: number, body: Rec): void {
  const text = JSON.stringify(body);
  ctx.res.writeHead(status, {
    ...ctx.headers,
    'content-type': 'application/json;charset=utf-8',
    'content-length': Buffer.byteLength(text),
  });
  ctx.res.end(text);
}

export const ok = (ctx: Ctx, data: Rec) => sendJson(ctx, 200, { ok: true, data, meta: meta(ctx) });

export function sendError(ctx: Ctx, e: ApiError): void {
  // aeson drops Nothing fields: no `hint` key at all when there is none.
  const error: Rec = { code: e.code, message: e.message };
  if (e.hint !== undefined) error.hint = e.hint;
  sendJson(ctx, e.status, { ok: false, error, meta: meta(ctx) });
}

export function newContext(req: IncomingMessage, res: ServerResponse, url: URL): Ctx {
  const requestId = randomUUID();
  return { req, res, url, requestId, version: VERSION, headers: { 'x-request-id': requestId } };
}

export function readRaw(req: IncomingMessage, limit = 1 << 20): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (c: Buffer) => {
      size += c.length;
      if (size > limit) reject(fail.badRequest('body too large'));
      else chunks.push(c);
    });
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    req.on('error', reject);
  });
}

/**
 * Servant answers 415 to a wrong content type and 400 to undecodable JSON; the contract knows only
 * invalid_request (400) for "wrong data type", so both are reshaped into that envelope.
 */
export async function readJsonObject(ctx: Ctx): Promise<{ body: Rec; raw: string }> {
  const type = ctx.req.headers['content-type'] ?? '';
  const raw = await readRaw(ctx.req);
  if (!/^application\/([a-z.+-]*\+)?json\b/i.test(type)) throw fail.badRequest('content type must be application/json');
  let body: unknown;
  try {
    body = JSON.parse(raw);
  } catch {
    throw fail.badRequest('Error in $: malformed JSON body');
  }
  if (body === null || typeof body !== 'object' || Array.isArray(body)) {
    throw fail.badRequest('Error in $: expected Object');
  }
  return { body: body as Rec, raw };
}

/** aeson-style field checks, with the message naming the path as `Error in $.field`. */
export function str(body: Rec, field: string, min: number, max: number, required = true): string | undefined {
  const v = body[field];
  if (v === undefined || v === null) {
    if (required) throw fail.badRequest(`Error in $: key "${field}" not found`);
    return undefined;
  }
  if (typeof v !== 'string') throw fail.badRequest(`Error in $.${field}: expected String`);
  if (v.length < min || v.length > max) throw fail.badRequest(`Error in $.${field}: length must be ${min} to ${max}`);
  return v;
}
