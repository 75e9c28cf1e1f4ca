// Identifiers and digests of cedar: ids are prefixed KSUIDs (4 bytes of seconds since the KSUID
// epoch + 16 random bytes, base62, 27 characters), the way a Go service using segmentio/ksuid names things.
import { createHash, randomBytes } from 'node:crypto';

const ALPHABET = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';
const KSUID_EPOCH = 1_400_000_000;

function base62(bytes: Buffer): string {
  let n = BigInt(`0x${bytes.toString('hex')}`);
  let out = '';
  while (n > 0n) {
    out = ALPHABET[Number(n % 62n)] + out;
    n /= 62n;
  }
  return out.padStart(27, '0');
}

/** A new KSUID with a prefix, e.g. `conn_2Jf…`. */
export function newId(prefix: string): string {
  const head = Buffer.alloc(4);
  head.writeUInt32BE(Math.floor(Date.now() / 1000) - KSUID_EPOCH);
  return `${prefix}_${base62(Buffer.concat([head, randomBytes(16)]))}`;
}

/** A stable KSUID derived from a seed name (the invented catalog keeps its ids across restarts). */
export function seededId(prefix: string, seed: string): string {
  const digest = createHash('sha256').update(seed).digest();
  return `${prefix}_${base62(digest.subarray(0, 20))}`;
}

export function sha256Hex(text: string): string {
  return createHash('sha256').update(text).digest('hex');
}

/** JSON with sorted object keys: the text the audit chain hashes. */
export function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (value && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>)
      .filter(([, v]) => v !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonicalJson(v)}`).join(',')}}`;
  }
  return JSON.stringify(value);
}

/** Go's time.RFC3339Nano form (trailing zeros of the fraction trimmed), the way a Go service prints time. */
export function goTime(ms: number = Date.now()): string {
  const iso = new Date(ms).toISOString();
  return iso.replace(/\.(\d{3})Z$/, (_m, frac: string) => {
    const f = frac.replace(/0+$/, '');
    return f ? `.${f}Z` : 'Z';
  });
}
