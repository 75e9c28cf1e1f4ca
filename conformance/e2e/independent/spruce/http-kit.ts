// Envelopes, errors and body reading. Every JSON answer goes through sendOk/sendError so the
// success and failure envelopes, meta and the Azure-style headers are written in one place.
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Principal } from './auth.ts';
import { azureTime, CURRENT_VERSION, newId } from './util.ts';

export const ERROR_STATUS: Record<string, number> = {
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

export interface Ctx {
  req: IncomingMessage;
  res: ServerResponse;
  requestId: string;
  version: string;
  url: URL;
  /** The base address the call came in on (main or alternate), for links we build. */
  origin: string;
  /** Headers added to whatever answer this call ends with (rate limits, versions). */
  extraHeaders: Record<string, string>;
  principal?: Principal;
  /** Applied to every JSON text we write (the time style switch). */
  rewrite: (text: string) => string;
  idempotencyKey?: string;
}

/** A refusal thrown anywhere in a handler; the router turns it into the failure envelope. */
export class ApiError extends Error {
  code: string;
  hint?: string;
  target?: string;
  headers?: Record<string, string>;
  constructor(
    code: string,
    message: string,
    opts: { hint?: string; target?: string; headers?: Record<string, string> } = {},
  ) {
    super(message);
    this.code = code;
    this.hint = opts.hint;
    this.target = opts.target;
    this.headers = opts.headers;
  }
}

export function baseMeta(ctx: Ctx): Record<string, unknown> {
  return { requestId: ctx.requestId, version: ctx.version, at: azureTime() };
}

function writeJson(ctx: Ctx, status: number, body: unknown, headers: Record<string, string> = {}): void {
  if (ctx.res.headersSent) return;
  const text = ctx.rewrite(JSON.stringify(body));
  ctx.res.writeHead(status, {
    ...commonHeaders(ctx),
    ...headers,
    'content-type': 'application/json; charset=utf-8',
    'content-length': String(Buffer.byteLength(text)),
  });
  ctx.res.end(text);
}

/** Headers every answer carries: the request id under Azure's names and the version answered. */
export function commonHeaders(ctx: Ctx): Record<string, string> {
  const h: Record<string, string> = {
    'x-ms-request-id': ctx.requestId,
    'service-version': ctx.version,
    'api-supported-versions': '2026-06-12, 2026-07-01',
    ...ctx.extraHeaders,
  };
  const clientRequestId = ctx.req.headers['x-ms-client-request-id'];
  if (typeof clientRequestId === 'string' && /^[\w.:-]{1,64}$/.test(clientRequestId)) {
    h['x-ms-client-request-id'] = clientRequestId;
  }
  return h;
}

export function sendOk(ctx: Ctx, data: unknown, metaExtra: Record<string, unknown> = {}): void {
  writeJson(ctx, 200, { ok: true, data, meta: { ...baseMeta(ctx), ...metaExtra } });
}

export function sendError(ctx: Ctx, err: ApiError): void {
  const status = ERROR_STATUS[err.code] ?? 500;
  const error: Record<string, unknown> = { code: err.code, message: err.message };
  if (err.target) error.target = err.target;
  if (err.hint) error.hint = err.hint;
  // Azure clients read the code from x-ms-error-code without parsing the body.
  writeJson(ctx, status, { ok: false, error, meta: baseMeta(ctx) }, { 'x-ms-error-code': err.code, ...err.headers });
}

export function newCtx(req: IncomingMessage, res: ServerResponse, origin: string): Ctx {
  const url = new URL(req.url ?? '/', origin);
  return { req, res, requestId: newId(), version: CURRENT_VERSION, url, origin, extraHeaders: {}, rewrite: (t) => t };
}

const MAX_BODY = 256 * 1024;

/** Reads a JSON body; anything that is not a JSON object is invalid_request (never 413/415). */
export async function readJsonBody(req: IncomingMessage): Promise<Record<string, unknown>> {
  const chunks: Buffer[] = [];
  let size = 0;
  let tooLarge = false;
  for await (const chunk of req) {
    size += (chunk as Buffer).length;
    if (size > MAX_BODY) tooLarge = true;
    else chunks.push(chunk as Buffer);
  }
  if (tooLarge)
    throw new ApiError('invalid_request', 'The request body is too large.', { hint: 'Bodies are limited to 256 KiB.' });
  const type = String(req.headers['content-type'] ?? '').toLowerCase();
  const mediaType = type.split(';')[0]?.trim() ?? '';
  if (mediaType !== 'application/json' && !/^application\/[\w.-]+\+json$/.test(mediaType)) {
    throw new ApiError('invalid_request', 'The request body must be JSON.', {
      hint: 'Send Content-Type: application/json.',
    });
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(Buffer.concat(chunks).toString('utf8'));
  } catch {
    throw new ApiError('invalid_request', 'The request body is not valid JSON.', {
      hint: 'Check the request against the published description.',
    });
  }
  if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed)) {
    throw new ApiError('invalid_request', 'The request body must be a JSON object.');
  }
  return parsed as Record<string, unknown>;
}
