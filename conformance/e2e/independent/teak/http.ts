// Kemal-style request context and responses: `halt` throws a Halt carrying the status and the failure
// envelope, and the router's error handler writes it, as Kemal's `halt env, status_code:` stops a route.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { type Rec, snowflake, VERSION, VERSIONS } from './state.ts';

export interface Ctx {
  req: IncomingMessage;
  res: ServerResponse;
  url: URL;
  method: string;
  path: string;
  requestId: string;
  version: string;
  params: Record<string, string>;
  rawBody: string;
  tenant?: string;
  clientId?: string;
  /** Rate-limit headers of this call, set on every answer once the call was counted. */
  rateHeaders: Record<string, string>;
}

const MESSAGES: Record<string, [number, string]> = {
  unauthorized: [401, 'Call was not signed in'],
  forbidden: [403, 'Access may not perform the action'],
  not_found: [404, 'The entry does not exist'],
  invalid_request: [400, 'Request incomplete or unsuitable'],
  capability_denied: [409, 'Capability is not released for this connection'],
  idempotency_conflict: [409, 'Same idempotency key with different content'],
  idempotency_required: [428, 'An idempotency key is mandatory for this call'],
  rate_limited: [429, 'Too many calls in a short time'],
  internal: [500, 'Fault on the service side'],
};

export class Halt extends Error {
  readonly code: string;
  readonly detail: string | undefined;
  readonly headers: Record<string, string>;
  constructor(code: string, detail?: string, headers: Record<string, string> = {}) {
    super(code);
    this.code = code;
    this.detail = detail;
    this.headers = headers;
  }
}

/** Kemal's `halt env, status_code: …` with the failure envelope. */
export function halt(code: string, detail?: string, headers?: Record<string, string>): never {
  throw new Halt(code, detail, headers);
}

export function meta(ctx: Ctx, extra: Rec = {}): Rec {
  return { requestId: ctx.requestId, version: ctx.version, at: new Date().toISOString(), ...extra };
}

export function sendJson(ctx: Ctx, status: number, body: unknown, headers: Record<string, string> = {}): void {
  if (ctx.res.headersSent) return;
  const text = JSON.stringify(body);
  ctx.res.writeHead(status, {
    'Content-Type': 'application/json',
    'X-Request-Id': ctx.requestId,
    'Service-Version': ctx.version,
    ...ctx.rateHeaders,
    ...headers,
  });
  ctx.res.end(text);
}

export function ok(ctx: Ctx, data: Rec, extraMeta: Rec = {}): void {
  sendJson(ctx, 200, { ok: true, data, meta: meta(ctx, extraMeta) });
}

export function fail(ctx: Ctx, h: Halt): void {
  const [status, message] = MESSAGES[h.code] ?? [500, 'Fault on the service side'];
  const error: Rec = { code: h.code in MESSAGES ? h.code : 'internal', message };
  if (h.detail) error.detail = h.detail;
  sendJson(ctx, status, { ok: false, error, meta: meta(ctx) }, h.headers);
}

export async function readBody(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const c of req) chunks.push(c as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

/** The JSON body as an object, or 400 (Kemal's `env.params.json` raising on a malformed body). */
export function jsonBody(ctx: Ctx): Rec {
  let parsed: unknown;
  try {
    parsed = JSON.parse(ctx.rawBody || 'null');
  } catch {
    halt('invalid_request', 'body is not valid JSON');
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) {
    halt('invalid_request', 'body must be a JSON object');
  }
  return parsed as Rec;
}

export function str(body: Rec, field: string, min: number, max: number): string {
  const v = body[field];
  if (typeof v !== 'string') halt('invalid_request', `${field} is required and must be a string`);
  if (v.length < min || v.length > max) halt('invalid_request', `${field} must be ${min} to ${max} characters`);
  return v;
}

/** A new context, answered in the version asked for when Teak serves it. */
export function newContext(req: IncomingMessage, res: ServerResponse): Ctx {
  const url = new URL(req.url ?? '/', 'http://127.0.0.1');
  const asked = req.headers['service-version'];
  const ctx: Ctx = {
    req,
    res,
    url,
    method: req.method ?? 'GET',
    path: url.pathname.replace(/\/+$/, '') || '/',
    requestId: `req_${snowflake(3n)}`,
    version: VERSION,
    params: {},
    rawBody: '',
    rateHeaders: {},
  };
  if (typeof asked === 'string' && (VERSIONS as readonly string[]).includes(asked)) ctx.version = asked;
  return ctx;
}

/** Refuses a Service-Version Teak does not serve (the interface leaves it open: Teak is strict). */
export function checkVersion(ctx: Ctx, required: boolean): void {
  const asked = ctx.req.headers['service-version'];
  if (required && (typeof asked !== 'string' || asked === ''))
    halt('invalid_request', 'header Service-Version is required');
  if (typeof asked === 'string' && asked !== '' && !(VERSIONS as readonly string[]).includes(asked)) {
    halt('invalid_request', `unknown Service-Version ${asked}; served: ${VERSIONS.join(', ')}`);
  }
}
