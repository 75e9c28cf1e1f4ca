// ULIDs (Crockford base32, 48-bit time + 80-bit randomness), monotonic within one millisecond so that
// identifiers issued in one burst still sort in issue order, as the ULID spec asks.
import { randomBytes } from 'node:crypto';

const ALPHABET = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';
let lastTime = -1;
let lastRandom: number[] = [];

function encodeTime(ms: number): string {
  let out = '';
  let t = ms;
  for (let i = 0; i < 10; i++) {
    out = ALPHABET.charAt(t % 32) + out;
    t = Math.floor(t / 32);
  }
  return out;
}

function freshRandom(): number[] {
  return Array.from(randomBytes(16).subarray(0, 16), (b) => b % 32);
}

function increment(digits: number[]): number[] {
  const next = digits.slice();
  for (let i = next.length - 1; i >= 0; i--) {
    const d = next[i] ?? 0;
    if (d < 31) {
      next[i] = d + 1;
      return next;
    }
    next[i] = 0;
  }
  return freshRandom();
}

/** A new ULID (26 characters). */
export function ulid(now: number = Date.now()): string {
  if (now === lastTime) lastRandom = increment(lastRandom);
  else {
    lastTime = now;
    lastRandom = freshRandom();
  }
  return encodeTime(now) + lastRandom.map((d) => ALPHABET.charAt(d)).join('');
}

/** A fixed ULID for catalog records: stable across restarts (time part from a fixed date, name-derived tail). */
export function stableUlid(name: string): string {
  let h = 2166136261;
  const digits: number[] = [];
  for (let i = 0; i < 16; i++) {
    for (const ch of `${name}#${i}`) h = Math.imul(h ^ ch.charCodeAt(0), 16777619) >>> 0;
    digits.push(h % 32);
  }
  return encodeTime(Date.UTC(2026, 0, 1)) + digits.map((d) => ALPHABET.charAt(d)).join('');
}
