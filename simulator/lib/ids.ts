import { randomBytes } from 'node:crypto';

// Random bytes drawn in bulk (one system call per 48 KiB) instead of one call per identifier.
const POOL_SIZE = 48 * 1024;
let pool = randomBytes(0);
let offset = 0;

/** Unguessable identifier with a readable prefix, e.g. newId('req') -> req_3kV9...; base64url is inside the key pattern. */
export function newId(prefix: string, bytes = 12): string {
  if (bytes > POOL_SIZE) return `${prefix}_${randomBytes(bytes).toString('base64url')}`;
  if (offset + bytes > pool.length) {
    pool = randomBytes(POOL_SIZE);
    offset = 0;
  }
  const id = pool.toString('base64url', offset, offset + bytes);
  offset += bytes;
  return `${prefix}_${id}`;
}
