// Falcon's request/response plumbing, ported: a context per request (req.context in Falcon), the success and
// failure envelopes the interface fixes, and HTTPError subclasses raised by resources and rendered by one handler.
import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { dumps } from './pyjson.ts';
import { isoformat, type Rec, VERSION, VERSIONS } from './state.ts';

export interface Ctx {
  req: IncomingMessage;
  res: ServerResponse;
  method: string;
  path: string;
  query: URLSearchParams;
  requestId: string;
  version: string;
  headers: Record<string, string>;
  raw: string;
  tenant?: string;
  clientId?: string;
  /** A Service-Version the deployment does not know (refused once the context exists). */
  badVersion?: boolean;
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

/** falcon.HTTPError with the interface's code; `detail` carries marshmallow's error dict as text. */
export class ApiError extends Error {
  code: string;
  status: number;
  detail: string | undefined;
  hint: string | undefined;
  headers: Record<string, string>;
  constructor(code: string, message: string, detail?: string, hint?: string, headers: Record<string, string> = {}) {
    super(message);
    this.code = code;
    this.status = STATUS[code] ?? 500;
    this.detail = detail;
    this.hint = hint;
    this.headers = headers;
  }
}

/** marshmallow's ValidationError.messages wrapped into the envelope: `{"field": ["message"]}` as detail. */
export function validationError(messages: Record<string, string[]>): ApiError {
  return new ApiError(
    'invalid_request',
    'The request failed validation.',
    JSON.stringify(messages),
    'Check the request against the published OpenAPI description.',
  );
}

export function meta(ctx: Ctx, extra: Rec = {}): Rec {
  return { requestId: ctx.requestId, version: ctx.version, at: isoformat(), ...extra };
}

export function send(ctx: Ctx, status: number, body: unknown, type = 'application/json'): void {
  // Falcon's JSONHandler: `json.dumps(obj, ensure_ascii=False)`, default separators.
  const text = typeof body === 'string' ? body : dumps(body);
  ctx.res.writeHead(status, { ...ctx.headers, 'content-type': type, 'x-request-id': ctx.requestId });
  ctx.res.end(text);
}

export function ok(ctx: Ctx, data: Rec, extraMeta: Rec = {}): void {
  send(ctx, 200, { ok: true, data, meta: meta(ctx, extraMeta) });
}

export function fail(ctx: Ctx, err: ApiError): void {
  const error: Rec = { code: err.code, message: err.message };
  if (err.detail !== undefined) error.detail = err.detail;
  if (err.hint !== undefined) error.hint = err.hint;
  Object.assign(ctx.headers, err.headers);
  send(ctx, err.status, { ok: false, error, meta: meta(ctx) });
}

/** Reads the raw body (kept unchanged for fingerprints) once per request. */
export async function readRaw(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const c of req) chunks.push(c as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

/** falcon's JSON media handler, but a non-JSON body is a 400 (the interface lists no 415). */
export function jsonBody(ctx: Ctx): Rec {
  const type = (ctx.req.headers['content-type'] ?? '').toLowerCase();
  if (!type.includes('json')) throw validationError({ _schema: ['Request body must be JSON.'] });
  let body: unknown;
  try {
    body = JSON.parse(ctx.raw);
  } catch {
    throw validationError({ _schema: ['Invalid JSON.'] });
  }
  if (body === null || typeof body !== 'object' || Array.isArray(body)) {
    throw validationError({ _schema: ['Invalid input type.'] });
  }
  return body as Rec;
}

export function newContext(req: IncomingMessage, res: ServerResponse, raw: string): Ctx {
  const url = new URL(req.url ?? '/', 'http://127.0.0.1');
  const asked = req.headers['service-version'];
  const ctx: Ctx = {
    req,
    res,
    method: req.method ?? 'GET',
    path: url.pathname.replace(/\/+$/, '') || '/',
    query: url.searchParams,
    requestId: randomUUID(),
    version: VERSION,
    headers: {},
    raw,
  };
  if (typeof asked === 'string' && asked !== '') {
    if ((VERSIONS as readonly string[]).includes(asked)) ctx.version = asked;
    else ctx.badVersion = true;
  }
  return ctx;
}
