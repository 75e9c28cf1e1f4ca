// Shared helpers: the envelope writers, Go-style RFC 3339 times with nanoseconds, canonical JSON and ids.
// Ids are int64 sequence numbers (sqlc over SQLite: INTEGER PRIMARY KEY) sent as JSON strings, because the
// interface types every id as a string and JavaScript clients lose precision on large int64 numbers.
import { randomBytes } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';

export const VERSION = '2026-07-01';
export const VERSIONS = ['2026-06-12', '2026-07-01'];

/** An error the handlers throw; the mux turns it into the failure envelope. */
export class ApiError extends Error {
  status: number;
  code: string;
  detail: string | undefined;
  headers: Record<string, string>;
  constructor(status: number, code: string, message: string, detail?: string, headers: Record<string, string> = {}) {
    super(message);
    this.status = status;
    this.code = code;
    this.detail = detail;
    this.headers = headers;
  }
}

export const invalid = (detail: string) =>
  new ApiError(400, 'invalid_request', 'the request is incomplete or unsuitable', detail);
export const notFound = (detail: string) => new ApiError(404, 'not_found', 'the entry does not exist', detail);

/**
 * Go's time.Format(time.RFC3339Nano): nine fraction digits at most, trailing zeros trimmed; "Z" in UTC,
 * else the zone's offset (a Go service that never calls .UTC() reports the host's local time).
 */
export function rfc3339Nano(ms: number, nanos = 0, offsetMin = 0): string {
  const iso = new Date(ms + offsetMin * 60_000).toISOString(); // 2026-11-27T09:20:31.123Z
  const frac = `${iso.slice(20, 23)}${String(nanos % 1_000_000).padStart(6, '0')}`.replace(/0+$/, '');
  const abs = Math.abs(offsetMin);
  const zone =
    offsetMin === 0
      ? 'Z'
      : `${offsetMin < 0 ? '-' : '+'}${String(Math.floor(abs / 60)).padStart(2, '0')}:${String(abs % 60).padStart(2, '0')}`;
  return `${iso.slice(0, 19)}${frac ? `.${frac}` : ''}${zone}`;
}

/** The wall clock with a sub-millisecond part, as Go's time.Now() would give it. */
export function now(offsetMin = 0): { ms: number; text: string } {
  const ms = Date.now();
  return { ms, text: rfc3339Nano(ms, Number(process.hrtime.bigint() % 1_000_000n), offsetMin) };
}

/** RFC 8785-style canonical JSON (sorted keys, no whitespace); our values hold no floats that need care. */
export function canonicalJson(value: unknown): string {
  if (value === null || typeof value !== 'object') return JSON.stringify(value) ?? 'null';
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  const obj = value as Record<string, unknown>;
  const keys = Object.keys(obj)
    .filter((k) => obj[k] !== undefined)
    .sort();
  return `{${keys.map((k) => `${JSON.stringify(k)}:${canonicalJson(obj[k])}`).join(',')}}`;
}

let seq = 1000;
/** The next int64 row id, as a decimal string. */
export const nextId = (): string => String(++seq);
export const requestId = (): string => randomBytes(12).toString('hex');
export const randomToken = (bytes: number): string => randomBytes(bytes).toString('base64url');

export interface Meta {
  requestId: string;
  version: string;
  at: string;
  idempotencyKey?: string;
  replayed?: boolean;
}

export function meta(
  rid: string,
  version: string,
  extra: { idempotencyKey?: string; replayed?: boolean } = {},
  offsetMin = 0,
): Meta {
  // omitempty: the key and the replay flag appear only when they apply.
  return { requestId: rid, version, at: now(offsetMin).text, ...extra };
}

/** encoding/json's default: <, > and & escaped as \u003c, \u003e, \u0026 (the same JSON, other bytes). */
export function marshal(value: unknown, goEscape = false): string {
  const text = JSON.stringify(value);
  return goEscape ? text.replace(/</g, '\\u003c').replace(/>/g, '\\u003e').replace(/&/g, '\\u0026') : text;
}

export function writeJson(
  res: ServerResponse,
  status: number,
  body: unknown,
  headers: Record<string, string> = {},
  goEscape = false,
): void {
  const text = marshal(body, goEscape);
  res.writeHead(status, {
    'content-type': 'application/json',
    'content-length': Buffer.byteLength(text),
    'cache-control': 'no-store',
    ...headers,
  });
  res.end(res.req.method === 'HEAD' ? undefined : text);
}

export function errorBody(e: ApiError, m: Meta, zeroValues = false): unknown {
  const error: Record<string, string> = { code: e.code, message: e.message };
  // Without omitempty a Go struct sends every field: "" for a detail or hint it has none of.
  if (e.detail || zeroValues) error.detail = e.detail ?? '';
  if (zeroValues) error.hint = '';
  return { ok: false, error, meta: m };
}

/** Reads the body up to 1 MiB (http.MaxBytesReader); more is refused as invalid. */
export async function readBody(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    size += (chunk as Buffer).length;
    if (size > 1 << 20) throw invalid('body: larger than 1 MiB');
    chunks.push(chunk as Buffer);
  }
  return Buffer.concat(chunks).toString('utf8');
}
