// Small helpers shared by magnolia's handlers: UUIDv7 ids, Postgres-style timestamps, canonical JSON,
// the contract's envelopes (Hasura's own error shape is reshaped into the failure envelope here).
import { randomBytes } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';

export const CURRENT_VERSION = '2026-07-01';
export const PUBLISHED_VERSIONS = ['2026-07-01', '2026-06-12'];

/** UUIDv7 (RFC 9562): 48-bit milliseconds, version 7, variant 10, random rest; ids sort by creation. */
export function uuidv7(): string {
  const b = randomBytes(16);
  const ms = BigInt(Date.now());
  for (let i = 0; i < 6; i++) b[i] = Number((ms >> BigInt(8 * (5 - i))) & 0xffn);
  b.writeUInt8((b.readUInt8(6) & 0x0f) | 0x70, 6);
  b.writeUInt8((b.readUInt8(8) & 0x3f) | 0x80, 8);
  const h = b.toString('hex');
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20)}`;
}

/** A timestamptz as Postgres (and so Hasura) prints it in ISO form: microseconds and an explicit +00:00. */
export function pgTime(ms: number = Date.now()): string {
  return `${new Date(ms).toISOString().slice(0, 23)}000+00:00`;
}

/** JSON with object keys sorted at every depth: the fingerprint of a body and the audit chain's input. */
export function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    const o = value as Record<string, unknown>;
    const keys = Object.keys(o)
      .filter((k) => o[k] !== undefined)
      .sort();
    return `{${keys.map((k) => `${JSON.stringify(k)}:${canonical(o[k])}`).join(',')}}`;
  }
  return JSON.stringify(value);
}

/** Lengths in the contract count characters (code points), not UTF-16 units or bytes. */
export function chars(s: string): number {
  return Array.from(s).length;
}

export interface Meta {
  requestId: string;
  version: string;
  at: string;
  idempotencyKey?: string;
  replayed?: boolean;
}

/** One call's answer: request id, version and the headers every envelope carries. */
export class Reply {
  /** This call's id; a replay in the original-id variant takes the original call's (header and meta alike). */
  requestId = uuidv7();
  readonly res: ServerResponse;
  readonly version: string;
  idempotencyKey: string | undefined;
  sent = false;
  constructor(res: ServerResponse, version: string) {
    this.res = res;
    this.version = version;
  }
  meta(extra: Partial<Meta> = {}): Meta {
    const m: Meta = { requestId: this.requestId, version: this.version, at: pgTime() };
    if (this.idempotencyKey !== undefined) m.idempotencyKey = this.idempotencyKey;
    return { ...m, ...extra };
  }
  json(status: number, body: unknown): void {
    if (this.sent) return;
    this.sent = true;
    const text = JSON.stringify(body);
    this.res.writeHead(status, {
      'content-type': 'application/json; charset=utf-8',
      'content-length': Buffer.byteLength(text),
      'x-request-id': this.requestId,
      'service-version': this.version,
      'cache-control': 'no-store',
    });
    this.res.end(text);
  }
  ok(data: unknown, extra: Partial<Meta> = {}): void {
    this.json(200, { ok: true, data, meta: this.meta(extra) });
  }
  fail(status: number, code: string, message: string, detail?: string, hint?: string): void {
    const error: Record<string, string> = { code, message };
    if (detail !== undefined) error.detail = detail;
    if (hint !== undefined) error.hint = hint;
    this.json(status, { ok: false, error, meta: this.meta() });
  }
}

/** A refusal thrown by a handler; the router turns it into the failure envelope. */
export class ApiError extends Error {
  readonly status: number;
  readonly code: string;
  readonly detail: string | undefined;
  readonly hint: string | undefined;
  constructor(status: number, code: string, message: string, detail?: string, hint?: string) {
    super(message);
    this.status = status;
    this.code = code;
    this.detail = detail;
    this.hint = hint;
  }
}

export const invalid = (message: string, path: string): ApiError =>
  new ApiError(400, 'invalid_request', message, `at ${path}`, 'check the request against the published description');

/** Reads a body of at most 1 MiB; undefined when empty. Parse errors are 400 (Hasura: "parse-failed"). */
export async function readJson(req: IncomingMessage): Promise<unknown> {
  const parts: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    size += (chunk as Buffer).length;
    if (size > 1_048_576) throw invalid('the request body is too large', '$');
    parts.push(chunk as Buffer);
  }
  const text = Buffer.concat(parts).toString('utf8');
  if (text.trim() === '') return undefined;
  try {
    return JSON.parse(text);
  } catch {
    throw invalid('the request body is not valid JSON', '$');
  }
}
