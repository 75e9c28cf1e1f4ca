// Response plumbing in the team's house style: Cloudflare-style ray ids, pretty JSON with a charset, and the
// interface's envelopes. Every answer goes through sendJson/sendError so the headers never diverge.
import { randomBytes } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';

export const CURRENT_VERSION = '2026-07-01';
export const VERSIONS = ['2026-07-01', '2026-06-12'];
export const BASE = '/api/public/v1';

/** One call's context, filled in by the router as the request passes the middleware. */
export interface Call {
  req: IncomingMessage;
  res: ServerResponse;
  method: string;
  path: string;
  query: URLSearchParams;
  origin: string;
  requestId: string;
  version: string;
  idempotencyKey?: string;
  headers: Record<string, string>;
  clientId?: string;
  tenant?: string;
  token?: string;
  /** PHP json_encode style slashes (a deployment option). */
  escapeSlashes?: boolean;
}

/** Cloudflare ray ids: 16 hex digits and the colo; our edge sits in Amsterdam. */
export function rayId(): string {
  return `${randomBytes(8).toString('hex')}-AMS`;
}

/** Laravel serialises Carbon dates with microseconds: 2026-11-27T03:10:00.123000Z. */
export function isoMicros(ms: number = Date.now()): string {
  return new Date(ms).toISOString().replace(/\.(\d{3})Z$/, '.$1000Z');
}

export function meta(call: Call, extra: Record<string, unknown> = {}): Record<string, unknown> {
  const m: Record<string, unknown> = { requestId: call.requestId, version: call.version, at: isoMicros() };
  if (call.idempotencyKey !== undefined) m.idempotencyKey = call.idempotencyKey;
  return { ...m, ...extra };
}

function baseHeaders(call: Call): Record<string, string> {
  return {
    'cf-ray': call.requestId,
    'x-request-id': call.requestId,
    server: 'cloudflare',
    'cf-cache-status': 'DYNAMIC',
    'cache-control': 'no-store, private',
    ...call.headers,
  };
}

export function sendRaw(call: Call, status: number, contentType: string, body: string): void {
  if (call.res.headersSent) return;
  call.res.writeHead(status, { ...baseHeaders(call), 'content-type': contentType });
  call.res.end(body);
}

/** Laravel's JSON_PRETTY_PRINT uses 4 spaces; the team's response macro re-indents to 2. */
export function sendJson(call: Call, status: number, body: unknown): void {
  sendRaw(call, status, 'application/json; charset=utf-8', `${jsonText(body, 2, call.escapeSlashes === true)}\n`);
}

/** JSON as PHP writes it; `/` occurs in JSON text only inside strings, so `\/` escapes are a plain replace. */
export function jsonText(body: unknown, indent: number, escapeSlashes: boolean): string {
  const text = JSON.stringify(body, null, indent);
  return escapeSlashes ? text.replaceAll('/', '\\/') : text;
}

export function sendOk(call: Call, data: unknown, extraMeta: Record<string, unknown> = {}): void {
  sendJson(call, 200, { ok: true, data, meta: meta(call, extraMeta) });
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

const DEFAULT_HINT: Record<string, string> = {
  unauthorized: 'Request a new access token from the token endpoint and check the environment.',
  forbidden: 'Check the permissions of the access and the x-service-tenant header.',
  not_found: 'Compare the identifier and the x-service-tenant header.',
  invalid_request: 'Check the request against the published description at /api/public/v1/openapi.json.',
  capability_denied: 'Have the capability released for this connector and environment.',
  idempotency_conflict: 'Use a new Idempotency-Key for each new operation.',
  idempotency_required: 'Send an Idempotency-Key header (pattern ^[A-Za-z0-9._:-]{8,128}$).',
  rate_limited: 'Respect Retry-After and retry with growing intervals.',
  internal: 'Note the request id and inform support.',
};

/** The error `hint` is always filled: a specific one where the caller gives it, else the code's remedy. */
export function sendError(call: Call, code: string, message: string, detail?: string, hint?: string): void {
  const error: Record<string, string> = { code, message };
  if (detail !== undefined) error.detail = detail;
  error.hint = hint ?? DEFAULT_HINT[code] ?? 'Contact support with the request id.';
  sendJson(call, STATUS[code] ?? 500, { ok: false, error, meta: meta(call) });
}

const MAX_BODY = 256 * 1024;

/** Reads the raw body; undefined when it is larger than the team's 256 KiB (nginx client_max_body_size). */
export function readBody(req: IncomingMessage): Promise<string | undefined> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let tooLarge = false;
    req.on('data', (c: Buffer) => {
      size += c.length;
      if (size > MAX_BODY) tooLarge = true;
      else chunks.push(c);
    });
    req.on('end', () => resolve(tooLarge ? undefined : Buffer.concat(chunks).toString('utf8')));
    req.on('error', reject);
  });
}
