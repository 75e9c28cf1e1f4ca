// Shared state and the response helpers (the "Response"/"APIException" layer of a DRF port):
// every JSON answer goes through sendOk/sendError so the envelope, meta and request id are uniform.
import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';

export const CURRENT_VERSION = '2026-07-01';
export const VERSIONS = ['2026-06-12', '2026-07-01'];
export const API = '/api/public/v1';

export interface WalnutOptions {
  /** Calls per burst window per client and tenant (and per throttle scope). */
  rateLimit?: number;
  /** Length of the burst window; the sustained window is ten times longer with ten times the calls. */
  windowMs?: number;
  /** Access-token lifetime in seconds. */
  tokenTtlSeconds?: number;
  /** Audit checkpoint every N entries of a tenant. */
  checkpointEvery?: number;
  /** Leave the signing key out of a replayed webhook registration ("issued exactly once"). */
  redactKeyOnReplay?: boolean;
  /** Refuse calls without Service-Version (400). */
  serviceVersionRequired?: boolean;
  /** Largest audit page (DRF max_limit); the default page is 20 or this, whichever is smaller. */
  auditMaxLimit?: number;
  /** Largest delivery-log page (DRF max_limit). */
  deliveryMaxLimit?: number;
  /** End every stream after this long (a worker recycling its consumers); clients resume by Last-Event-ID. */
  streamMaxMs?: number;
  /** Interval of the stream's keep-alive comments. */
  heartbeatMs?: number;
  /** Offset of every timestamp from UTC in minutes (Django TIME_ZONE rendered by DRF); 0 writes Z. */
  utcOffsetMinutes?: number;
  /** Delay before a connection moves from pending to active. */
  activationDelayMs?: number;
}

export interface Connection {
  id: string;
  connectorId: string;
  environment: string;
  scopeLabel: string;
  state: string;
  capabilities: { capability: string; critical: boolean; idempotencyRequired: boolean }[];
  nextStep: string;
  createdAt: string;
  tenant: string;
}

export interface Meta {
  requestId: string;
  version: string;
  at: string;
  idempotencyKey?: string;
  replayed?: boolean;
}

/** Per-request context, like DRF's Request wrapper. */
export interface Ctx {
  req: IncomingMessage;
  res: ServerResponse;
  requestId: string;
  version: string;
  origin: string;
  path: string;
  query: URLSearchParams;
  /** Renders a time as this deployment does. */
  time: Clock;
  /** The authenticated client and tenant (set by authentication). */
  clientId?: string;
  tenant?: string;
  idempotencyKey?: string;
  /** Throttle headers to put on the answer (set by the throttle, even on refusals). */
  rateHeaders?: Record<string, string>;
}

export interface ErrorSpec {
  status: number;
  code: string;
  message: string;
  detail?: string;
  hint?: string;
}

export class ApiError extends Error {
  spec: ErrorSpec;
  headers: Record<string, string>;
  constructor(spec: ErrorSpec, headers: Record<string, string> = {}) {
    super(spec.message);
    this.spec = spec;
    this.headers = headers;
  }
}

const MESSAGES: Record<string, [number, string, string]> = {
  unauthorized: [401, 'Authentication credentials were not provided or are not valid.', 'Request a new access token.'],
  forbidden: [403, 'You do not have permission to perform this action.', 'Check the permissions of the access.'],
  not_found: [404, 'Not found.', 'Compare identifier and tenant header.'],
  invalid_request: [
    400,
    'The request is incomplete or unsuitable.',
    'Check the request against the published description.',
  ],
  capability_denied: [409, 'The capability is not released for this connection.', 'Have the capability released.'],
  idempotency_conflict: [
    409,
    'The idempotency key was already used with different content.',
    'Use a new key for each new operation.',
  ],
  idempotency_required: [
    428,
    'An Idempotency-Key header is required for this call.',
    'Send the Idempotency-Key header.',
  ],
  rate_limited: [429, 'Request was throttled.', 'Respect Retry-After and retry with growing intervals.'],
  internal: [500, 'A server error occurred.', 'Note the request identifier and inform support.'],
};

