// Transcoder-side HTTP helpers: the JSON envelopes, gRPC status mirroring and body reading.
// A gRPC-first team maps every failure to a google.rpc.Status first, then to the contract's envelope.
import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';

export const CURRENT_VERSION = '2026-07-01';
export const PUBLISHED_VERSIONS = ['2026-07-01', '2026-06-12'];

/** Contract code -> [HTTP status, gRPC canonical code name, gRPC numeric code]. */
const CODES: Record<string, [number, string, number]> = {
  invalid_request: [400, 'INVALID_ARGUMENT', 3],
  unauthorized: [401, 'UNAUTHENTICATED', 16],
  forbidden: [403, 'PERMISSION_DENIED', 7],
  not_found: [404, 'NOT_FOUND', 5],
  capability_denied: [409, 'FAILED_PRECONDITION', 9],
  idempotency_conflict: [409, 'ABORTED', 10],
  idempotency_required: [428, 'FAILED_PRECONDITION', 9],
  rate_limited: [429, 'RESOURCE_EXHAUSTED', 8],
  internal: [500, 'INTERNAL', 13],
};

export type ErrorCode = keyof typeof CODES;

export interface FieldViolation {
  field: string;
  description: string;
}

/** One call through the transcoder. */
export interface Call {
  req: IncomingMessage;
  res: ServerResponse;
  url: URL;
  requestId: string;
  version: string;
  headers: Record<string, string>;
  idempotencyKey?: string;
}

export function newCall(req: IncomingMessage, res: ServerResponse, url: URL): Call {
  return { req, res, url, requestId: `req-${randomUUID()}`, version: CURRENT_VERSION, headers: {} };
}

/** Proto Timestamp JSON: RFC 3339, UTC, "Z". */
export function now(): string {
  return new Date().toISOString();
}

function meta(call: Call, extra: Record<string, unknown> = {}) {
  return { requestId: call.requestId, version: call.version, at: now(), ...extra };
}

function write(call: Call, status: number, body: unknown, grpc: [string, number], message: string): void {
  const text = JSON.stringify(body);
  call.res.writeHead(status, {
    ...call.headers,
    'content-type': 'application/json; charset=utf-8',
    'x-request-id': call.requestId,
    'grpc-status': String(grpc[1]),
    // grpc-message is percent-encoded, as on an HTTP/2 trailer.
    'grpc-message': encodeURIComponent(message),
    'cache-control': 'no-store',
  });
  call.res.end(text);
}

export function ok(call: Call, data: unknown, metaExtra: Record<string, unknown> = {}): void {
  write(call, 200, { ok: true, data, meta: meta(call, metaExtra) }, ['OK', 0], '');
}

export function fail(
  call: Call,
  code: ErrorCode,
  message: string,
  opts: { detail?: string; hint?: string; violations?: FieldViolation[]; metadata?: Record<string, string> } = {},
): void {
  const [status, grpcName, grpcNumber] = CODES[code] ?? [500, 'INTERNAL', 13];
  const details: unknown[] = [
    {
      '@type': 'type.googleapis.com/google.rpc.ErrorInfo',
      reason: code.toUpperCase(),
      domain: 'ncs.holly.example',
      metadata: opts.metadata ?? {},
    },
  ];
  if (opts.violations?.length) {
    details.push({ '@type': 'type.googleapis.com/google.rpc.BadRequest', fieldViolations: opts.violations });
  }
  details.push({ '@type': 'type.googleapis.com/google.rpc.RequestInfo', requestId: call.requestId });
  const error: Record<string, unknown> = { code, message, status: grpcName, details };
  if (opts.detail) error.detail = opts.detail;
  if (opts.hint) error.hint = opts.hint;
  write(call, status, { ok: false, error, meta: meta(call) }, [grpcName, grpcNumber], message);
}

export class BodyError extends Error {}

/** Reads a JSON object body (proto3 JSON: a message is an object). Anything else is a 400. */
export async function readJsonObject(req: IncomingMessage): Promise<Record<string, unknown>> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    size += (chunk as Buffer).length;
    if (size > 256 * 1024) throw new BodyError('body larger than 256 KiB');
    chunks.push(chunk as Buffer);
  }
  const text = Buffer.concat(chunks).toString('utf8');
  if (text.trim() === '') throw new BodyError('a JSON object body is required');
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    throw new BodyError('body is not valid JSON');
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) {
    throw new BodyError('body must be a JSON object');
  }
  return parsed as Record<string, unknown>;
}

/** Drains a body nobody reads, so keep-alive sockets stay usable. */
export async function drain(req: IncomingMessage): Promise<void> {
  for await (const _ of req) {
    // discard
  }
}

/** RFC 8785-style canonical JSON (sorted members), used for idempotency fingerprints and audit leaves. */
export function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`;
  if (value && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>)
      .filter(([, v]) => v !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonical(v)}`).join(',')}}`;
  }
  return JSON.stringify(value);
}
