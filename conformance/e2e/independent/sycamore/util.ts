// Small helpers of sycamore: ULID ids with a type prefix (`con_01H…`), times, canonical JSON for hashes, and the
// YAML emitter of the per-version OpenAPI files. Kept dependency-free on purpose (no npm packages may be added).
import { createHash, createHmac, randomBytes, timingSafeEqual } from 'node:crypto';

const CROCKFORD = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';

/** A ULID: 10 characters of milliseconds, 16 of randomness, Crockford base32 (26 characters). */
export function ulid(now = Date.now()): string {
  let time = '';
  let t = now;
  for (let i = 0; i < 10; i++) {
    time = CROCKFORD[t % 32] + time;
    t = Math.floor(t / 32);
  }
  const bytes = randomBytes(16);
  let rand = '';
  for (let i = 0; i < 16; i++) rand += CROCKFORD[(bytes[i] ?? 0) % 32];
  return time + rand;
}

/** A prefixed id, the team's house style: `con_`, `whk_`, `dlv_`, `evt_`, `aud_`, `req_`, `idk_`. */
export function newId(prefix: string): string {
  return `${prefix}_${ulid()}`;
}

/** An opaque random secret (tokens, signing keys), base64url. */
export function secret(prefix: string, bytes = 24): string {
  return `${prefix}${randomBytes(bytes).toString('base64url')}`;
}

/**
 * RFC 3339 in UTC with milliseconds, as Laravel's `toJSON()` would. SYCAMORE_CARBON_TIMES=1 (start.ts only: read
 * from the process environment) writes Carbon's `toIso8601String()` instead: whole seconds with `+00:00`.
 */
export function iso(ms = Date.now()): string {
  const text = new Date(ms).toISOString();
  return process.env.SYCAMORE_CARBON_TIMES === '1' ? `${text.slice(0, 19)}+00:00` : text;
}

/** Length in characters (code points), not bytes or UTF-16 units: `é` counts 1. */
export function charLength(s: string): number {
  return [...s].length;
}

/** RFC 8785 style canonical JSON for the plain values sycamore hashes (strings, integers, booleans, null, objects, arrays). */
export function canonical(value: unknown): string {
  if (value === null || typeof value !== 'object') return JSON.stringify(value) ?? 'null';
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`;
  const entries = Object.entries(value as Record<string, unknown>)
    .filter(([, v]) => v !== undefined)
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonical(v)}`).join(',')}}`;
}

export function sha512Hex(text: string): string {
  return createHash('sha512').update(text, 'utf8').digest('hex');
}

/** The contract's signature form: HMAC-SHA256 over `<t>.<raw body>`, lowercase hex. */
export function signBody(key: string, t: number, body: string): string {
  return `t=${t},v1=${createHmac('sha256', key).update(`${t}.${body}`, 'utf8').digest('hex')}`;
}

/** Constant-time string comparison (client secrets). */
export function sameSecret(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}

/** YAML for a JSON value: block style, every string double-quoted (JSON quoting is valid YAML). */
export function toYaml(value: unknown, indent = ''): string {
  if (value === null || typeof value !== 'object') return `${scalar(value)}\n`;
  if (Array.isArray(value)) {
    if (value.length === 0) return '[]\n';
    return value.map((v) => `${indent}-${block(v, `${indent}  `, ' ')}`).join('');
  }
  const entries = Object.entries(value as Record<string, unknown>).filter(([, v]) => v !== undefined);
  if (entries.length === 0) return '{}\n';
  return entries.map(([k, v]) => `${indent}${JSON.stringify(k)}:${block(v, `${indent}  `, ' ')}`).join('');
}

function block(v: unknown, indent: string, sep: string): string {
  if (v !== null && typeof v === 'object') {
    const empty = Array.isArray(v) ? v.length === 0 : Object.keys(v).length === 0;
    if (empty) return `${sep}${Array.isArray(v) ? '[]' : '{}'}\n`;
    return `\n${toYaml(v, indent)}`;
  }
  return `${sep}${scalar(v)}\n`;
}

function scalar(v: unknown): string {
  if (typeof v === 'string') return JSON.stringify(v);
  if (v === null || v === undefined) return 'null';
  return String(v);
}
