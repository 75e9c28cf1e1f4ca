// Small helpers shared by every module: ULIDs, Python-style timestamps, canonical JSON, base64url.
// The team's services are FastAPI: timestamps look like Python's datetime.isoformat() (microseconds, +00:00).
import { createHash, randomBytes } from 'node:crypto';

const CROCKFORD = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';

/** A ULID: 48 bits of milliseconds, 80 random bits, Crockford base32 (26 characters). */
export function ulid(now: number = Date.now()): string {
  let time = '';
  let t = now;
  for (let i = 0; i < 10; i += 1) {
    time = CROCKFORD.charAt(t % 32) + time;
    t = Math.floor(t / 32);
  }
  const bytes = randomBytes(16);
  let rand = '';
  for (let i = 0; i < 16; i += 1) rand += CROCKFORD.charAt((bytes[i] ?? 0) % 32);
  return time + rand;
}

/**
 * Python's datetime.now(timezone.utc).isoformat(): microseconds and an explicit +00:00 offset, and,
 * as Python does, no fraction at all when the microseconds are zero.
 */
export function isoTime(ms: number = Date.now()): string {
  const text = new Date(ms).toISOString();
  return ms % 1000 === 0 ? text.replace('.000Z', '+00:00') : text.replace('Z', '000+00:00');
}

/**
 * Python's json.dumps() defaults (", " and ": " separators, non-ASCII escaped as \uXXXX): what the
 * team's event relay and httpx write into stream messages and webhook bodies.
 */
export function pyJson(value: unknown): string {
  if (value === null || typeof value !== 'object') {
    return (JSON.stringify(value) ?? 'null').replace(
      /[\u0080-\uffff]/g,
      (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`,
    );
  }
  if (Array.isArray(value)) return `[${value.map((v) => pyJson(v)).join(', ')}]`;
  const obj = value as Record<string, unknown>;
  const keys = Object.keys(obj).filter((k) => obj[k] !== undefined);
  return `{${keys.map((k) => `${pyJson(k)}: ${pyJson(obj[k])}`).join(', ')}}`;
}

/** Canonical JSON (sorted object keys, no spacing): the idempotency fingerprint and the audit hash use it. */
export function canonical(value: unknown): string {
  if (value === null || typeof value !== 'object') return JSON.stringify(value) ?? 'null';
  if (Array.isArray(value)) return `[${value.map((v) => canonical(v)).join(',')}]`;
  const obj = value as Record<string, unknown>;
  const keys = Object.keys(obj)
    .filter((k) => obj[k] !== undefined)
    .sort();
  return `{${keys.map((k) => `${JSON.stringify(k)}:${canonical(obj[k])}`).join(',')}}`;
}

export function sha256Hex(text: string): string {
  return createHash('sha256').update(text, 'utf8').digest('hex');
}

export function b64url(input: string | Buffer): string {
  return Buffer.from(input).toString('base64url');
}

export function randomToken(bytes: number): string {
  return randomBytes(bytes).toString('base64url');
}

/** Length in characters (code points), as Python's len() counts: 'é' is one, never two bytes. */
export function charLength(text: string): number {
  return Array.from(text).length;
}

export const CURRENT_VERSION = '2026-07-01';
export const PUBLISHED_VERSIONS = ['2026-06-12', '2026-07-01'];
export const API = '/api/public/v1';
export const KEY_PATTERN = /^[A-Za-z0-9._:-]{8,128}$/;
export const ENVIRONMENTS = ['development', 'sandbox', 'pilot', 'production'];
export const DAY_MS = 24 * 60 * 60 * 1000;
