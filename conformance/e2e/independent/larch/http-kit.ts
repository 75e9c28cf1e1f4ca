// Envelopes, error rendering and body reading: what a Spring @ControllerAdvice and Jackson would do for us.
import { randomBytes } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { VERSION } from './options.ts';

// LARCH_MICRO_TIMES=1 (by hand only: it is process-wide) writes microseconds, as Instant.now() on Linux does.
const micro = process.env.LARCH_MICRO_TIMES === '1';
// LARCH_PROBLEM_JSON=1 (by hand only): errors served as application/problem+json, as Spring 6 ProblemDetail does.
const problemJson = process.env.LARCH_PROBLEM_JSON === '1';

/** Java Instant.toString(): milliseconds, the fraction dropped when it is zero. */
export function instant(ms: number = Date.now()): string {
  const iso = new Date(ms).toISOString();
  if (micro) return iso.replace('Z', `${String(Math.floor(Math.random() * 1000)).padStart(3, '0')}Z`);
  return iso.replace('.000Z', 'Z');
}

/** A trace id in the Micrometer/Sleuth form (32 lowercase hex), quoted as meta.requestId and X-Request-Id. */
export function traceId(): string {
  return randomBytes(16).toString('hex');
}

export type Ctx = {
  req: IncomingMessage;
  res: ServerResponse;
  requestId: string;
  version: string;
  path: string;
  query: URLSearchParams;
  origin: string;
  idempotencyKey?: string;
  headers: Record<string, string>;
};

export type Meta = Record<string, unknown>;

function meta(ctx: Ctx, extra: Meta = {}): Meta {
  return { requestId: ctx.requestId, version: ctx.version || VERSION, at: instant(), ...extra };
}

/** What Spring Security's default header writers add to every answer. */
export const SECURITY_HEADERS: Record<string, string> = {
  vary: 'Origin, Access-Control-Request-Method, Access-Control-Request-Headers',
  'x-content-type-options': 'nosniff',
  'x-xss-protection': '0',
  'cache-control': 'no-cache, no-store, max-age=0, must-revalidate',
  pragma: 'no-cache',
  expires: '0',
  'x-frame-options': 'DENY',
};

export function sendJson(ctx: Ctx, status: number, body: unknown, headers: Record<string, string> = {}): void {
  if (ctx.res.headersSent) return;
  const text = JSON.stringify(body);
  ctx.res.writeHead(status, {
    // The Spring 4 era MediaType APPLICATION_JSON_UTF8 spelling, kept by many Spring services.
    'content-type': 'application/json;charset=UTF-8',
    'x-request-id': ctx.requestId,
    ...SECURITY_HEADERS,
    ...ctx.headers,
    ...headers,
  });
  ctx.res.end(text);
}

export function ok(ctx: Ctx, data: unknown, extraMeta: Meta = {}): void {
  const m = ctx.idempotencyKey ? { idempotencyKey: ctx.idempotencyKey, ...extraMeta } : extraMeta;
  sendJson(ctx, 200, { ok: true, data, meta: meta(ctx, m) });
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

/** A refusal carried as a value, thrown by validators and services, rendered once by the dispatcher. */
export class ApiError extends Error {
  code: string;
  detail: string;
  hint: string;
  headers: Record<string, string>;
  /** Set when a stored refusal is answered again for its Idempotency-Key. */
  replayed = false;
  constructor(code: string, message: string, detail: string, hint: string, headers: Record<string, string> = {}) {
    super(message);
    this.code = code;
    this.detail = detail;
    this.hint = hint;
    this.headers = headers;
  }
}

export function fail(ctx: Ctx, e: ApiError): void {
  const status = STATUS[e.code] ?? 500;
  // meta.idempotencyKey names the key the call carried; a refusal is never marked replayed.
  const m: Meta = ctx.idempotencyKey ? { idempotencyKey: ctx.idempotencyKey } : {};
  if (e.replayed) m.replayed = true;
  sendJson(
    ctx,
    status,
    { ok: false, error: { code: e.code, message: e.message, detail: e.detail, hint: e.hint }, meta: meta(ctx, m) },
    problemJson ? { 'content-type': 'application/problem+json', ...e.headers } : e.headers,
  );
}

export function invalid(
  message: string,
  detail: string,
  hint = 'Check the request against the published OpenAPI description.',
): ApiError {
  return new ApiError('invalid_request', message, detail, hint);
}

export function notFound(what: string, id: string): ApiError {
  return new ApiError(
    'not_found',
    `${what} not found`,
    `No ${what.toLowerCase()} with id '${id.slice(0, 120)}' exists for this tenant.`,
    'Compare the identifier and the x-service-tenant header.',
  );
}

/** Reads at most 64 KiB; larger bodies are refused (Spring's max-http-form-post-size analogue). */
export async function readBody(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const c of req) {
    const b = c as Buffer;
    size += b.length;
    if (size > 65_536) throw invalid('Request body too large', 'The body exceeds 65536 bytes.');
    chunks.push(b);
  }
  return Buffer.concat(chunks).toString('utf8');
}

/** Parses a JSON object body; anything else is a 400 (HttpMessageNotReadableException). */
export function parseJsonObject(ctx: Ctx, raw: string): Record<string, unknown> {
  const type = String(ctx.req.headers['content-type'] ?? '').toLowerCase();
  if (!type.startsWith('application/json') && !/^application\/[a-z0-9.+-]*\+json/.test(type)) {
    throw invalid(
      'Unsupported content type',
      `Content type '${type.slice(0, 80) || 'none'}' is not supported.`,
      'Send the body as application/json.',
    );
  }
  let value: unknown;
  try {
    value = JSON.parse(raw);
  } catch {
    throw invalid('Malformed JSON body', 'The request body is not valid JSON.', 'Send a JSON object.');
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw invalid('Malformed JSON body', 'The request body must be a JSON object.', 'Send a JSON object.');
  }
  return value as Record<string, unknown>;
}

/** Canonical JSON (sorted keys) for fingerprints and digests. */
export function canonical(v: unknown): string {
  if (Array.isArray(v)) return `[${v.map(canonical).join(',')}]`;
  if (v && typeof v === 'object') {
    const o = v as Record<string, unknown>;
    return `{${Object.keys(o)
      .sort()
      .filter((k) => o[k] !== undefined)
      .map((k) => `${JSON.stringify(k)}:${canonical(o[k])}`)
      .join(',')}}`;
  }
  return JSON.stringify(v);
}
