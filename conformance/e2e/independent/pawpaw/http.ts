// Request context and the envelopes: Micronaut's problem+json error handling (an ExceptionHandler per error
// kind) wrapped into the interface's failure envelope, and the success envelope every JSON answer carries.
import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { instant, type Rec, VERSION, VERSIONS } from './state.ts';

export interface Ctx {
  req: IncomingMessage;
  res: ServerResponse;
  method: string;
  path: string;
  query: URLSearchParams;
  requestId: string;
  version: string;
  raw: string;
  origin: string;
  headers: Record<string, string>;
  tenant?: string;
  clientId?: string;
  idempotencyKey?: string;
  /** Headers every answer of this call carries (the rate-limit headers of a counted call). */
  extra: Rec;
  /** The deployment's zone offset for written dates (minutes). */
  utcOffset: number;
  /** Indentation of written JSON (0: compact). */
  indent: number;
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

/** Thrown by handlers, turned into the failure envelope by the server's error handler. */
export class HttpProblem extends Error {
  readonly code: string;
  readonly detail: string | undefined;
  readonly hint: string | undefined;
  /** Headers the failure answer carries (Retry-After of a 429). */
  headers: Rec = {};
  constructor(code: string, message: string, detail?: string, hint?: string) {
    super(message);
    this.code = code;
    this.detail = detail;
    this.hint = hint;
  }
  get status(): number {
    return STATUS[this.code] ?? 500;
  }
}

export const bad = (message: string, detail?: string) =>
  new HttpProblem('invalid_request', message, detail, 'Check the request against the published description.');

export function meta(ctx: Ctx, extra: Rec = {}): Rec {
  return { requestId: ctx.requestId, version: ctx.version, at: instant(undefined, ctx.utcOffset), ...extra };
}

export function sendJson(ctx: Ctx, status: number, body: unknown, type = 'application/json', headers: Rec = {}) {
  if (ctx.res.headersSent) return;
  ctx.res.writeHead(status, { 'content-type': type, 'x-request-id': ctx.requestId, ...ctx.extra, ...headers });
  ctx.res.end(typeof body === 'string' ? body : JSON.stringify(body, null, ctx.indent || undefined));
}

export function ok(ctx: Ctx, data: Rec, extraMeta: Rec = {}) {
  sendJson(ctx, 200, { ok: true, data, meta: meta(ctx, extraMeta) });
}

/** problem+json members (type, title, status) ride beside the interface's code/message, as the team's handler writes them. */
export function fail(ctx: Ctx, p: HttpProblem, headers: Rec = {}) {
  const error: Rec = { code: p.code, message: p.message };
  if (p.detail) error.detail = p.detail;
  if (p.hint) error.hint = p.hint;
  error.type = `https://pawpaw.example/problems/${p.code.replaceAll('_', '-')}`;
  error.status = p.status;
  sendJson(ctx, p.status, { ok: false, error, meta: meta(ctx) }, 'application/problem+json', headers);
}

export function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    req.on('error', reject);
  });
}

/** Jackson's ObjectMapper: JSON only (a form body is refused 400), unknown properties ignored (Micronaut's default). */
export function jsonBody(ctx: Ctx): Rec {
  const type = ctx.headers['content-type'] ?? '';
  if (!/^application\/(.+\+)?json\b/i.test(type))
    throw bad('Request body must be JSON', 'content-type application/json');
  let parsed: unknown;
  try {
    parsed = JSON.parse(ctx.raw);
  } catch {
    throw bad('Malformed JSON body');
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) throw bad('Body must be a JSON object');
  return parsed as Rec;
}

export function text(body: Rec, field: string, min: number, max: number): string {
  const v = body[field];
  if (v === undefined || v === null) throw bad(`${field}: must not be null`);
  if (typeof v !== 'string') throw bad(`${field}: must be a string`);
  if (v.length < min || v.length > max) throw bad(`${field}: size must be between ${min} and ${max}`);
  return v;
}

/** An unknown Service-Version is refused, like Micronaut's header-based route versioning finding no route. */
export function checkVersion(ctx: Ctx) {
  const asked = ctx.headers['service-version'];
  if (asked !== undefined && !(VERSIONS as readonly string[]).includes(asked))
    throw bad('Unknown Service-Version', `supported: ${VERSIONS.join(', ')}`);
}

export async function makeCtx(req: IncomingMessage, res: ServerResponse): Promise<Ctx> {
  const url = new URL(req.url ?? '/', 'http://127.0.0.1');
  const headers: Record<string, string> = {};
  for (const [k, v] of Object.entries(req.headers)) if (typeof v === 'string') headers[k.toLowerCase()] = v;
  const asked = headers['service-version'];
  const ctx: Ctx = {
    req,
    res,
    method: req.method ?? 'GET',
    path: url.pathname.replace(/\/+$/, '') || '/',
    query: url.searchParams,
    requestId: randomUUID(),
    version: asked && (VERSIONS as readonly string[]).includes(asked) ? asked : VERSION,
    raw: await readBody(req),
    origin: `http://${headers.host ?? '127.0.0.1'}`,
    headers,
    extra: {},
    utcOffset: 0,
    indent: 0,
  };
  return ctx;
}
