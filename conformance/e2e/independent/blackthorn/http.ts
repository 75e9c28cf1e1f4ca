// Envelopes and body reading: the contract's success and failure shapes around every JSON answer, the way
// a Ring response map with Muuntaja's JSON encoder would produce them.
import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { CURRENT, instant, type Rec } from './state.ts';

export interface Ctx {
  req: IncomingMessage;
  res: ServerResponse;
  url: URL;
  requestId: string;
  version: string;
  headers: Record<string, string>;
  tenant?: string;
  clientId?: string;
  raw?: string;
  body?: unknown;
  idempotencyKey?: string;
  params: Record<string, string>;
}

/** Thrown anywhere in the chain; the outermost interceptor turns it into the failure envelope. */
export class ApiError extends Error {
  readonly status: number;
  readonly code: string;
  readonly detail: string | undefined;
  readonly hint: string | undefined;
  constructor(status: number, code: string, message: string, detail?: string, hint?: string) {
    super(message);
    this.status = status;
    this.code = code;
    this.detail = detail;
    this.hint = hint;
  }
}

export const newRequestId = () => `req-${randomUUID()}`;

export function meta(ctx: Ctx, extra: Rec = {}): Rec {
  return { requestId: ctx.requestId, version: ctx.version || CURRENT, at: instant(), ...extra };
}

export function sendJson(ctx: Ctx, status: number, body: Rec) {
  const text = JSON.stringify(body);
  ctx.res.writeHead(status, {
    ...ctx.headers,
    'content-type': 'application/json; charset=utf-8',
    'content-length': Buffer.byteLength(text),
    'x-request-id': ctx.requestId,
  });
  ctx.res.end(text);
}

export function ok(ctx: Ctx, data: Rec, extraMeta: Rec = {}) {
  sendJson(ctx, 200, { ok: true, data, meta: meta(ctx, extraMeta) });
}

export function fail(ctx: Ctx, e: ApiError) {
  const error: Rec = { code: e.code, message: e.message };
  if (e.detail) error.detail = e.detail;
  if (e.hint) error.hint = e.hint;
  sendJson(ctx, e.status, { ok: false, error, meta: meta(ctx) });
}

export function readRaw(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (c: Buffer) => {
      size += c.length;
      // A body far beyond any contract limit is refused early rather than buffered.
      if (size > 256_000) reject(new ApiError(400, 'invalid_request', 'Request body too large'));
      else chunks.push(c);
    });
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    req.on('error', reject);
  });
}

/** Muuntaja decodes only JSON here; anything else is an unsuitable request (400, never 415). */
export function parseJson(ctx: Ctx): Rec {
  const raw = ctx.raw ?? '';
  let value: unknown;
  try {
    value = raw.trim() === '' ? undefined : JSON.parse(raw);
  } catch {
    throw new ApiError(400, 'invalid_request', 'Malformed JSON body', 'body: could not be decoded as JSON');
  }
  if (value === null || typeof value !== 'object' || Array.isArray(value)) {
    throw new ApiError(400, 'invalid_request', 'Request body must be a JSON object', 'body: should be a map');
  }
  return value as Rec;
}

// RFC 8785 (JCS) for the values this service stores: sorted keys, JSON's own string and number forms. Used for
// idempotency fingerprints (key order must not matter) and the audit chain's entry hashes.

export function canonical(v: unknown): string {
  if (v === null || typeof v !== 'object') return JSON.stringify(v) ?? 'null';
  if (Array.isArray(v)) return `[${v.map(canonical).join(',')}]`;
  const o = v as Rec;
  const keys = Object.keys(o)
    .filter((k) => o[k] !== undefined)
    .sort();
  return `{${keys.map((k) => `${JSON.stringify(k)}:${canonical(o[k])}`).join(',')}}`;
}
