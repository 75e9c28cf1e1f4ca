import { hash, randomBytes } from 'node:crypto';

// Random bytes drawn in bulk (one system call per 48 KiB) instead of one call per identifier.
const POOL_SIZE = 48 * 1024;
let pool = randomBytes(0);
let offset = 0;
// Set while a replicated operation is applied: every replica derives the same ids from the
// operation's random seed, so a connection, event or delivery has one id on all of them.
let seeded: { seed: string; n: number } | undefined;

/** Unguessable identifier with a readable prefix, e.g. newId('req') -> req_3kV9...; base64url is inside the key pattern. */
export function newId(prefix: string, bytes = 12): string {
  return flatJoin(prefix, '_', seeded ? seededChars(seeded, bytes) : randomChars(bytes));
}

/**
 * `${a}${sep}${b}` as one flat string. A template or `+` makes a rope (a node pointing at its parts,
 * `a + sep` a string of its own) once the result has 13 characters or more: ids and keys kept for as
 * long as their record lives then cost the rope and its parts (~90 bytes for a 20-character id instead
 * of ~40), each one copied by the collector, and every hash of them walks the rope. `join` writes flat.
 * @example flatJoin('con', '_', 'Xy3...') === 'con_Xy3...'
 */
export function flatJoin(a: string, sep: string, b: string): string {
  return [a, b].join(sep);
}

/**
 * `bytes` fresh random bytes as base64url, from the pool: never derived from a seed, so it may make
 * the seed of a replicated operation itself.
 * @example const seed = randomChars(16); // 22 characters
 */
export function randomChars(bytes: number): string {
  if (bytes > POOL_SIZE) return randomBytes(bytes).toString('base64url');
  if (offset + bytes > pool.length) {
    pool = randomBytes(POOL_SIZE);
    offset = 0;
  }
  const chars = pool.toString('base64url', offset, offset + bytes);
  offset += bytes;
  return chars;
}

function seededChars(s: { seed: string; n: number }, bytes: number): string {
  const length = Math.ceil((bytes * 4) / 3);
  let out = '';
  while (out.length < length) out += hash('sha256', `${s.seed}:${s.n++}`, 'base64url');
  return out.slice(0, length);
}

/**
 * Runs `fn` with ids derived from `seed` (a random secret of the operation) instead of fresh randomness:
 * the same seed and the same calls give the same ids, on every replica that applies the operation.
 * @example withSeededIds(op.seed, () => store.create(input)); // same connection id everywhere
 */
export function withSeededIds<T>(seed: string, fn: () => T): T {
  const previous = seeded;
  seeded = { seed, n: 0 };
  try {
    return fn();
  } finally {
    seeded = previous;
  }
}
