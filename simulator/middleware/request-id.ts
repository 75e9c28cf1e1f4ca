import { randomBytes } from 'node:crypto';
import { flatJoin } from '../lib/ids.ts';

// A pool of random bytes refilled in bulk: one syscall per 4096 ids instead of one per request.
let pool = randomBytes(0);
let offset = 0;

/** A fresh request identifier, e.g. req_9fK2mQ7xV1cT4bZ8 (quoted by partners in support queries). */
export function newRequestId(): string {
  if (offset + 12 > pool.length) {
    pool = randomBytes(12 * 4096);
    offset = 0;
  }
  const id = pool.toString('base64url', offset, offset + 12);
  offset += 12;
  // Flat, not a rope: audit entries and the client observer keep it (see flatJoin).
  return flatJoin('req', '_', id);
}
