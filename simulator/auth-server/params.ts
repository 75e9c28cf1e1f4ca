import type { PlainRequest } from '../core/types.ts';
import { CONTENT_CODING_HINT, contentCodingProblem } from '../middleware/json-body.ts';
import { OAuthError } from './oauth-error.ts';

/** Request parameters of one OAuth call; empty values count as absent (RFC 6749 3.1). */
export type OAuthParams = Readonly<Record<string, string>>;

function collect(entries: Iterable<[string, string]>): OAuthParams {
  const out: Record<string, string> = {};
  const seen = new Set<string>();
  for (const [key, value] of entries) {
    // RFC 6749 3.1: a parameter must not be sent twice; guessing which one counts would hide bugs.
    if (seen.has(key))
      throw new OAuthError('invalid_request', `The parameter ${printable(key)} was sent more than once.`);
    seen.add(key);
    if (value !== '') out[key] = value;
  }
  return out;
}

/** Names are echoed in messages only when short and plain, so nothing sent by mistake comes back. */
function printable(name: string): string {
  return /^[a-z_]{1,40}$/.test(name) ? name : '(unnamed)';
}

/**
 * The application/x-www-form-urlencoded body of a token or revocation request.
 * @example const params = formParams(req); params.grant_type;
 */
export function formParams(req: PlainRequest): OAuthParams {
  if (req.bodyTooLarge) throw new OAuthError('invalid_request', 'The request body is too large.');
  const [type, ...attributes] = (req.headers['content-type'] ?? '').split(';');
  if (type?.trim().toLowerCase() !== 'application/x-www-form-urlencoded') {
    throw new OAuthError(
      'invalid_request',
      'Send the parameters as an application/x-www-form-urlencoded body (RFC 6749 3.2).',
    );
  }
  // The form is read as UTF-8 (RFC 6749 B): a form that says it is in another charset is refused, not
  // misread (as the JSON bodies are); so is a compressed one.
  for (const attribute of attributes) {
    const [name = '', value = ''] = attribute.split('=', 2).map((x) =>
      x
        .trim()
        .replace(/^"(.*)"$/, '$1')
        .toLowerCase(),
    );
    if (name === 'charset' && value !== 'utf-8')
      throw new OAuthError(
        'invalid_request',
        'The form must be in UTF-8 (RFC 6749 Appendix B); drop the charset or send utf-8.',
      );
  }
  const coding = contentCodingProblem(req.headers['content-encoding']);
  if (coding) throw new OAuthError('invalid_request', `${coding} ${CONTENT_CODING_HINT}`);
  let text: string;
  try {
    text = new TextDecoder('utf-8', { fatal: true }).decode(req.body ?? new Uint8Array());
  } catch {
    throw new OAuthError('invalid_request', 'The request body is not valid UTF-8.');
  }
  return collect(new URLSearchParams(text));
}

/**
 * The query parameters of an authorization request.
 * @example const params = queryParams(req.query); params.client_id;
 */
export function queryParams(query: PlainRequest['query']): OAuthParams {
  const pairs: [string, string][] = [];
  for (const [key, value] of Object.entries(query))
    for (const v of Array.isArray(value) ? value : [value]) pairs.push([key, v]);
  return collect(pairs);
}
