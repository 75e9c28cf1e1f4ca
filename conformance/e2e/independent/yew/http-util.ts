// Envelopes, ProblemDetails-style failures and request plumbing, the way an ASP.NET Core team's middleware
// would shape them: camelCase fields, a W3C trace id beside the request id, per-field `errors`.
import { randomBytes, randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';

export const CURRENT_VERSION = '2026-07-01';
export const VERSIONS = ['2026-06-12', '2026-07-01'];
const MAX_BODY = 256 * 1024;

/** One call in flight: what every handler needs to answer it. */
export interface Ctx {
  req: IncomingMessage;
  res: ServerResponse;
  url: URL;
  /** Base URL of the port that was called (main or alternate). */
  origin: string;
  requestId: string;
  traceId: string;
  version: string;
  headers: Record<string, string>;
  /** Serve failures as application/problem+json (ASP.NET's ProblemDetails media type). */
  problemJson?: boolean;
  /** Name the OData JSON format parameters in the content type, as ASP.NET Core OData does. */
  odataContentType?: boolean;
}

// Minutes east of UTC that times are written in (DateTimeOffset.Now on a server in another zone); one
// per process, so runs with different offsets must not share a process at the same time.
let offsetMinutes = 0;
export function setClockOffset(minutes: number): void {
  offsetMinutes = minutes;
}

/** .NET DateTimeOffset round-trip ("o") form: seven fraction digits and an explicit offset (+00:00 by default). */
export function isoNow(ms: number = Date.now()): string {
  const local = new Date(ms + offsetMinutes * 60_000).toISOString().slice(0, 23);
  const abs = Math.abs(offsetMinutes);
  const sign = offsetMinutes < 0 ? '-' : '+';
  return `${local}0000${sign}${String(Math.floor(abs / 60)).padStart(2, '0')}:${String(abs % 60).padStart(2, '0')}`;
}

// ASP.NET's HttpContext.TraceIdentifier shape: a connection id, a colon, a per-connection counter.
const NODE_PREFIX = randomBytes(6).toString('hex').toUpperCase();
let requestCounter = 0;
export function newRequestId(): string {
  requestCounter += 1;
  return `0H${NODE_PREFIX}:${requestCounter.toString(16).toUpperCase().padStart(8, '0')}`;
}
export function newTraceId(): string {
  return randomBytes(16).toString('hex');
}
export function newGuid(): string {
  return randomUUID();
}

export function meta(ctx: Ctx, extra: Record<string, unknown> = {}) {
  return { requestId: ctx.requestId, version: ctx.version, at: isoNow(), ...extra };
}

export function setHeader(ctx: Ctx, name: string, value: string): void {
  ctx.headers[name] = value;
}

/** Writes a JSON answer with the gateway's correlation headers and whatever the pipeline added. */
export function sendJson(ctx: Ctx, status: number, body: unknown, contentType = 'application/json; charset=utf-8') {
  if (ctx.res.headersSent) return;
  const text = JSON.stringify(body);
  const type =
    ctx.odataContentType && contentType.startsWith('application/json')
      ? 'application/json; odata.metadata=minimal; odata.streaming=true; charset=utf-8'
      : contentType;
  ctx.res.writeHead(status, {
    'content-type': type,
    'content-length': Buffer.byteLength(text),
    'cache-control': 'no-store',
    'request-id': ctx.requestId,
    'x-correlation-id': ctx.traceId,
    'api-supported-versions': VERSIONS.join(', '),
    ...ctx.headers,
  });
  ctx.res.end(text);
}

export function sendOk(ctx: Ctx, data: unknown, extraMeta: Record<string, unknown> = {}): void {
  sendJson(ctx, 200, { ok: true, data, meta: meta(ctx, extraMeta) });
}

export interface ErrorExtras {
  detail?: string;
  hint?: string;
  errors?: Record<string, string[]>;
}

const TITLES: Record<string, string> = {
  unauthorized: 'The call was not signed in.',
  forbidden: 'The access may not perform this action.',
  not_found: 'The entry does not exist.',
  invalid_request: 'One or more validation errors occurred.',
  capability_denied: 'The capability is not released for this connection.',
  idempotency_conflict: 'The idempotency key was already used with different content.',
  idempotency_required: 'An idempotency key is mandatory for this call.',
  rate_limited: 'Too many calls in a short time.',
  internal: 'An error occurred while processing your request.',
};

/** The failure envelope, with ProblemDetails extras (traceId, instance, status, per-field errors). */
export function sendError(ctx: Ctx, status: number, code: string, extras: ErrorExtras = {}, message?: string) {
  const error: Record<string, unknown> = {
    code,
    message: message ?? TITLES[code] ?? 'The request failed.',
    status,
    traceId: `00-${ctx.traceId}-${randomBytes(8).toString('hex')}-00`,
    instance: ctx.url.pathname,
  };
  if (extras.detail) error.detail = extras.detail;
  if (extras.hint) error.hint = extras.hint;
  if (extras.errors) error.errors = extras.errors;
  sendJson(
    ctx,
    status,
    { ok: false, error, meta: meta(ctx) },
    `application/${ctx.problemJson ? 'problem+json' : 'json'}; charset=utf-8`,
  );
}

export function invalid(ctx: Ctx, errors: Record<string, string[]>, detail?: string): void {
  const first = Object.values(errors)[0]?.[0];
  sendError(ctx, 400, 'invalid_request', {
    errors,
    detail: detail ?? first,
    hint: 'Check the request against /api/public/v1/openapi.json.',
  });
}

/** Reads the raw body (bounded); undefined when it is too large. */
export async function readBody(req: IncomingMessage): Promise<string | undefined> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    size += (chunk as Buffer).length;
    if (size > MAX_BODY) return undefined;
    chunks.push(chunk as Buffer);
  }
  return Buffer.concat(chunks).toString('utf8');
}

/** Sorted-key JSON, the fingerprint form of a body. */
export function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`;
  if (value && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonical(v)}`).join(',')}}`;
  }
  return JSON.stringify(value);
}
