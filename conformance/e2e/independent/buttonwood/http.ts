// Marshalling and rejection handling: what Akka HTTP's `complete(...)` and a custom RejectionHandler do. Every
// JSON answer is wrapped in the interface's envelope; every rejection becomes the failure envelope with a code
// from the interface's table (Akka's own 405/415/422 statuses are mapped onto 400/404, the only ones allowed).
import type { IncomingMessage, ServerResponse } from 'node:http';
import { instant, newId, type Rec, VERSION, VERSIONS } from './state.ts';

export interface Ctx {
  req: IncomingMessage;
  res: ServerResponse;
  path: string;
  query: URLSearchParams;
  requestId: string;
  version: string;
  raw: string;
  headers: Record<string, string>;
  tenant?: string;
  clientId?: string;
}

export class Rejection extends Error {
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

export const bad = (message: string, detail?: string) => new Rejection(400, 'invalid_request', message, detail);
export const notFound = (what: string) => new Rejection(404, 'not_found', `${what} does not exist`);

export function meta(ctx: Ctx, extra: Rec = {}): Rec {
  return { requestId: ctx.requestId, version: ctx.version, at: instant(), ...extra };
}

export function sendJson(ctx: Ctx, status: number, body: Rec): void {
  const text = JSON.stringify(body);
  ctx.res.writeHead(status, {
    ...ctx.headers,
    'content-type': 'application/json',
    'x-request-id': ctx.requestId,
    'content-length': Buffer.byteLength(text),
  });
  ctx.res.end(text);
}

export function ok(ctx: Ctx, data: Rec, extraMeta: Rec = {}): Rec {
  const body = { ok: true, data, meta: meta(ctx, extraMeta) };
  sendJson(ctx, 200, body);
  return body;
}

export function fail(ctx: Ctx, r: Rejection): void {
  // circe's dropNullValues: optional fields are left out, never written as null.
  const error: Rec = { code: r.code, message: r.message };
  if (r.detail) error.detail = r.detail;
  if (r.hint) error.hint = r.hint;
  sendJson(ctx, r.status, { ok: false, error, meta: meta(ctx) });
}

export async function readBody(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const c of req) chunks.push(c as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

/** entity(as[T]): a JSON object body, else a 400 (Akka's MalformedRequestContentRejection). */
export function jsonBody(ctx: Ctx): Rec {
  let parsed: unknown;
  try {
    parsed = JSON.parse(ctx.raw);
  } catch {
    throw bad('The request content was malformed', 'body is not valid JSON');
  }
  if (!parsed || typeof parsed !== 'object' || Array.isArray(parsed))
    throw bad('The request content must be an object');
  return parsed as Rec;
}

export function str(body: Rec, field: string, min: number, max: number, required = true): string | undefined {
  const v = body[field];
  if (v === undefined || v === null) {
    if (required) throw bad(`Missing required field ${field}`);
    return undefined;
  }
  if (typeof v !== 'string') throw bad(`Field ${field} must be a string`);
  if (v.length < min || v.length > max) throw bad(`Field ${field} must have length ${min} to ${max}`);
  return v;
}

/** The Service-Version header: optional; a known earlier version is answered as itself, an unknown one refused. */
export function negotiateVersion(value: string | undefined, required = false): string {
  if (required && !value) {
    throw new Rejection(
      400,
      'invalid_request',
      'Missing Service-Version header',
      undefined,
      `send Service-Version: ${VERSION}`,
    );
  }
  if (value === undefined || value === '') return VERSION;
  if (VERSIONS.includes(value.trim())) return value.trim();
  throw new Rejection(400, 'invalid_request', 'Unsupported Service-Version', undefined, `use ${VERSION}`);
}

export const newRequestId = (): string => newId();