/** Raises the error of the Errors table with a DRF-like `detail` sentence. */
export function fail(code: string, detail?: string, headers: Record<string, string> = {}): never {
  const [status, message, hint] = MESSAGES[code] ?? [500, 'A server error occurred.', ''];
  throw new ApiError({ status, code, message, hint, ...(detail ? { detail } : {}) }, headers);
}

export type Clock = (ms?: number) => string;

/** DRF's DateTimeField output: microseconds always, "Z" for UTC, else the zone's offset. */
export function djangoClock(offsetMinutes = 0): Clock {
  return (ms = Date.now()) => {
    const local = new Date(ms + offsetMinutes * 60_000).toISOString().slice(0, 23);
    const abs = Math.abs(offsetMinutes);
    const zone =
      offsetMinutes === 0
        ? 'Z'
        : `${offsetMinutes < 0 ? '-' : '+'}${String(Math.floor(abs / 60)).padStart(2, '0')}:${String(abs % 60).padStart(2, '0')}`;
    return `${local}000${zone}`;
  };
}

export function newRequestId(): string {
  return randomUUID();
}

export function meta(ctx: Ctx, extra: Partial<Meta> = {}): Meta {
  return { requestId: ctx.requestId, version: ctx.version, at: ctx.time(), ...extra };
}

function writeJson(ctx: Ctx, status: number, body: unknown, headers: Record<string, string> = {}): void {
  const text = JSON.stringify(body);
  ctx.res.writeHead(status, {
    'Content-Type': 'application/json; charset=utf-8',
    'Content-Length': Buffer.byteLength(text),
    'X-Request-Id': ctx.requestId,
    'Cache-Control': 'no-store',
    Vary: 'Accept, Authorization, x-service-tenant',
    ...(ctx.rateHeaders ?? {}),
    ...headers,
  });
  ctx.res.end(text);
}

export function sendOk(ctx: Ctx, data: unknown, extra: Partial<Meta> = {}): void {
  writeJson(ctx, 200, { ok: true, data, meta: meta(ctx, extra) });
}

export function sendError(ctx: Ctx, err: ApiError, extra: Partial<Meta> = {}): void {
  writeJson(ctx, err.spec.status, { ok: false, error: errorBody(err.spec), meta: meta(ctx, extra) }, err.headers);
}

function errorBody(s: ErrorSpec) {
  return {
    code: s.code,
    message: s.message,
    ...(s.detail ? { detail: s.detail } : {}),
    ...(s.hint ? { hint: s.hint } : {}),
  };
}

/** Reads the JSON body (at most 1 MiB); a body that is not a JSON object is refused with 400. */
export async function readJson(ctx: Ctx): Promise<Record<string, unknown>> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of ctx.req) {
    size += (chunk as Buffer).length;
    if (size > 1_048_576) fail('invalid_request', 'Request body exceeds 1 MiB.');
    chunks.push(chunk as Buffer);
  }
  const text = Buffer.concat(chunks).toString('utf8');
  if (text.trim() === '') fail('invalid_request', 'JSON parse error - the request body is empty.');
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    fail('invalid_request', 'JSON parse error - the request body is not valid JSON.');
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) {
    fail('invalid_request', 'Invalid data. Expected a dictionary.');
  }
  return parsed as Record<string, unknown>;
}

/** Stable JSON (sorted keys) for request fingerprints. */
export function canonicalJson(v: unknown): string {
  if (Array.isArray(v)) return `[${v.map(canonicalJson).join(',')}]`;
  if (v && typeof v === 'object') {
    const o = v as Record<string, unknown>;
    return `{${Object.keys(o)
      .sort()
      .map((k) => `${JSON.stringify(k)}:${canonicalJson(o[k])}`)
      .join(',')}}`;
  }
  return JSON.stringify(v);
}
