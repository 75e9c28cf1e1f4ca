// Small helpers shared by every hornbeam module: ULIDs, envelopes, canonical JSON, character counts.
import { randomBytes } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';

export const CURRENT_VERSION = '2026-07-01';
export const PUBLISHED_VERSIONS = ['2026-06-12', '2026-07-01'];
const CROCKFORD = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';
let lastTime = 0;
let lastRandom: number[] = [];

/** A monotonic ULID (time-sortable, 26 Crockford characters): ids sort by creation like on Workers KV. */
export function ulid(now = Date.now()): string {
  let rnd: number[];
  if (now <= lastTime && lastRandom.length === 16) {
    rnd = lastRandom.slice();
    for (let i = 15; i >= 0; i--) {
      rnd[i] = ((rnd[i] ?? 0) + 1) % 32;
      if (rnd[i] !== 0) break;
    }
    now = lastTime;
  } else {
    rnd = Array.from(randomBytes(16), (b) => b % 32);
  }
  lastTime = now;
  lastRandom = rnd;
  let time = '';
  let t = now;
  for (let i = 0; i < 10; i++) {
    time = CROCKFORD.charAt(t % 32) + time;
    t = Math.floor(t / 32);
  }
  return time + rnd.map((n) => CROCKFORD.charAt(n)).join('');
}

/** Lengths count characters (code points), not UTF-16 units or bytes. */
export const chars = (s: string): number => Array.from(s).length;

/** Canonical JSON (sorted keys): the fingerprint of a body and the bytes of an audit leaf. */
export function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`;
  if (value && typeof value === 'object') {
    const o = value as Record<string, unknown>;
    const keys = Object.keys(o)
      .filter((k) => o[k] !== undefined)
      .sort();
    return `{${keys.map((k) => `${JSON.stringify(k)}:${canonical(o[k])}`).join(',')}}`;
  }
  return JSON.stringify(value);
}

export interface Meta {
  requestId: string;
  version: string;
  at: string;
  idempotencyKey?: string;
  replayed?: boolean;
}

/** What a handler answers: status and envelope payload; the server writes it with the headers. */
export interface Answer {
  status: number;
  data?: Record<string, unknown>;
  error?: { code: string; message: string; detail?: string; hint?: string };
  headers?: Record<string, string>;
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

export function ok(data: Record<string, unknown>): Answer {
  return { status: 200, data };
}

export function fail(code: string, message: string, hint?: string): Answer {
  return { status: STATUS[code] ?? 500, error: hint ? { code, message, hint } : { code, message } };
}

export function envelope(answer: Answer, meta: Meta): Record<string, unknown> {
  return answer.error ? { ok: false, error: answer.error, meta } : { ok: true, data: answer.data ?? {}, meta };
}

export function sendJson(res: ServerResponse, status: number, body: unknown, headers: Record<string, string>): void {
  const text = JSON.stringify(body);
  res.writeHead(status, {
    ...headers,
    'content-type': 'application/json; charset=utf-8',
    'content-length': String(Buffer.byteLength(text)),
  });
  res.end(text);
}

export async function readBody(req: IncomingMessage, max = 1 << 20): Promise<string> {
  const parts: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    size += (chunk as Buffer).length;
    if (size > max) break;
    parts.push(chunk as Buffer);
  }
  return Buffer.concat(parts).toString('utf8');
}

export const isObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

/** A string of 2..max characters, else a message naming the field. */
export function textError(body: Record<string, unknown>, field: string, min: number, max: number): string | null {
  const v = body[field];
  if (typeof v !== 'string') return `${field} must be a string`;
  const n = chars(v);
  return n < min || n > max ? `${field} must be ${min} to ${max} characters` : null;
}
