// Request context, envelopes and body reading: Elysia's `error()` habits (a status and a code) reshaped
// into the contract's success and failure envelopes, so every handler answers the same way.
import { randomBytes } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';

// biome-ignore lint/suspicious/noExplicitAny: JSON payloads are free-form, as the folder's Rec style allows.
export type Rec = Record<string, any>;

export const BASE = '/api/public/v1';
export const CURRENT_VERSION = '2026-07-01';
export const VERSIONS = ['2026-07-01', '2026-06-12'];

const ALPHABET = 'useandom-26T198340PX75pxJACKVERYMINDBUSHWOLF_GQZbfghjklqvwyzrict';

/** nanoid's default: 21 characters of the URL-safe alphabet (Drizzle `$defaultFn(() => nanoid())`). */
export function nanoid(size = 21): string {
  const bytes = randomBytes(size);
  let id = '';
  for (const b of bytes) id += ALPHABET[b & 63];
  return id;
}

export interface Ctx {
  req: IncomingMessage;
  res: ServerResponse;
  method: string;
  path: string;
  query: URLSearchParams;
  requestId: string;
  version: string;
  /** Set by the auth guard. */
  tenant?: string;
  clientId?: string;
  /** Headers already decided (rate limits) that every answer of this call carries. */
  headers: Record<string, string>;
}

/** Thrown by handlers, caught once in the server: Elysia's `error(status, …)` in one shape. */
export class HttpError extends Error {
  readonly status: number;
  readonly code: string;
  readonly detail: string | undefined;
  readonly hint: string | undefined;
  constructor(status: number, code: string, message: string, detail?: string, hint?: string) {
    super(message);
    this.status = status;
    this.code = code;
    this.detail = detail;
    this.hint = hint;
  }
}

export function header(ctx: Ctx, name: string): string | undefined {
  const v = ctx.req.headers[name.toLowerCase()];
  return Array.isArray(v) ? v[0] : v;
}

export function meta(ctx: Ctx, extra: Rec = {}): Rec {
  return { requestId: ctx.requestId, version: ctx.version, at: new Date().toISOString(), ...extra };
}

export function sendJson(ctx: Ctx, status: number, body: unknown, extraHeaders: Record<string, string> = {}) {
  const text = JSON.stringify(body);
  ctx.res.writeHead(status, {
    'content-type': 'application/json; charset=utf-8',
    'x-request-id': ctx.requestId,
    ...ctx.headers,
    ...extraHeaders,
  });
  ctx.res.end(text);
}

export function ok(ctx: Ctx, data: unknown, extraMeta: Rec = {}) {
  sendJson(ctx, 200, { ok: true, data, meta: meta(ctx, extraMeta) });
}

export function fail(ctx: Ctx, err: HttpError, extraHeaders: Record<string, string> = {}) {
  const error: Rec = { code: err.code, message: err.message };
  if (err.detail) error.detail = err.detail;
  if (err.hint) error.hint = err.hint;
  sendJson(ctx, err.status, { ok: false, error, meta: meta(ctx) }, extraHeaders);
}

/** Reads the raw body once; a body that is not JSON is the caller's mistake (400), never a crash. */
export async function readJson(ctx: Ctx): Promise<unknown> {
  const chunks: Buffer[] = [];
  for await (const c of ctx.req) chunks.push(c as Buffer);
  const text = Buffer.concat(chunks).toString('utf8');
  if (text.trim() === '') return undefined;
  try {
    return JSON.parse(text);
  } catch {
    throw new HttpError(400, 'invalid_request', 'Body is not valid JSON', undefined, 'Send application/json');
  }
}

export function isRec(v: unknown): v is Rec {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** Service-Version: optional by default (absent = current); an unknown value is refused, never guessed. */
export function readVersion(ctx: Ctx, required: boolean) {
  const asked = header(ctx, 'service-version')?.trim();
  if (asked === undefined && required) {
    throw new HttpError(
      400,
      'invalid_request',
      'Header Service-Version is required',
      `Send one of ${VERSIONS.join(', ')}`,
    );
  }
  if (asked !== undefined) {
    if (!VERSIONS.includes(asked)) {
      throw new HttpError(400, 'invalid_request', 'Unknown Service-Version', `Supported: ${VERSIONS.join(', ')}`);
    }
    ctx.version = asked;
  }
  ctx.headers['service-version'] = ctx.version;
}
