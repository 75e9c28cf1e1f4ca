// Request/response plumbing of palmetto: what Dropwizard gives a resource for free (Jackson bodies, the
// `{code, message}` error JSON, the X-Request-Id header), mapped into the interface's envelopes.
import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';

// biome-ignore lint/suspicious/noExplicitAny: JSON payloads, as the folder's Rec convention
export type Rec = Record<string, any>;

export const CURRENT = '2026-07-01';
export const VERSIONS = ['2026-07-01', '2026-06-12'];

/** One call as the resources see it (Jersey's ContainerRequestContext, reduced). */
export interface Ctx {
  req: IncomingMessage;
  res: ServerResponse;
  url: URL;
  params: Record<string, string>;
  requestId: string;
  version: string;
  raw: string;
  body: Rec | undefined;
  tenant: string;
  clientId: string;
  headers: Record<string, string>;
}

/** A WebApplicationException: thrown anywhere, mapped once by the exception mapper in server.ts. */
export class ApiError extends Error {
  readonly status: number;
  readonly code: string;
  readonly detail: string | undefined;
  readonly headers: Record<string, string>;
  constructor(status: number, code: string, message: string, detail?: string, headers: Record<string, string> = {}) {
    super(message);
    this.status = status;
    this.code = code;
    this.detail = detail;
    this.headers = headers;
  }
}

export const newRequestId = (): string => randomUUID();

export function meta(ctx: Pick<Ctx, 'requestId' | 'version'>, extra: Rec = {}): Rec {
  return { requestId: ctx.requestId, version: ctx.version, at: new Date().toISOString(), ...extra };
}

export function sendJson(ctx: Ctx, status: number, body: unknown, headers: Record<string, string> = {}): void {
  if (ctx.res.headersSent) return;
  const text = JSON.stringify(body);
  ctx.res.writeHead(status, {
    'content-type': 'application/json',
    'x-request-id': ctx.requestId,
    ...ctx.headers,
    ...headers,
  });
  ctx.res.end(text);
}

export function ok(ctx: Ctx, data: unknown, extraMeta: Rec = {}): void {
  sendJson(ctx, 200, { ok: true, data, meta: meta(ctx, extraMeta) });
}

/** The ExceptionMapper: Dropwizard's `{code, message}` becomes the failure envelope, never a stack trace. */
export function sendError(ctx: Ctx, err: unknown): void {
  const e =
    err instanceof ApiError ? err : new ApiError(500, 'internal', 'There was an error processing your request.');
  if (!(err instanceof ApiError)) console.error(`palmetto ${ctx.requestId}`, err);
  const error: Rec = { code: e.code, message: e.message };
  if (e.detail !== undefined) error.detail = e.detail;
  sendJson(ctx, e.status, { ok: false, error, meta: meta(ctx) }, e.headers);
}

export function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    req.on('error', reject);
  });
}

/** Jackson's parse of a JSON body: a syntax error is "Unable to process JSON" (Dropwizard's 400). */
export function parseJson(ctx: Ctx): Rec {
  const type = String(ctx.req.headers['content-type'] ?? '');
  if (!/^application\/([a-z.+-]*\+)?json\b/i.test(type)) {
    throw new ApiError(
      400,
      'invalid_request',
      'HTTP 415 Unsupported Media Type',
      'Content-Type must be application/json',
    );
  }
  let v: unknown;
  try {
    v = JSON.parse(ctx.raw);
  } catch {
    throw new ApiError(400, 'invalid_request', 'Unable to process JSON');
  }
  if (v === null || typeof v !== 'object' || Array.isArray(v)) {
    throw new ApiError(400, 'invalid_request', 'Unable to process JSON', 'the body must be a JSON object');
  }
  return v as Rec;
}

/** Hibernate Validator's @NotNull/@Size checks with its stock messages ("size must be between 2 and 120"). */
export function str(body: Rec, field: string, min: number, max: number, required = true): string | undefined {
  const v = body[field];
  if (v === undefined || v === null) {
    if (required) throw new ApiError(400, 'invalid_request', `${field} must not be null`, `body.${field}`);
    return undefined;
  }
  if (typeof v !== 'string') throw new ApiError(400, 'invalid_request', `${field} must be a string`, `body.${field}`);
  if (v.length < min || v.length > max) {
    throw new ApiError(400, 'invalid_request', `${field} size must be between ${min} and ${max}`, `body.${field}`);
  }
  return v;
}
