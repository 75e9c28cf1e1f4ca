// Response helpers in the aiohttp team's habit: web.json_response with json.dumps defaults (", "/": "
// separators, ensure_ascii=True) and isoformat() timestamps with microseconds and +00:00.
import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';

// biome-ignore lint/suspicious/noExplicitAny: the folder's Rec style
export type Rec = Record<string, any>;
export const VERSION = '2026-07-01';

/** datetime.now(timezone.utc).isoformat(): microseconds and an explicit +00:00 offset. */
export function isoNow(ms = Date.now()): string {
  return new Date(ms).toISOString().replace('Z', '000+00:00');
}

/** json.dumps(value) with Python's defaults, so non-ASCII leaves as \uXXXX escapes. */
export function pyDumps(v: unknown): string {
  if (v === null || v === undefined) return 'null';
  if (typeof v === 'string')
    return JSON.stringify(v).replace(/[\u007f-\uffff]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
  if (typeof v === 'number' || typeof v === 'boolean') return JSON.stringify(v);
  if (Array.isArray(v)) return `[${v.map(pyDumps).join(', ')}]`;
  const parts = Object.entries(v as Rec)
    .filter(([, x]) => x !== undefined)
    .map(([k, x]) => `${pyDumps(k)}: ${pyDumps(x)}`);
  return `{${parts.join(', ')}}`;
}

export interface Ctx {
  req: IncomingMessage;
  res: ServerResponse;
  url: URL;
  requestId: string;
  raw: string;
  headers: Rec;
  meta: Rec;
  tenant?: string;
  clientId?: string;
}

export function newCtx(req: IncomingMessage, res: ServerResponse, raw: string): Ctx {
  return {
    req,
    res,
    raw,
    url: new URL(req.url ?? '/', 'http://127.0.0.1'),
    requestId: randomUUID(),
    headers: {},
    meta: {},
  };
}

function send(ctx: Ctx, status: number, body: string, type = 'application/json; charset=utf-8') {
  ctx.res.writeHead(status, { 'Content-Type': type, 'X-Request-Id': ctx.requestId, ...ctx.headers });
  ctx.res.end(body);
}

export function meta(ctx: Ctx): Rec {
  return { requestId: ctx.requestId, version: VERSION, at: isoNow(), ...ctx.meta };
}

export function ok(ctx: Ctx, data: unknown): void {
  send(ctx, 200, pyDumps({ ok: true, data, meta: meta(ctx) }));
}

export function text(ctx: Ctx, body: string, type: string): void {
  send(ctx, 200, body, type);
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

/** An aiohttp HTTPException turned into the failure envelope by the error middleware. */
export class ApiError extends Error {
  readonly code: string;
  readonly detail: string | undefined;
  constructor(code: string, message: string, detail?: string) {
    super(message);
    this.code = code;
    this.detail = detail;
  }
}

export function fail(ctx: Ctx, e: ApiError): void {
  const error: Rec = { code: e.code, message: e.message };
  if (e.detail) error.detail = e.detail;
  send(ctx, STATUS[e.code] ?? 500, pyDumps({ ok: false, error, meta: meta(ctx) }));
}

export function parseJson(ctx: Ctx): Rec {
  try {
    const v = JSON.parse(ctx.raw || 'null');
    if (v && typeof v === 'object' && !Array.isArray(v)) return v;
  } catch {
    /* falls through to the 400 below */
  }
  throw new ApiError('invalid_request', 'Request body must be a JSON object.');
}

export function str(body: Rec, field: string, min: number, max: number): string {
  const v = body[field];
  if (typeof v !== 'string' || v.length < min || v.length > max)
    throw new ApiError('invalid_request', `Field ${field} must be a string of length ${min} to ${max}.`);
  return v;
}
