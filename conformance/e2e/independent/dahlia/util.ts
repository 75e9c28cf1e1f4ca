// Small helpers shared by every dahlia module: ids, times, hashing, canonical JSON.
import { createHash, randomBytes } from 'node:crypto';

export const CURRENT_VERSION = '2026-07-01';
export const PUBLISHED_VERSIONS = ['2026-06-12', '2026-07-01'];
export const API = '/api/public/v1';

// UUID v7 (RFC 9562): 48-bit unix milliseconds, version 7, variant 10, random rest. Sortable by time.
export function uuidv7(): string {
  const bytes = randomBytes(16);
  const ms = BigInt(Date.now());
  for (let i = 0; i < 6; i++) bytes[i] = Number((ms >> BigInt(8 * (5 - i))) & 0xffn);
  bytes[6] = ((bytes[6] ?? 0) & 0x0f) | 0x70;
  bytes[8] = ((bytes[8] ?? 0) & 0x3f) | 0x80;
  const hex = bytes.toString('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

// RFC 3339 with milliseconds and an explicit +00:00 offset (our house style instead of "Z").
export function iso(ms: number = Date.now()): string {
  return new Date(ms).toISOString().replace('Z', '+00:00');
}

export function sha256Hex(text: string | Buffer): string {
  return createHash('sha256').update(text).digest('hex');
}

// Lengths in the contract count characters, not UTF-16 units or bytes.
export function charLength(text: string): number {
  return [...text].length;
}

// Sorted-key JSON, used for idempotency fingerprints and audit hashes.
export function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>)
      .filter(([, v]) => v !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonical(v)}`).join(',')}}`;
  }
  return JSON.stringify(value);
}

export function randomToken(bytes = 24): string {
  return randomBytes(bytes).toString('base64url');
}

// Merkle root over hex leaf hashes: pairs hashed as sha256(left || right) over the hex text; an odd
// node is carried up unchanged. An empty list has the hash of the empty string as root.
export function merkleRoot(leaves: string[]): string {
  if (leaves.length === 0) return sha256Hex('');
  let level = leaves;
  while (level.length > 1) {
    const next: string[] = [];
    for (let i = 0; i < level.length; i += 2) {
      const right = level[i + 1];
      const left = level[i] ?? '';
      next.push(right === undefined ? left : sha256Hex(left + right));
    }
    level = next;
  }
  return level[0] ?? sha256Hex('');
}
