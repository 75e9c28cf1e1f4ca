// Envelopes, Google-style status mapping and body reading. ESPv2 answers google.rpc.Status errors; poplar keeps
// that status name beside the contract's code (error.status), so operators see the gRPC code they know.
import { randomBytes, randomInt } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';

export const CURRENT_VERSION = '2026-07-01';
export const PUBLISHED_VERSIONS = ['2026-07-01', '2026-06-12'];

/** The contract's codes, their statuses and the google.rpc.Code name they reshape. */
const CODES: Record<string, [number, string]> = {
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

const AUTO_ID = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';
/** A Firestore-style auto-id: 20 characters of letters and digits. */
export function autoId(): string {
  let s = '';
  for (let i = 0; i < 20; i++) s += AUTO_ID[randomInt(AUTO_ID.length)];
  return s;
}

export interface Ctx {
  req: IncomingMessage;
  res: ServerResponse;
  url: URL;
  requestId: string;
  version: string;
  /** Headers every answer of this call carries (rate limit). */
  headers: Record<string, string>;
  idempotencyKey?: string;
  tenant?: string;
  clientId?: string;
}

export function newCtx(req: IncomingMessage, res: ServerResponse): Ctx {
  const url = new URL(req.url ?? '/', 'http://127.0.0.1');
  // A Cloud Trace id (32 hex) doubles as the request id, as ESPv2 logs it.
  return { req, res, url, requestId: randomBytes(16).toString('hex'), version: CURRENT_VERSION, headers: {} };
}

export class ApiError extends Error {
  code: string;
  detail?: string;
  hint?: string;
  extraHeaders?: Record<string, string>;
  constructor(code: string, message: string, detail?: string, hint?: string) {
    super(message);
    this.code = code;
    this.detail = detail;
    this.hint = hint;
  }
}

export function meta(ctx: Ctx, extra: Record<string, unknown> = {}): Record<string, unknown> {
  return { requestId: ctx.requestId, version: ctx.version, at: new Date().toISOString(), ...extra };
}

export function sendJson(ctx: Ctx, status: number, body: unknown, headers: Record<string, string> = {}): void {
  const text = JSON.stringify(body);
  ctx.res.writeHead(status, {
    'content-type': 'application/json; charset=utf-8',
    'x-request-id': ctx.requestId,
    'x-cloud-trace-context': `${ctx.requestId}/1;o=1`,
    'service-version': ctx.version,
    'cache-control': 'no-store',
    ...ctx.headers,
    ...headers,
  });
  ctx.res.end(text);
}

export function ok(ctx: Ctx, data: unknown, extraMeta: Record<string, unknown> = {}): void {
  sendJson(ctx, 200, { ok: true, data, meta: meta(ctx, extraMeta) });
}

export function sendError(ctx: Ctx, err: ApiError): void {
  const [status, grpc] = CODES[err.code] ?? [500, 'INTERNAL'];
  const error: Record<string, unknown> = { code: err.code, message: err.message, status: grpc };
  if (err.detail) error.detail = err.detail;
  if (err.hint) error.hint = err.hint;
  const extra = ctx.idempotencyKey ? { idempotencyKey: ctx.idempotencyKey } : {};
  sendJson(ctx, status, { ok: false, error, meta: meta(ctx, extra) }, err.extraHeaders ?? {});
}

export function readRaw(req: IncomingMessage, max = 1 << 20): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (c: Buffer) => {
      size += c.length;
      if (size > max) reject(new ApiError('invalid_request', 'Request body too large.'));
      else chunks.push(c);
    });
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    req.on('error', reject);
  });
}

/** A JSON object body, or 400 (proto3 JSON: the body must be a message, i.e. an object). */
export async function readJsonObject(req: IncomingMessage): Promise<Record<string, unknown>> {
  const raw = await readRaw(req);
  const type = String(req.headers['content-type'] ?? '');
  if (!/^application\/([\w.+-]+\+)?json\b/i.test(type)) {
    throw new ApiError('invalid_request', 'Request body must be JSON.', 'content-type must be application/json');
  }
  let body: unknown;
  try {
    body = JSON.parse(raw);
  } catch {
    throw new ApiError('invalid_request', 'Request body is not valid JSON.');
  }
  if (typeof body !== 'object' || body === null || Array.isArray(body)) {
    throw new ApiError('invalid_request', 'Request body must be a JSON object.');
  }
  return body as Record<string, unknown>;
}

/** Canonical JSON (sorted keys) for fingerprints and the audit chain. */
export function canonical(v: unknown): string {
  if (Array.isArray(v)) return `[${v.map(canonical).join(',')}]`;
  if (v && typeof v === 'object') {
    const o = v as Record<string, unknown>;
    const keys = Object.keys(o)
      .filter((k) => o[k] !== undefined)
      .sort();
    return `{${keys.map((k) => `${JSON.stringify(k)}:${canonical(o[k])}`).join(',')}}`;
  }
  return JSON.stringify(v);
}
