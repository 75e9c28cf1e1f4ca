// Request context and the contract's envelopes. Connexion answers errors as RFC 7807 problem documents
// (title, detail, status); the app's error handler reshapes each into the contract's failure envelope,
// keeping Connexion's `detail` text as error.detail and adding a remedy as error.hint.
import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { type Json, nowIso, VERSION } from './state.ts';

export interface Ctx {
  req: IncomingMessage;
  res: ServerResponse;
  url: URL;
  requestId: string;
  /** The version the answer reports: the caller's Service-Version, else the current one. */
  version: string;
  /** Headers gathered before the answer is written (rate limits). */
  headers: Record<string, string>;
  clientId?: string;
  tenant?: string;
  idempotencyKey?: string;
  replayed?: boolean;
  rawBody?: string;
}

const STATUS: Record<string, number> = {
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

/** A problem raised anywhere in a handler, turned into the failure envelope by the dispatcher. */
export class ApiError extends Error {
  readonly code: string;
  readonly detail: string | undefined;
  readonly hint: string | undefined;
  constructor(code: string, message: string, detail?: string, hint?: string) {
    super(message);
    this.code = code;
    this.detail = detail;
    this.hint = hint;
  }
  get status(): number {
    return STATUS[this.code] ?? 500;
  }
}

export function newCtx(req: IncomingMessage, res: ServerResponse): Ctx {
  // Flask's request id middleware: a uuid4 hex, also echoed in X-Request-ID for support queries.
  const requestId = randomUUID().replaceAll('-', '');
  return { req, res, url: new URL(req.url ?? '/', 'http://127.0.0.1'), requestId, version: VERSION, headers: {} };
}

export function meta(ctx: Ctx): Json {
  const m: Json = { requestId: ctx.requestId, version: ctx.version, at: nowIso() };
  if (ctx.idempotencyKey !== undefined) m.idempotencyKey = ctx.idempotencyKey;
  if (ctx.replayed !== undefined) m.replayed = ctx.replayed;
  return m;
}

export function send(ctx: Ctx, status: number, body: Json, extra: Record<string, string> = {}): void {
  const text = JSON.stringify(body);
  // Flask's jsonify: application/json without a charset parameter (JSON is UTF-8 by definition, RFC 8259).
  ctx.res.writeHead(status, {
    'content-type': 'application/json',
    'x-request-id': ctx.requestId,
    'cache-control': 'no-store',
    ...ctx.headers,
    ...extra,
  });
  ctx.res.end(text);
}

export const success = (ctx: Ctx, data: Json): Json => ({ ok: true, data, meta: meta(ctx) });

export function failure(ctx: Ctx, err: ApiError): Json {
  const error: Json = { code: err.code, message: err.message };
  if (err.detail !== undefined) error.detail = err.detail;
  if (err.hint !== undefined) error.hint = err.hint;
  return { ok: false, error, meta: meta(ctx) };
}

export function sendError(ctx: Ctx, err: ApiError, extra: Record<string, string> = {}): void {
  send(ctx, err.status, failure(ctx, err), extra);
}

/** Reads the raw body (kept unchanged for the idempotency fingerprint) with Flask's 1 MB cap. */
export async function readBody(ctx: Ctx): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of ctx.req) {
    const b = chunk as Buffer;
    size += b.length;
    if (size > 1_048_576) throw new ApiError('invalid_request', 'Request body too large', 'The body exceeds 1 MB.');
    chunks.push(b);
  }
  return Buffer.concat(chunks).toString('utf8');
}

/** Parses a JSON object body the way Connexion's request body validator does before the view runs. */
export function parseJsonObject(ctx: Ctx, raw: string): Json {
  const type = ctx.req.headers['content-type'] ?? '';
  if (!/^application\/(.+\+)?json\b/i.test(type)) {
    throw new ApiError('invalid_request', 'Unsupported media type', "Content-Type must be 'application/json'.");
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(raw);
  } catch {
    throw new ApiError('invalid_request', 'Request body is not valid JSON', 'The body could not be decoded.');
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) {
    throw new ApiError('invalid_request', 'Request body must be an object', "None is not of type 'object'");
  }
  return parsed as Json;
}
