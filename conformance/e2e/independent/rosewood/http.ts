// Vapor-style request/response plumbing on node:http: an Abort error type (status + reason), the contract's
// envelopes, Foundation-style ids and JSONEncoder `.iso8601` dates (seconds, no fractions).
import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';

// biome-ignore lint/suspicious/noExplicitAny: JSON payloads are free-form, as in the rest of the kit's folders
export type Rec = Record<string, any>;

export const CURRENT_VERSION = '2026-07-01';
export const VERSIONS = ['2026-06-12', CURRENT_VERSION];

/** Foundation's `UUID().uuidString` is upper-case; Fluent ids keep that spelling on the wire. */
export const uuid = (): string => randomUUID().toUpperCase();

/** JSONEncoder's `.iso8601` date strategy drops fractional seconds. */
export const isoDate = (ms: number = Date.now()): string => new Date(ms).toISOString().replace(/\.\d{3}Z$/, 'Z');

const CODES: Record<number, string> = {
  400: 'invalid_request',
  401: 'unauthorized',
  403: 'forbidden',
  404: 'not_found',
  409: 'idempotency_conflict',
  428: 'idempotency_required',
  429: 'rate_limited',
  500: 'internal',
};

/** Vapor's `Abort(.status, reason:)`, with the contract's code (Vapor has no codes; the team's middleware adds them). */
export class Abort extends Error {
  readonly status: number;
  readonly code: string;
  readonly hint: string | undefined;
  readonly headers: Record<string, string>;
  constructor(status: number, reason: string, opts: { code?: string; hint?: string; headers?: Rec } = {}) {
    super(reason);
    this.status = status;
    this.code = opts.code ?? CODES[status] ?? 'internal';
    this.hint = opts.hint;
    this.headers = opts.headers ?? {};
  }
}

/** Per-request context, like Vapor's `Request` with its `storage`. */
export interface Ctx {
  req: IncomingMessage;
  res: ServerResponse;
  method: string;
  path: string;
  query: URLSearchParams;
  params: Record<string, string>;
  requestId: string;
  version: string;
  headers: Record<string, string>;
  rawBody: string;
  base: string;
  clientId?: string;
  tenant?: string;
}

export function meta(ctx: Ctx, extra: Rec = {}): Rec {
  return { requestId: ctx.requestId, version: ctx.version, at: isoDate(), ...extra };
}

export function sendJson(ctx: Ctx, status: number, body: unknown, headers: Rec = {}): void {
  // Foundation's JSONEncoder escapes every slash (`http:\/\/…`) unless told `.withoutEscapingSlashes`;
  // Vapor's default encoder is not told. A slash only ever occurs inside JSON strings, so this is safe.
  const text = JSON.stringify(body).replaceAll('/', '\\/');
  ctx.res.writeHead(status, {
    ...ctx.headers,
    ...headers,
    'content-type': 'application/json; charset=utf-8',
    'content-length': Buffer.byteLength(text),
    'x-request-id': ctx.requestId,
  });
  ctx.res.end(text);
}

export function ok(ctx: Ctx, data: unknown, extraMeta: Rec = {}): void {
  sendJson(ctx, 200, { ok: true, data, meta: meta(ctx, extraMeta) });
}

/** Vapor's ErrorMiddleware, reshaped: no reason of an unexpected error leaks, only the request id. */
export function sendError(ctx: Ctx, err: unknown): void {
  const abort = err instanceof Abort ? err : new Abort(500, 'Something went wrong on our side.');
  if (!(err instanceof Abort)) console.error('[rosewood]', err);
  const error: Rec = { code: abort.code, message: abort.message };
  if (abort.hint) error.hint = abort.hint;
  sendJson(ctx, abort.status, { ok: false, error, meta: meta(ctx) }, abort.headers);
}

/** Vapor collects at most 16 KB of a body by default (`routes.defaultMaxBodySize`); its 413 becomes a 400. */
const MAX_BODY = 16 * 1024;

export function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (c: Buffer) => {
      size += c.length;
      if (size <= MAX_BODY) chunks.push(c);
    });
    req.on('end', () => {
      if (size > MAX_BODY) reject(new Abort(400, 'Payload Too Large', { hint: 'Bodies are limited to 16 KB.' }));
      else resolve(Buffer.concat(chunks).toString('utf8'));
    });
    req.on('error', reject);
  });
}

/** `req.content.decode(...)`: JSON only; Vapor answers 415 for other types, reshaped to the contract's 400. */
export function jsonBody(ctx: Ctx): Rec {
  const type = String(ctx.req.headers['content-type'] ?? '');
  if (!/^application\/json\b/i.test(type) && ctx.rawBody.length > 0) {
    throw new Abort(400, 'Unsupported content type; send application/json.');
  }
  if (ctx.rawBody.trim() === '') throw new Abort(400, 'Request body is empty.');
  let parsed: unknown;
  try {
    parsed = JSON.parse(ctx.rawBody);
  } catch {
    throw new Abort(400, 'The data couldn’t be read because it isn’t in the correct format.');
  }
  if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed)) {
    throw new Abort(400, 'Expected to decode Dictionary<String, Any> but found something else.');
  }
  return parsed as Rec;
}
