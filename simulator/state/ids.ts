import { randomBytes } from 'node:crypto';

/** Unguessable identifier with a readable prefix, e.g. newId('req') -> req_3kV9...; base64url is inside the key pattern. */
export function newId(prefix: string, bytes = 12): string {
  return `${prefix}_${randomBytes(bytes).toString('base64url')}`;
}
