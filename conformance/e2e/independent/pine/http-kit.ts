// Plumbing shared by every handler: request ids (Phoenix's Plug.RequestId style), Elixir-style timestamps,
// the success and failure envelopes, and reading a request body. Handlers never write to `res` directly.
import { randomBytes } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';

export const CURRENT_VERSION = '2026-07-01';
export const PUBLISHED_VERSIONS = ['2026-06-12', '2026-07-01'];

const BASE32 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567';

/** `F` + 19 base32 characters, like the ids Phoenix puts in `x-request-id`. */
export function requestId(): string {
  const bytes = randomBytes(19);
  let out = 'F';
  for (const b of bytes) out += BASE32[b % 32];
  return out;
}

/** Elixir's `DateTime.to_iso8601/1` of a `utc_datetime_usec`: always six fraction digits, `Z`. */
export function isoUsec(ms: number): string {
  return new Date(ms).toISOString().replace(/\.(\d{3})Z$/, '.$1000Z');
}

/** The id Fly's edge proxy gives every request (a ULID-like value and the region), sent as fly-request-id. */
export function flyRequestId(): string {
  const crockford = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';
  let out = '01';
  for (const b of randomBytes(24)) out += crockford[b % 32];
  return `${out}-fra`;
}

/** Plug.RequestId keeps a client's x-request-id when it is 20 to 200 characters of its alphabet. */
export function incomingRequestId(value: string | string[] | undefined): string | undefined {
  return typeof value === 'string' && /^[A-Za-z0-9+/=_-]{20,200}$/.test(value) ? value : undefined;
}

/** One call as the handlers see it. */
export interface Ctx {
  req: IncomingMessage;
  res: ServerResponse;
  url: URL;
  /** The origin the call came in on (main or alternate base address). */
  origin: string;
  requestId: string;
  /** The interface version the call is answered as. */
  version: string;
  /** Set once the bearer token was accepted. */
  clientId?: string;
  tenant?: string;
  body?: unknown;
  /** The Idempotency-Key of the call, when it sent one that fits the pattern. */
  idemKey?: string;
  /** Extra headers (rate limit) to put on whatever answer the call gets. */
  headers: Record<string, string>;
  /** Path parameters of the matched route. */
  params: Record<string, string>;
}

export interface Answer {
  status: number;
  data?: unknown;
  error?: { code: string; message: string; detail?: string; hint?: string };
  replayed?: boolean;
}

export const ERROR_STATUS: Record<string, number> = {
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

export function ok(data: unknown): Answer {
  return { status: 200, data };
}

export function fail(code: string, message: string, detail?: string, hint?: string): Answer {
  const error: Answer['error'] = { code, message };
  if (detail !== undefined) error.detail = detail;
  if (hint !== undefined) error.hint = hint;
  return { status: ERROR_STATUS[code] ?? 500, error };
}

/** Thrown by validators and plugs; the router turns it into its failure envelope. */
export class Halt extends Error {
  answer: Answer;
  constructor(answer: Answer) {
    super(answer.error?.code ?? 'halt');
    this.answer = answer;
  }
}

export function halt(code: string, message: string, detail?: string, hint?: string): never {
  throw new Halt(fail(code, message, detail, hint));
}

/** Writes an answer in its envelope, with the call's request id as header and in meta. */
export function respond(ctx: Ctx, answer: Answer): void {
  const meta: Record<string, unknown> = {
    requestId: ctx.requestId,
    version: ctx.version,
    at: isoUsec(Date.now()),
  };
  if (ctx.idemKey !== undefined && (answer.status === 200 || answer.replayed)) {
    meta.idempotencyKey = ctx.idemKey;
    meta.replayed = answer.replayed === true;
  }
  const body =
    answer.error === undefined ? { ok: true, data: answer.data, meta } : { ok: false, error: answer.error, meta };
  sendJson(ctx, answer.status, body);
}

export function sendJson(ctx: Ctx, status: number, body: unknown): void {
  // Jason encodes small Elixir maps with their keys in sorted order: so does pine, everywhere.
  const text = sortedJson(body);
  ctx.res.writeHead(status, {
    ...ctx.headers,
    'content-type': 'application/json; charset=utf-8',
    'content-length': Buffer.byteLength(text),
    'cache-control': 'max-age=0, private, must-revalidate',
    'x-request-id': ctx.requestId,
    via: '1.1 fly.io',
    'fly-request-id': flyRequestId(),
  });
  ctx.res.end(text);
}

const MAX_BODY = 1_000_000;

/** Reads the raw body (at most 1 MB; more is refused as unsuitable). */
export async function readBody(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    size += (chunk as Buffer).length;
    if (size > MAX_BODY) halt('invalid_request', 'Request body is too large', 'body: at most 1 MB');
    chunks.push(chunk as Buffer);
  }
  return Buffer.concat(chunks).toString('utf8');
}

/** Plug.Parsers for JSON only: an empty body is an empty object, anything else must be a JSON object. */
export function parseJson(raw: string, contentType: string | undefined): Record<string, unknown> {
  if (raw.trim() === '') return {};
  if (contentType !== undefined && !/^application\/([\w.+-]*\+)?json\b/i.test(contentType)) {
    halt('invalid_request', 'Request body must be JSON', 'content-type: expected application/json');
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(raw);
  } catch {
    halt('invalid_request', 'Request body is not valid JSON', 'body: malformed JSON');
  }
  if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed)) {
    halt('invalid_request', 'Request body must be a JSON object', 'body: expected an object');
  }
  return parsed as Record<string, unknown>;
}

/** JSON with object keys sorted at every depth, no whitespace (idempotency fingerprints, audit hashes). */
export function sortedJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(sortedJson).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    const obj = value as Record<string, unknown>;
    const keys = Object.keys(obj)
      .filter((k) => obj[k] !== undefined)
      .sort();
    return `{${keys.map((k) => `${JSON.stringify(k)}:${sortedJson(obj[k])}`).join(',')}}`;
  }
  return JSON.stringify(value);
}
