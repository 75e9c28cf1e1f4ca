// Small shared helpers: Snowflake ids, times, canonical JSON and the HTTP plumbing every handler uses.
import { createHash, randomBytes } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';

/** Custom epoch of linden's Snowflake ids (2026-01-01T00:00:00Z). */
const EPOCH = 1767225600000n;
let lastMs = 0n;
let sequence = 0n;

/**
 * A Snowflake id (41 bits of milliseconds, 10 bits of worker, 12 bits of sequence) as a decimal string:
 * JSON numbers lose precision above 2^53, so ids travel as strings, as Discord and Twitter learned.
 */
export function snowflake(worker = 1n): string {
  let ms = BigInt(Date.now()) - EPOCH;
  if (ms < lastMs) ms = lastMs;
  if (ms === lastMs) {
    sequence = (sequence + 1n) & 0xfffn;
    // Sequence exhausted within one millisecond: borrow the next millisecond instead of spinning.
    if (sequence === 0n) ms = lastMs + 1n;
  } else sequence = 0n;
  lastMs = ms;
  return ((ms << 22n) | (worker << 12n) | sequence).toString();
}

export const nowIso = (ms = Date.now()): string => new Date(ms).toISOString();

export const randomToken = (bytes = 24): string => randomBytes(bytes).toString('base64url');

export const sha256Hex = (text: string): string => createHash('sha256').update(text).digest('hex');

/** Lengths count characters (code points), not UTF-16 units or bytes. */
export const charLength = (s: string): number => [...s].length;

/** Sorted-key JSON, so the same content always hashes alike (idempotency fingerprints, audit digests). */
export function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>)
      .filter(([, v]) => v !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonicalJson(v)}`).join(',')}}`;
  }
  return JSON.stringify(value);
}

/** Reads the whole body, at most `limit` bytes; null when larger (the caller refuses it). */
export function readBody(req: IncomingMessage, limit = 65536): Promise<Buffer | null> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let tooLarge = false;
    req.on('data', (c: Buffer) => {
      size += c.length;
      if (size > limit) tooLarge = true;
      else chunks.push(c);
    });
    req.on('end', () => resolve(tooLarge ? null : Buffer.concat(chunks)));
    req.on('error', reject);
  });
}

export function sendJson(
  res: ServerResponse,
  status: number,
  body: unknown,
  headers: Record<string, string> = {},
): void {
  const text = JSON.stringify(body);
  res.writeHead(status, {
    'content-type': 'application/json; charset=utf-8',
    'content-length': String(Buffer.byteLength(text)),
    'cache-control': 'no-store',
    ...headers,
  });
  res.end(text);
}

/** First value of a header (Node joins repeated ones or gives arrays for a few). */
export function header(req: IncomingMessage, name: string): string | undefined {
  const v = req.headers[name.toLowerCase()];
  return Array.isArray(v) ? v[0] : v;
}
