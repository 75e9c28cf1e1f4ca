import { IDEMPOTENCY_KEY_PATTERN } from '../contract/limits.ts';
import { isSupportedVersion } from '../contract/versions.ts';
import { checkJsonContentType, contentCodingProblem } from '../middleware/json-body.ts';
import type { CallRecord } from './observation.ts';

// What a client does about a 4xx before it sends the call again: the Errors table's remedies. A call that
// carries the remedy is a new call (the retry heuristic in attempts.ts does not link it to the refused one).

/**
 * The 4xx a repeat does something about: a new token after a 401, a new key after a key error (a 428 or 409,
 * or a 400 to a key outside the published pattern answered by a key in it), a body
 * labelled otherwise (Content-Type, Content-Encoding) after a 400, and
 * another Service-Version after a 400 that refused an unpublished one (the service checks the version
 * before anything else, so that 400 was about the version; the remedy "check the request against the
 * published description" is a call with another version, e.g. a client falling back to an older one).
 * @example remedied(refused401, sameCallWithNewToken) // true
 */
export function remedied(p: CallRecord, c: CallRecord): boolean {
  if (p.status === 401) return p.token !== c.token;
  if (p.code === 'idempotency_required' || p.code === 'idempotency_conflict') return c.key !== p.key;
  // A key outside the published pattern is refused whatever the rest of the call holds: the same content under a
  // key in the pattern is the remedy ("check the request against the published description"), not a repeat.
  if (p.status === 400 && keyOutsidePattern(p.key) && c.key !== undefined && !keyOutsidePattern(c.key)) return true;
  if (p.status === 400 && p.version !== undefined && !isSupportedVersion(p.version.trim()))
    return c.version !== p.version;
  // A 400 to a body labelled as the service does not read it (text/plain, another charset, a Content-Encoding),
  // answered by the same content labelled otherwise: the remedy is the label ("check the request against the
  // published description"). A label changed after a 400 about the content itself is no remedy.
  if (
    p.status === 400 &&
    labelRefused(p) &&
    (c.contentType !== p.contentType || c.contentEncoding !== p.contentEncoding)
  )
    return true;
  return false;
}

/** A key sent that the Limits' pattern does not match (none sent is no key error). */
const keyOutsidePattern = (key: string | undefined) => key !== undefined && !IDEMPOTENCY_KEY_PATTERN.test(key);

/** Whether the service refuses the call's body for its label alone (its Content-Type or Content-Encoding). */
function labelRefused(p: CallRecord): boolean {
  if (p.contentType === undefined) return false;
  if (contentCodingProblem(p.contentEncoding) !== undefined) return true;
  try {
    checkJsonContentType(p.contentType);
    return false;
  } catch {
    return true;
  }
}
