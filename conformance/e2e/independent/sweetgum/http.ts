// shelf-style request plumbing: a context per request, the success and failure envelopes, JSON body parsing.
// The envelope classes are json_serializable with `includeIfNull: false` (the published schema types
// `meta.idempotencyKey` and `error.detail` as strings, so nulls are left out there; elsewhere they stay).
import type { IncomingMessage, ServerResponse } from 'node:http';
import { dartNow, type Rec, uuid, VERSION } from './state.ts';

export interface Ctx {
  req: IncomingMessage;
  res: ServerResponse;
  requestId: string;
  url: URL;
  version: string;
  headers: Record<string, string>;
  tenant?: string;
  clientId?: string;
  idempotencyKey?: string;
}

export class ApiError extends Error {
  readonly status: number;
  readonly code: string;
  readonly detail: string | undefined;
  constructor(status: number, code: string, message: string, detail?: string) {
    super(message);
    this.status = status;
    this.code = code;
    this.detail = detail;
  }
}

export const badRequest = (message: string, detail?: string) => new ApiError(400, 'invalid_request', message, detail);

export function meta(ctx: Ctx, extra: Rec = {}): Rec {
  return { requestId: ctx.requestId, version: ctx.version, at: dartNow(), ...extra };
}

export function sendJson(ctx: Ctx, status: number, body: unknown, headers: Record<string, string> = {}): void {
  const text = JSON.stringify(body);
  ctx.res.writeHead(status, {
    ...ctx.headers,
    ...headers,
    'content-type': 'application/json; charset=utf-8',
    'x-request-id': ctx.requestId,
  });
  ctx.res.end(text);
}

export function ok(ctx: Ctx, data: unknown, extraMeta: Rec = {}): void {
  sendJson(ctx, 200, { ok: true, data, meta: meta(ctx, extraMeta) });
}

export function fail(ctx: Ctx, err: unknown): void {
  const e = err instanceof ApiError ? err : new ApiError(500, 'internal', 'Internal server error');
  // Only the request id identifies an internal fault; the exception stays in the server log.
  if (!(err instanceof ApiError)) console.error(`[sweetgum] ${ctx.requestId}`, err);
  const error: Rec = { code: e.code, message: e.message };
  if (e.detail) error.detail = e.detail;
  sendJson(ctx, e.status, { ok: false, error, meta: meta(ctx) });
}

export function newCtx(req: IncomingMessage, res: ServerResponse, url: URL): Ctx {
  return { req, res, url, requestId: uuid(), version: VERSION, headers: {} };
}

const MAX_BODY = 1 << 20;

export async function readBody(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    size += (chunk as Buffer).length;
    if (size > MAX_BODY) throw badRequest('Request body too large');
    chunks.push(chunk as Buffer);
  }
  return Buffer.concat(chunks).toString('utf8');
}

/** `jsonDecode` plus the `as Map<String, dynamic>` cast a handler does first. */
export function parseObject(text: string): Rec {
  let v: unknown;
  try {
    v = JSON.parse(text);
  } catch {
    throw badRequest('Request body is not valid JSON');
  }
  if (typeof v !== 'object' || v === null || Array.isArray(v)) throw badRequest('Request body must be a JSON object');
  return v as Rec;
}

export function str(body: Rec, field: string, min: number, max: number, required = true): string | undefined {
  const v = body[field];
  if (v === undefined || v === null) {
    if (required) throw badRequest(`Field ${field} is required`);
    return undefined;
  }
  if (typeof v !== 'string') throw badRequest(`Field ${field} must be a string`);
  if (v.length < min || v.length > max) throw badRequest(`Field ${field} must be ${min} to ${max} characters long`);
  return v;
}
