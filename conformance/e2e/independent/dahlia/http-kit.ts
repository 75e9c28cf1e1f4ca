// Request context, envelopes and body reading on plain node:http (our small "express-like" layer).
import type { IncomingMessage, ServerResponse } from 'node:http';
import { CURRENT_VERSION, iso, uuidv7 } from './util.ts';

export interface Ctx {
  req: IncomingMessage;
  res: ServerResponse;
  url: URL;
  requestId: string;
  version: string;
  idempotencyKey?: string;
  replayed?: boolean;
  headers: Record<string, string>;
  // set by authentication
  clientId?: string;
  tenant?: string;
  token?: string;
}

export class HttpError extends Error {
  status: number;
  code: string;
  hint?: string;
  constructor(status: number, code: string, message: string, hint?: string) {
    super(message);
    this.status = status;
    this.code = code;
    this.hint = hint;
  }
}

export function newCtx(req: IncomingMessage, res: ServerResponse, origin: string): Ctx {
  return { req, res, url: new URL(req.url ?? '/', origin), requestId: uuidv7(), version: CURRENT_VERSION, headers: {} };
}

export function meta(ctx: Ctx) {
  const m: Record<string, unknown> = { requestId: ctx.requestId, version: ctx.version, at: iso() };
  if (ctx.idempotencyKey !== undefined) m.idempotencyKey = ctx.idempotencyKey;
  if (ctx.replayed) m.replayed = true;
  return m;
}

export function sendJson(ctx: Ctx, status: number, body: unknown, extra: Record<string, string> = {}): void {
  if (ctx.res.headersSent) return;
  const text = JSON.stringify(body);
  ctx.res.writeHead(status, {
    'content-type': 'application/json; charset=utf-8',
    'content-length': Buffer.byteLength(text),
    'x-request-id': ctx.requestId,
    'cache-control': 'no-store',
    ...ctx.headers,
    ...extra,
  });
  ctx.res.end(text);
}

export function ok(ctx: Ctx, data: unknown): void {
  sendJson(ctx, 200, { ok: true, data, meta: meta(ctx) });
}

export function fail(ctx: Ctx, err: HttpError): void {
  const error: Record<string, string> = { code: err.code, message: err.message };
  if (err.hint) error.hint = err.hint;
  sendJson(ctx, err.status, { ok: false, error, meta: meta(ctx) });
}

export const MAX_BODY = 64 * 1024;

export async function readRaw(req: IncomingMessage): Promise<Buffer> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    size += (chunk as Buffer).length;
    if (size > MAX_BODY)
      throw new HttpError(400, 'invalid_request', 'Request body too large.', 'Bodies are limited to 64 KiB.');
    chunks.push(chunk as Buffer);
  }
  return Buffer.concat(chunks);
}

// JSON bodies only: a form or other media type is refused with 400 (the contract names no 415).
export async function readJsonObject(ctx: Ctx): Promise<Record<string, unknown>> {
  const raw = await readRaw(ctx.req);
  const type = (ctx.req.headers['content-type'] ?? '').toLowerCase();
  if (!/^application\/([a-z.+-]*\+)?json\b/.test(type)) {
    throw new HttpError(400, 'invalid_request', 'Body must be JSON.', 'Send Content-Type: application/json.');
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(raw.toString('utf8'));
  } catch {
    throw new HttpError(
      400,
      'invalid_request',
      'Body is not valid JSON.',
      'Check the request against the published description.',
    );
  }
  if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed)) {
    throw new HttpError(400, 'invalid_request', 'Body must be a JSON object.');
  }
  return parsed as Record<string, unknown>;
}

export function header(ctx: Ctx, name: string): string | undefined {
  const v = ctx.req.headers[name.toLowerCase()];
  return Array.isArray(v) ? v[0] : v;
}
