// Sinatra's request plumbing on node:http: a context per call, `halt` as a thrown error carrying the JSON
// failure body, and the envelope every answer goes out in (Oj-style string keys, meta last).
import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { type Rec, rubyTime, type Store } from './state.ts';

export interface Ctx {
  store: Store;
  req: IncomingMessage;
  res: ServerResponse;
  url: URL;
  /** The address the call came to (main or alternate), for links built from the request. */
  origin: string;
  params: Record<string, string>;
  body: Rec | undefined;
  rawBody: string;
  requestId: string;
  version: string;
  tenant: string;
  clientId: string;
  idempotencyKey?: string;
  replayed?: boolean;
  headers: Record<string, string>;
}

/** Sinatra's `halt status, json(error: ...)`. */
export class Halt extends Error {
  status: number;
  code: string;
  detail: string | undefined;
  hint: string | undefined;
  extraHeaders: Record<string, string>;
  constructor(status: number, code: string, message: string, detail?: string, hint?: string) {
    super(message);
    this.status = status;
    this.code = code;
    this.detail = detail;
    this.hint = hint;
    this.extraHeaders = {};
  }
}

export const invalid = (detail: string) =>
  new Halt(
    400,
    'invalid_request',
    'The request is incomplete or unsuitable.',
    detail,
    'Check the request against the OpenAPI document.',
  );

export function meta(ctx: Ctx): Rec {
  const m: Rec = { requestId: ctx.requestId, version: ctx.version, at: rubyTime(ctx.store) };
  if (ctx.idempotencyKey) m.idempotencyKey = ctx.idempotencyKey;
  if (ctx.replayed) m.replayed = true;
  return m;
}

export function newRequestId(): string {
  return randomUUID();
}

export function sendJson(ctx: Ctx, status: number, body: Rec, extra: Record<string, string> = {}): void {
  const text = JSON.stringify(body);
  ctx.res.writeHead(status, {
    'content-type': 'application/json',
    'x-request-id': ctx.requestId,
    'x-runtime': '0.004211',
    ...ctx.headers,
    ...extra,
  });
  ctx.res.end(text);
}

export function sendError(ctx: Ctx, h: Halt): void {
  const error: Rec = { code: h.code, message: h.message };
  if (h.detail) error.detail = h.detail;
  if (h.hint) error.hint = h.hint;
  sendJson(ctx, h.status, { ok: false, error, meta: meta(ctx) }, h.extraHeaders);
}

export function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    req.on('error', reject);
  });
}

/** The JSON body as Sinatra's `JSON.parse(request.body.read)` with a rescue: anything else is a 400. */
export function parseJsonBody(ctx: Ctx): Rec {
  const type = String(ctx.req.headers['content-type'] ?? '');
  if (!/^application\/([\w.+-]+\+)?json\b/i.test(type)) throw invalid('Content-Type must be application/json.');
  let parsed: unknown;
  try {
    parsed = JSON.parse(ctx.rawBody);
  } catch {
    throw invalid('The body is not valid JSON.');
  }
  if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed))
    throw invalid('The body must be a JSON object.');
  return parsed as Rec;
}

/** Length in characters as Ruby's String#length counts them (code points). */
export function charLength(s: string): number {
  return [...s].length;
}

/** dry-validation's `validate_keys`: with strict keys, a field outside `allowed` is refused. */
export function onlyKeys(ctx: Ctx, body: Rec, allowed: string[]): void {
  if (!ctx.store.options.strictKeys) return;
  const extra = Object.keys(body).filter((k) => !allowed.includes(k));
  if (extra.length > 0) throw invalid(`${extra.join(', ')}: is not allowed`);
}

/** A required string field with a length range (dry-validation's `filled?` and `size?`). */
export function requireString(body: Rec, field: string, min: number, max: number): string {
  const v = body[field];
  if (v === undefined || v === null) throw invalid(`${field} is missing`);
  if (typeof v !== 'string') throw invalid(`${field} must be a string`);
  const n = charLength(v);
  if (n < min || n > max) throw invalid(`${field} size must be within ${min} - ${max}`);
  return v;
}
