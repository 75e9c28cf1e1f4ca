// The http4s habits of the tulip team, on node:http: circe's `dropNullValues` printer (absent optionals are
// omitted, never null), one error ADT turned into the failure envelope by an error-handling middleware, and a
// java.util.UUID request id on every answer.
import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';

// biome-ignore lint/suspicious/noExplicitAny: decoded JSON of any shape, as circe's Json
export type Rec = Record<string, any>;

export const PREFIX = '/api/public/v1';
export const CURRENT_VERSION = '2026-07-01';
export const VERSIONS = ['2026-07-01', '2026-06-12'];

/** One call as the middleware chain sees it (http4s `Request[IO]` plus what the Kleislis attached). */
export interface Ctx {
  req: IncomingMessage;
  res: ServerResponse;
  method: string;
  path: string;
  query: URLSearchParams;
  params: Record<string, string>;
  requestId: string;
  version: string;
  /** Headers every answer carries (rate-limit headers once the limiter counted the call). */
  headers: Record<string, string>;
  rawBody: string;
  body: unknown;
  tenant: string;
  clientId: string;
  /** The deployment's clock format (ISO with millis, or java.time.Instant's micros). */
  now: (ms?: number) => string;
}

/** java.time.Instant#toString of a PostgreSQL timestamptz: micros, trailing zero groups of three dropped. */
export function javaInstant(ms = Date.now()): string {
  const iso = new Date(ms).toISOString();
  const milli = iso.slice(20, 23);
  const micro = String(Math.floor((performance.now() % 1) * 1000)).padStart(3, '0');
  const frac = micro !== '000' ? `${milli}${micro}` : milli !== '000' ? milli : '';
  return `${iso.slice(0, 19)}${frac ? `.${frac}` : ''}Z`;
}

export const isoInstant = (ms = Date.now()): string => new Date(ms).toISOString();

/** The service's error ADT: each case maps to one status and one code of the interface. */
export class ApiError extends Error {
  readonly status: number;
  readonly code: string;
  readonly detail: string | undefined;
  readonly extraHeaders: Record<string, string>;
  constructor(
    status: number,
    code: string,
    message: string,
    detail?: string,
    extraHeaders: Record<string, string> = {},
  ) {
    super(message);
    this.status = status;
    this.code = code;
    this.detail = detail;
    this.extraHeaders = extraHeaders;
  }
}

export const invalid = (detail: string) => new ApiError(400, 'invalid_request', 'Request is invalid', detail);
export const notFound = (what: string) => new ApiError(404, 'not_found', `${what} not found`);

/** circe's `Printer.noSpaces.copy(dropNullValues = true)`. */
export function print(value: unknown): string {
  return JSON.stringify(value, (_k, v) => (v === null || v === undefined ? undefined : v));
}

export function meta(ctx: Ctx, extra: Rec = {}): Rec {
  return { requestId: ctx.requestId, version: ctx.version, at: ctx.now(), ...extra };
}

export function send(ctx: Ctx, status: number, body: unknown, headers: Record<string, string> = {}): void {
  if (ctx.res.headersSent) return;
  const text = print(body);
  ctx.res.writeHead(status, {
    'content-type': 'application/json',
    'content-length': Buffer.byteLength(text),
    'x-request-id': ctx.requestId,
    ...ctx.headers,
    ...headers,
  });
  ctx.res.end(text);
}

export function ok(ctx: Ctx, data: unknown, extraMeta: Rec = {}): void {
  send(ctx, 200, { ok: true, data, meta: meta(ctx, extraMeta) });
}

/** The error middleware: no internals leak, only the request id (the interface's support rule). */
export function fail(ctx: Ctx, err: unknown): void {
  const e = err instanceof ApiError ? err : new ApiError(500, 'internal', 'Internal error');
  const error = { code: e.code, message: e.message, detail: e.detail };
  send(ctx, e.status, { ok: false, error, meta: meta(ctx) }, e.extraHeaders);
}

export async function readBody(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const c of req) chunks.push(c as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

export function newContext(req: IncomingMessage, res: ServerResponse): Ctx {
  const url = new URL(req.url ?? '/', 'http://127.0.0.1');
  return {
    req,
    res,
    method: req.method ?? 'GET',
    path: url.pathname.replace(/\/+$/, '') || '/',
    query: url.searchParams,
    params: {},
    requestId: randomUUID(),
    version: CURRENT_VERSION,
    headers: {},
    rawBody: '',
    body: undefined,
    tenant: '',
    clientId: '',
    now: isoInstant,
  };
}

/** A header's single value (node joins repeats; arrays only for set-cookie). */
export function header(ctx: Ctx, name: string): string | undefined {
  const v = ctx.req.headers[name.toLowerCase()];
  return Array.isArray(v) ? v[0] : v;
}
