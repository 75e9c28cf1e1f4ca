// Shared HTTP plumbing of kapok: ids, envelopes, errors and JSON bodies. One place so every answer
// carries the same meta (requestId, version, at) and the X-Request-Id header mirrors meta.requestId.
import { createHash, randomBytes } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';

export const VERSION = '2026-07-01';
export const VERSIONS = ['2026-06-12', '2026-07-01'];

/** UUIDv7 (RFC 9562): 48-bit ms timestamp, version 7, variant 10, random rest. */
export function uuidv7(ms: number = Date.now(), rand: Buffer = randomBytes(10)): string {
  const b = Buffer.alloc(16);
  b.writeUIntBE(ms, 0, 6);
  rand.copy(b, 6, 0, 10);
  b.writeUInt8(0x70 | (b.readUInt8(6) & 0x0f), 6);
  b.writeUInt8(0x80 | (b.readUInt8(8) & 0x3f), 8);
  const h = b.toString('hex');
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20)}`;
}

/** A stable UUIDv7 for catalog entries: the same name always yields the same id (fixed launch instant). */
export function stableId(name: string): string {
  return uuidv7(Date.UTC(2026, 0, 1), createHash('sha256').update(name).digest());
}

export const nowIso = () => new Date().toISOString();

export interface Meta {
  requestId: string;
  version: string;
  at: string;
  idempotencyKey?: string;
  replayed?: boolean;
}

export const STATUS: Record<string, number> = {
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

/** A refusal thrown by a handler; the router turns it into the failure envelope. */
export class ApiError extends Error {
  code: string;
  detail: string | undefined;
  hint: string | undefined;
  constructor(code: string, message: string, detail?: string, hint?: string) {
    super(message);
    this.code = code;
    this.detail = detail;
    this.hint = hint;
  }
}

export const bad = (message: string, detail?: string) =>
  new ApiError('invalid_request', message, detail, 'check the request against the published description');

export function newMeta(): Meta {
  return { requestId: uuidv7(), version: VERSION, at: nowIso() };
}

export function sendJson(res: ServerResponse, status: number, body: unknown, requestId?: string): void {
  const text = JSON.stringify(body);
  res.statusCode = status;
  res.setHeader('content-type', 'application/json; charset=utf-8');
  res.setHeader('cache-control', 'no-store');
  if (requestId) res.setHeader('x-request-id', requestId);
  res.end(text);
}

export function sendOk(res: ServerResponse, meta: Meta, data: unknown): void {
  sendJson(res, 200, { ok: true, data, meta }, meta.requestId);
}

export function sendError(res: ServerResponse, meta: Meta, err: ApiError): void {
  const error: Record<string, string> = { code: err.code, message: err.message };
  if (err.detail) error.detail = err.detail;
  if (err.hint) error.hint = err.hint;
  const m: Meta = { requestId: meta.requestId, version: meta.version, at: meta.at };
  if (meta.idempotencyKey) m.idempotencyKey = meta.idempotencyKey;
  if (meta.replayed) m.replayed = true;
  sendJson(res, STATUS[err.code] ?? 500, { ok: false, error, meta: m }, meta.requestId);
}

const MAX_BODY = 64 * 1024;

/** Reads the raw body (at most 64 KiB); the caller parses it. */
export function readRaw(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (c: Buffer) => {
      size += c.length;
      if (size > MAX_BODY) reject(bad('body too large', 'at most 64 KiB'));
      else chunks.push(c);
    });
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    req.on('error', reject);
  });
}

/** The JSON object of a body, or 400. */
export function parseObject(raw: string): Record<string, unknown> {
  let v: unknown;
  try {
    v = JSON.parse(raw);
  } catch {
    throw bad('body is not valid JSON');
  }
  if (typeof v !== 'object' || v === null || Array.isArray(v)) throw bad('body must be a JSON object');
  return v as Record<string, unknown>;
}

/** Length in characters (code points), not bytes or UTF-16 units. */
export const chars = (s: string) => [...s].length;

export function text(body: Record<string, unknown>, field: string, min: number, max: number): string {
  const v = body[field];
  if (v === undefined) throw bad(`${field} is required`);
  if (typeof v !== 'string') throw bad(`${field} must be a string`);
  const n = chars(v);
  if (n < min || n > max) throw bad(`${field} must be ${min} to ${max} characters`);
  return v;
}

/** Refuses a field the body may not hold (where `strict`). */
export function onlyFields(body: Record<string, unknown>, fields: string[], strict: boolean): void {
  const unknown = Object.keys(body).filter((k) => !fields.includes(k));
  if (strict && unknown.length) throw bad(`unknown field ${unknown[0]}`, `the body holds only ${fields.join(', ')}`);
}

/** Canonical JSON (sorted keys) for request fingerprints. */
export function canonical(v: unknown): string {
  if (Array.isArray(v)) return `[${v.map(canonical).join(',')}]`;
  if (v && typeof v === 'object') {
    const o = v as Record<string, unknown>;
    return `{${Object.keys(o)
      .sort()
      .map((k) => `${JSON.stringify(k)}:${canonical(o[k])}`)
      .join(',')}}`;
  }
  return JSON.stringify(v);
}
