// One call's context and the two envelopes (success and failure) every interface answer uses.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { type State, stamp } from './state.ts';
import { sendJson, snowflake } from './util.ts';

export const CURRENT_VERSION = '2026-07-01';
export const VERSIONS = ['2026-06-12', '2026-07-01'] as const;

export const STATUS_OF = {
  unauthorized: 401,
  forbidden: 403,
  not_found: 404,
  invalid_request: 400,
  capability_denied: 409,
  idempotency_conflict: 409,
  idempotency_required: 428,
  rate_limited: 429,
  internal: 500,
} as const;
export type ErrorCode = keyof typeof STATUS_OF;

export interface Call {
  req: IncomingMessage;
  res: ServerResponse;
  state: State;
  url: URL;
  /** Base URL this call came in on (main or alternate listener). */
  base: string;
  requestId: string;
  /** The version the call is answered as: a published Service-Version, else the current one. */
  version: string;
  /** Headers every answer of this call carries (request id, rate-limit state, version). */
  headers: Record<string, string>;
  clientId?: string;
  tenant?: string;
  idempotencyKey?: string;
}

/** Thrown by handlers to answer with the failure envelope; caught once in the router. */
export class ApiError extends Error {
  code: ErrorCode;
  detail?: string;
  hint?: string;
  extraHeaders?: Record<string, string>;
  constructor(code: ErrorCode, message: string, detail?: string, hint?: string) {
    super(message);
    this.code = code;
    this.detail = detail;
    this.hint = hint;
  }
}

export function newCall(req: IncomingMessage, res: ServerResponse, state: State, base: string): Call {
  const url = new URL(req.url ?? '/', base);
  const requestId = `req_${snowflake()}`;
  const asked = req.headers['service-version'];
  const version =
    typeof asked === 'string' && (VERSIONS as readonly string[]).includes(asked) ? asked : CURRENT_VERSION;
  return {
    req,
    res,
    state,
    url,
    base,
    requestId,
    version,
    headers: { 'x-request-id': requestId, 'service-version': version },
  };
}

function meta(call: Call, extra: Record<string, unknown> = {}): Record<string, unknown> {
  return { requestId: call.requestId, version: call.version, at: stamp(call.state), ...extra };
}

export function ok(
  call: Call,
  data: unknown,
  extraMeta: Record<string, unknown> = {},
  extraHeaders: Record<string, string> = {},
): void {
  sendJson(call.res, 200, { ok: true, data, meta: meta(call, extraMeta) }, { ...call.headers, ...extraHeaders });
}

export function fail(call: Call, err: ApiError): void {
  const error: Record<string, string> = { code: err.code, message: err.message };
  if (err.detail) error.detail = err.detail;
  if (err.hint) error.hint = err.hint;
  sendJson(
    call.res,
    STATUS_OF[err.code],
    { ok: false, error, meta: meta(call) },
    { ...call.headers, ...err.extraHeaders },
  );
}
