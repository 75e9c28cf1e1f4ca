// The value formats buckeye writes and reads: prefixed KSUIDs (Segment's format: 4 bytes of seconds since
// 2014-05-13T16:53:20Z, 16 random bytes, base62, 27 characters: time-ordered, opaque, the prefix names the
// resource in logs and support tickets), RFC 3339 times, and the field checks of JSON bodies (400 naming the field).
import { randomBytes } from 'node:crypto';
import { badRequest } from './http-kit.ts';

const ALPHABET = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';
const KSUID_EPOCH = 1_400_000_000;

/** A bare KSUID (27 base62 characters). */
export function ksuid(now = Date.now()): string {
  const bytes = Buffer.alloc(20);
  bytes.writeUInt32BE(Math.floor(now / 1000) - KSUID_EPOCH, 0);
  randomBytes(16).copy(bytes, 4);
  let n = BigInt(`0x${bytes.toString('hex')}`);
  let out = '';
  while (n > 0n) {
    out = ALPHABET[Number(n % 62n)] + out;
    n /= 62n;
  }
  return out.padStart(27, '0');
}

/** A resource id: `con_2Kx…`, `whk_…`, `dlv_…`, `evt_…`, `req_…`, `aud_…`, `idk_…`, `bat_…`. */
export function newId(prefix: string): string {
  return `${prefix}_${ksuid()}`;
}

/**
 * RFC 3339 as chrono's `DateTime<Utc>::to_rfc3339()` writes it: nanoseconds and a `+00:00` offset
 * (`2026-11-27T13:05:28.123000000+00:00`); BUCKEYE_TIME_FORMAT=z writes `…:28.123000Z` instead.
 */
export function timestamp(ms = Date.now()): string {
  const iso = new Date(ms).toISOString();
  return timeStyle.z ? iso.replace(/\.(\d{3})Z$/, '.$1000Z') : iso.replace(/\.(\d{3})Z$/, '.$1000000+00:00');
}

/** The time style of this process (one deployment per process writes one style). */
export const timeStyle = { z: false };

/** Length as Rust's `str::chars().count()` (Unicode scalar values), not UTF-16 code units. */
export const chars = (v: string): number => [...v].length;

// Field checks for JSON bodies, each refusal naming the field (400 invalid_request).
export const ENVIRONMENTS = ['development', 'sandbox', 'pilot', 'production'];

export function str(body: Record<string, unknown>, name: string, min: number, max: number): string;
export function str(
  body: Record<string, unknown>,
  name: string,
  min: number,
  max: number,
  optional: true,
): string | undefined;
export function str(
  body: Record<string, unknown>,
  name: string,
  min: number,
  max: number,
  optional = false,
): string | undefined {
  const v = body[name];
  if (v === undefined && optional) return undefined;
  if (v === undefined || v === null) throw badRequest(`${name} is required`);
  if (typeof v !== 'string') throw badRequest(`${name} must be a string`);
  if (chars(v) < min || chars(v) > max) throw badRequest(`${name} must be ${min} to ${max} characters long`);
  return v;
}

export function environment(body: Record<string, unknown>, optional: boolean): string | undefined {
  const v = body.environment;
  if (v === undefined && optional) return undefined;
  if (typeof v !== 'string' || !ENVIRONMENTS.includes(v)) {
    throw badRequest('environment must be one of development, sandbox, pilot, production');
  }
  return v;
}

export function strings(
  body: Record<string, unknown>,
  name: string,
  minItems: number,
  maxItems: number,
  min: number,
  max: number,
): string[] {
  const v = body[name];
  if (!Array.isArray(v)) throw badRequest(`${name} must be an array of strings`);
  if (v.length < minItems || v.length > maxItems)
    throw badRequest(`${name} must hold ${minItems} to ${maxItems} items`);
  for (const item of v) {
    if (typeof item !== 'string' || chars(item) < min || chars(item) > max) {
      throw badRequest(`each entry of ${name} must be a string of ${min} to ${max} characters`);
    }
  }
  if (new Set(v).size !== v.length) throw badRequest(`${name} must not repeat an entry`);
  return v as string[];
}
