// Wire helpers in the manner of Helidon SE with JSON-B: properties written in lexicographical order (JSON-B's
// default PropertyOrderStrategy) and null values omitted (Yasson's default), timestamps as OffsetDateTime.
import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';

// biome-ignore lint/suspicious/noExplicitAny: JSON documents are loosely typed, as elsewhere in the kit's folders
export type Rec = Record<string, any>;

export const VERSION = '2026-07-01';
export const VERSIONS = ['2026-06-12', '2026-07-01'];
export const BASE = '/api/public/v1';

/** The request's context, filled by the filters (request id, version, principal, tenant, rate-limit headers). */
export interface Ctx {
  req: IncomingMessage;
  res: ServerResponse;
  url: URL;
  requestId: string;
  version: string;
  clientId?: string;
  tenant?: string;
  headers: Record<string, string>;
}

export function newCtx(req: IncomingMessage, res: ServerResponse): Ctx {
  const url = new URL(req.url ?? '/', 'http://127.0.0.1');
  return { req, res, url, requestId: randomUUID(), version: VERSION, headers: {} };
}

/** An OffsetDateTime as Oracle's TIMESTAMP WITH TIME ZONE hands it back: microseconds and an explicit +00:00 offset. */
export function offsetDateTime(ms: number = Date.now()): string {
  return new Date(ms).toISOString().replace(/\.(\d{3})Z$/, '.$1000+00:00');
}

/** JSON-B style: keys sorted, nulls and undefined dropped, recursively. */
export function jsonb(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(jsonb);
  if (value && typeof value === 'object') {
    const out: Rec = {};
    for (const k of Object.keys(value).sort()) {
      const v = (value as Rec)[k];
      if (v !== null && v !== undefined) out[k] = jsonb(v);
    }
    return out;
  }
  return value;
}

export class ApiError extends Error {
  readonly status: number;
  readonly code: string;
  readonly detail: string | undefined;
  readonly extraHeaders: Record<string, string>;
  constructor(
    status: number,
    code: string,
    message: string,
    detail?: string,
    extraHeaders: Record<string, string> = {},
  ) {
    super(message);
    this.status = status;
    this.code = code;
    this.detail = detail;
    this.extraHeaders = extraHeaders;
  }
}

export const bad = (message: string, detail?: string) => new ApiError(400, 'invalid_request', message, detail);
export const notFound = (what = 'The entry does not exist') => new ApiError(404, 'not_found', what);

function meta(ctx: Ctx, extra: Rec = {}): Rec {
  return { requestId: ctx.requestId, version: ctx.version, at: offsetDateTime(), ...extra };
}

export function send(ctx: Ctx, status: number, body: unknown, headers: Record<string, string> = {}): void {
  const text = JSON.stringify(jsonb(body));
  ctx.res.writeHead(status, { ...ctx.headers, ...headers, 'content-type': 'application/json' });
  ctx.res.end(text);
}

export function ok(ctx: Ctx, data: Rec, metaExtra: Rec = {}): Rec {
  const body = { ok: true, data, meta: meta(ctx, metaExtra) };
  send(ctx, 200, body);
  return body;
}

export function fail(ctx: Ctx, e: ApiError): void {
  const hint = e.code === 'rate_limited' ? 'Respect Retry-After and retry with growing intervals' : undefined;
  const body = { ok: false, error: { code: e.code, message: e.message, detail: e.detail, hint }, meta: meta(ctx) };
  send(ctx, e.status, body, e.extraHeaders);
}

export async function readRaw(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const c of req) chunks.push(c as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

/** A JSON object body; anything else is a 400 (Helidon would say 415 for a wrong media type, not in the contract). */
export async function readJson(ctx: Ctx): Promise<Rec> {
  const raw = await readRaw(ctx.req);
  let parsed: unknown;
  try {
    parsed = JSON.parse(raw);
  } catch {
    throw bad('Request body must be a JSON object');
  }
  if (!parsed || typeof parsed !== 'object' || Array.isArray(parsed)) throw bad('Request body must be a JSON object');
  return parsed as Rec;
}

/** Bean Validation's @Size on a string field. */
export function str(body: Rec, field: string, min: number, max: number, required = true): string | undefined {
  const v = body[field];
  if (v === undefined || v === null) {
    if (required) throw bad(`${field}: must not be null`);
    return undefined;
  }
  if (typeof v !== 'string') throw bad(`${field}: must be a string`);
  if (v.length < min || v.length > max) throw bad(`${field}: size must be between ${min} and ${max}`);
  return v;
}
