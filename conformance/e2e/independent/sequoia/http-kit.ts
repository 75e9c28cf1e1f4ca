// The http4k-style kernel: a failure is a thrown Refusal, a success an envelope; lenses read and check inputs
// with their own texts, reshaped into the contract's failure envelope by the one place that writes answers.
import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';

export const CURRENT_VERSION = '2026-07-01';
export const VERSIONS = ['2026-07-01', '2026-06-12'];

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

export class Refusal extends Error {
  code: string;
  detail: string | undefined;
  constructor(code: string, message: string, detail?: string) {
    super(message);
    this.code = code;
    this.detail = detail;
  }
}

/** What one exchange carries from the router to the writer. */
export interface Exchange {
  req: IncomingMessage;
  res: ServerResponse;
  requestId: string;
  version: string;
  headers: Record<string, string>;
  url: URL;
}

export function newExchange(req: IncomingMessage, res: ServerResponse): Exchange {
  const requested = header(req, 'service-version');
  // Service-Version is optional; a published value is answered as that version, anything else as the current one.
  const version = requested && VERSIONS.includes(requested) ? requested : CURRENT_VERSION;
  return {
    req,
    res,
    requestId: `rq-${randomUUID()}`,
    version,
    headers: {},
    url: new URL(req.url ?? '/', 'http://127.0.0.1'),
  };
}

export function header(req: IncomingMessage, name: string): string | undefined {
  const v = req.headers[name.toLowerCase()];
  return Array.isArray(v) ? v[0] : v;
}

export function meta(ex: Exchange, extra: Record<string, unknown> = {}): Record<string, unknown> {
  return { requestId: ex.requestId, version: ex.version, at: new Date().toISOString(), ...extra };
}

export function writeJson(ex: Exchange, status: number, body: unknown): void {
  const text = JSON.stringify(body);
  ex.res.writeHead(status, {
    ...ex.headers,
    'content-type': 'application/json; charset=utf-8',
    'x-request-id': ex.requestId,
    'service-version': ex.version,
    'cache-control': 'no-store',
  });
  ex.res.end(text);
}

export function ok(ex: Exchange, data: unknown, extraMeta: Record<string, unknown> = {}): void {
  writeJson(ex, 200, { ok: true, data, meta: meta(ex, extraMeta) });
}

export function fail(ex: Exchange, r: Refusal, extraMeta: Record<string, unknown> = {}): void {
  const error: Record<string, string> = { code: r.code, message: r.message };
  if (r.detail) error.detail = r.detail;
  error.hint = `quote requestId ${ex.requestId} to support`;
  writeJson(ex, STATUS[r.code] ?? 500, { ok: false, error, meta: meta(ex, extraMeta) });
}

const MAX_BODY = 256 * 1024;

/** Reads the body as JSON; an unreadable or non-object body is a lens failure. */
export async function readJsonObject(req: IncomingMessage, emptyOk = false): Promise<Record<string, unknown>> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const c of req) {
    size += (c as Buffer).length;
    if (size > MAX_BODY) throw new Refusal('invalid_request', 'body too large');
    chunks.push(c as Buffer);
  }
  const raw = Buffer.concat(chunks).toString('utf8');
  if (emptyOk && raw.trim() === '') return {};
  let parsed: unknown;
  try {
    parsed = JSON.parse(raw);
  } catch {
    throw new Refusal('invalid_request', 'Lens failed: body is not valid JSON', 'body: expected a JSON object');
  }
  if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed)) {
    throw new Refusal('invalid_request', 'Lens failed: body must be a JSON object', 'body: expected object');
  }
  return parsed as Record<string, unknown>;
}

function lensFailure(field: string, why: string): Refusal {
  return new Refusal('invalid_request', `Lens failed: ${field} ${why}`, `${field}: ${why}`);
}

/** Length counted in characters (code points), not bytes. */
export function textLens(body: Record<string, unknown>, field: string, min: number, max: number): string {
  const v = body[field];
  if (v === undefined || v === null) throw lensFailure(field, 'is required');
  if (typeof v !== 'string') throw lensFailure(field, 'must be a string');
  const n = [...v].length;
  if (n < min || n > max) throw lensFailure(field, `length must be ${min} to ${max}`);
  return v;
}

export const ENVIRONMENTS = ['development', 'sandbox', 'pilot', 'production'];

export function environmentLens(body: Record<string, unknown>, field: string, fallback?: string): string {
  const v = body[field];
  // Only an absent field takes the default: null is a value of the wrong type.
  if (v === undefined && fallback) return fallback;
  if (typeof v !== 'string' || !ENVIRONMENTS.includes(v)) {
    throw lensFailure(field, `must be one of ${ENVIRONMENTS.join(', ')}`);
  }
  return v;
}

export function textListLens(
  body: Record<string, unknown>,
  field: string,
  minItems: number,
  maxItems: number,
): string[] {
  const v = body[field];
  if (!Array.isArray(v)) throw lensFailure(field, 'must be an array of strings');
  if (v.length < minItems || v.length > maxItems)
    throw lensFailure(field, `must hold ${minItems} to ${maxItems} items`);
  return v.map((item, i) => {
    if (typeof item !== 'string') throw lensFailure(`${field}[${i}]`, 'must be a string');
    const n = [...item].length;
    if (n < 2 || n > 120) throw lensFailure(`${field}[${i}]`, 'length must be 2 to 120');
    return item;
  });
}

export const KEY_PATTERN = /^[A-Za-z0-9._:-]{8,128}$/;

/** Canonical JSON (sorted keys), the fingerprint and the audit hash input. */
export function canonical(v: unknown): string {
  if (Array.isArray(v)) return `[${v.map(canonical).join(',')}]`;
  if (v && typeof v === 'object') {
    const o = v as Record<string, unknown>;
    return `{${Object.keys(o)
      .sort()
      .filter((k) => o[k] !== undefined)
      .map((k) => `${JSON.stringify(k)}:${canonical(o[k])}`)
      .join(',')}}`;
  }
  return JSON.stringify(v);
}
