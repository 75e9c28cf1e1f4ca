// Identifiers of ivy: request ids are UUIDs (what API Gateway puts in x-amzn-RequestId), every record a
// ULID (26 characters of Crockford base32, time-ordered: a DynamoDB sort key that sorts by creation).
import { randomBytes, randomUUID } from 'node:crypto';

const CROCKFORD = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';

/** A request id (UUID v4). */
export function requestId(): string {
  return randomUUID();
}

/** A ULID: 10 characters of milliseconds since the epoch, 16 of randomness. */
export function ulid(now = Date.now()): string {
  let time = '';
  let t = now;
  for (let i = 0; i < 10; i++) {
    time = CROCKFORD.charAt(t % 32) + time;
    t = Math.floor(t / 32);
  }
  const bytes = randomBytes(16);
  let rand = '';
  for (const b of bytes) rand += CROCKFORD.charAt(b % 32);
  return time + rand;
}

/** An opaque secret of `bytes` random bytes, base64url. */
export function secret(prefix: string, bytes = 32): string {
  return prefix + randomBytes(bytes).toString('base64url');
}
