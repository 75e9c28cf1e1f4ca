// Envoy-fronted answers: every answer carries Envoy's headers, a UUIDv4 x-request-id that is also
// meta.requestId, and Connection: close (maple's edge keeps no sockets alive).
import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';

export const CURRENT_VERSION = '2026-07-01';
export const VERSIONS = ['2026-06-12', '2026-07-01'];

/** gRPC status names carried in error.detail, as grpc-gateway maps them. */
const GRPC: Record<string, [number, string]> = {
  unauthorized: [401, 'UNAUTHENTICATED'],
  forbidden: [403, 'PERMISSION_DENIED'],
  not_found: [404, 'NOT_FOUND'],
  invalid_request: [400, 'INVALID_ARGUMENT'],
  capability_denied: [409, 'FAILED_PRECONDITION'],
  idempotency_conflict: [409, 'ABORTED'],
  idempotency_required: [428, 'FAILED_PRECONDITION'],
  rate_limited: [429, 'RESOURCE_EXHAUSTED'],
  internal: [500, 'INTERNAL'],
};

export interface Call {
  req: IncomingMessage;
  res: ServerResponse;
  url: URL;
  requestId: string;
  version: string;
  started: number;
  headers: Record<string, string>;
  idempotencyKey?: string | undefined;
  replayed?: boolean | undefined;
}

export function newCall(req: IncomingMessage, res: ServerResponse): Call {
  return {
    req,
    res,
    url: new URL(req.url ?? '/', 'http://127.0.0.1'),
    requestId: randomUUID(),
    version: CURRENT_VERSION,
    started: Date.now(),
    headers: {},
  };
}

export function meta(call: Call) {
  const m: Record<string, unknown> = { requestId: call.requestId, version: call.version, at: new Date().toISOString() };
  if (call.idempotencyKey !== undefined) m.idempotencyKey = call.idempotencyKey;
  if (call.replayed !== undefined) m.replayed = call.replayed;
  return m;
}

function envoyHeaders(call: Call, contentType: string) {
  const { res } = call;
  res.setHeader('content-type', contentType);
  res.setHeader('server', 'envoy');
  res.setHeader('x-request-id', call.requestId);
  res.setHeader('x-envoy-upstream-service-time', String(Date.now() - call.started));
  res.setHeader('connection', 'close');
  for (const [k, v] of Object.entries(call.headers)) res.setHeader(k, v);
}

export function sendRaw(call: Call, status: number, contentType: string, text: string) {
  envoyHeaders(call, contentType);
  call.res.writeHead(status);
  call.res.end(text);
}

export function ok(call: Call, data: unknown) {
  sendRaw(call, 200, 'application/json', JSON.stringify({ ok: true, data, meta: meta(call) }));
}

export class ApiError extends Error {
  code: string;
  hint: string | undefined;
  constructor(code: string, message: string, hint?: string) {
    super(message);
    this.code = code;
    this.hint = hint;
  }
}

export function errorBody(call: Call, code: string, message: string, hint?: string) {
  const [status, grpc] = GRPC[code] ?? [500, 'INTERNAL'];
  const error: Record<string, string> = { code, message, detail: grpc };
  if (hint) error.hint = hint;
  return { status, body: { ok: false, error, meta: meta(call) } };
}

export function fail(call: Call, code: string, message: string, hint?: string) {
  const { status, body } = errorBody(call, code, message, hint);
  sendRaw(call, status, 'application/json', JSON.stringify(body));
}

/** Reads the body as JSON; an empty body is {}; anything not a JSON object is invalid_request. */
export async function readJson(req: IncomingMessage): Promise<Record<string, unknown>> {
  const chunks: Buffer[] = [];
  for await (const c of req) chunks.push(c as Buffer);
  const text = Buffer.concat(chunks).toString('utf8');
  if (text.trim() === '') return {};
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw new ApiError('invalid_request', 'request body is not valid JSON');
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw new ApiError('invalid_request', 'request body must be a JSON object');
  }
  return value as Record<string, unknown>;
}

/** Key-sorted JSON: the fingerprint of a body for idempotency and the audit chain. */
export function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`;
  if (value && typeof value === 'object') {
    const o = value as Record<string, unknown>;
    return `{${Object.keys(o)
      .sort()
      .map((k) => `${JSON.stringify(k)}:${canonical(o[k])}`)
      .join(',')}}`;
  }
  return JSON.stringify(value ?? null);
}

/** YAML 1.2 block style; every scalar string JSON-quoted, so it reads back as the same document. */
export function toYaml(value: unknown, indent = ''): string {
  if (Array.isArray(value)) {
    if (value.length === 0) return ' []';
    return value.map((v) => `\n${indent}-${toYaml(v, `${indent}  `).replace(/^\n\s*/, ' ')}`).join('');
  }
  if (value && typeof value === 'object') {
    const entries = Object.entries(value);
    if (entries.length === 0) return ' {}';
    return entries.map(([k, v]) => `\n${indent}${JSON.stringify(k)}:${toYaml(v, `${indent}  `)}`).join('');
  }
  return ` ${JSON.stringify(value)}`;
}
