import { ApiError } from '../core/api-error.ts';
import type { PlainRequest } from '../core/types.ts';
import { parseJsonChecked } from './json-scan.ts';

const decoder = new TextDecoder('utf-8', { fatal: true });
const JSON_MEDIA_TYPE = /^application\/(?:[\w.+-]+\+)?json$/i;
/** Deeper JSON than any request of the interface needs is refused before parsing (depth bombs). */
export const MAX_JSON_DEPTH = 32;

/**
 * A body over the transport's limit was dropped unread: refused, never taken for an empty body.
 * @example refuseOversizedBody(req) // throws ApiError invalid_request when req.bodyTooLarge
 */
export function refuseOversizedBody(req: Pick<PlainRequest, 'bodyTooLarge'>): void {
  if (req.bodyTooLarge)
    throw new ApiError('invalid_request', {
      detail: 'The body is larger than this deployment accepts; it was not read further.',
      hint: 'Send a smaller body.',
    });
}

/**
 * The one reading of a JSON request body, shared by the validate step and the routes answered in front
 * of the pipeline (`POST /_sandbox/runs`), so no route accepts what another refuses: within the size
 * limit, one JSON media type in UTF-8, valid UTF-8 bytes, not empty, at most MAX_JSON_DEPTH levels, no
 * key twice in one object. Throws ApiError invalid_request with a detail and hint.
 * @example readJsonBody({ headers: { 'content-type': 'application/json' }, body: new TextEncoder().encode('{"a":1}') }) // { a: 1 }
 */
export function readJsonBody(req: Pick<PlainRequest, 'headers' | 'body' | 'bodyTooLarge'>): unknown {
  refuseOversizedBody(req);
  const { headers, body } = req;
  checkJsonContentType(headers['content-type'] ?? '');
  const coding = contentCodingProblem(headers['content-encoding']);
  if (coding) throw new ApiError('invalid_request', { detail: coding, hint: CONTENT_CODING_HINT });
  let text: string;
  try {
    text = decoder.decode(body ?? new Uint8Array());
  } catch {
    throw new ApiError('invalid_request', { detail: 'The body is not valid UTF-8.' });
  }
  if (text.trim() === '') throw new ApiError('invalid_request', { detail: 'The JSON body is missing.' });
  const parsed = parseJsonChecked(text, MAX_JSON_DEPTH);
  if (parsed.ok) return parsed.value;
  const { problem } = parsed;
  if (problem.kind === 'depth')
    throw new ApiError('invalid_request', { detail: `The JSON body is nested deeper than ${MAX_JSON_DEPTH} levels.` });
  if (problem.kind === 'duplicate_key')
    throw new ApiError('invalid_request', {
      detail: `The JSON body gives the key "${problem.key.slice(0, 64)}" twice in one object.`,
      hint: 'Send each key once per object: parsers disagree on which of two equal keys counts.',
    });
  throw new ApiError('invalid_request', { detail: 'The body is not valid JSON.' });
}

/** What a client sending a compressed body is told to do. */
export const CONTENT_CODING_HINT = 'Send the body uncompressed, without a Content-Encoding header.';

/**
 * Bodies are read as sent: a Content-Encoding other than identity is refused by name, never read as
 * if uncompressed (gzip bytes were "not valid UTF-8"; a plain body labelled gzip was taken, while a
 * proxy that decodes it would see other content than the server). Shared with the OAuth forms.
 * @example contentCodingProblem('gzip') // 'The body is sent with Content-Encoding gzip; ...'
 */
export function contentCodingProblem(header: string | undefined): string | undefined {
  if (header === undefined || header.trim() === '' || header.trim().toLowerCase() === 'identity') return undefined;
  return `The body is sent with Content-Encoding ${header.slice(0, 40)}; this deployment reads bodies uncompressed only.`;
}

/**
 * Only JSON in UTF-8 is accepted: one Content-Type (a repeated header reaches the core joined by
 * commas), a JSON media type, and no charset but UTF-8. Anything else is 400 invalid_request (the
 * interface's error table has no 415 code).
 * @example checkJsonContentType('application/json; charset=utf-8') // passes
 */
export function checkJsonContentType(header: string): void {
  // What nearly every client sends: nothing to split or match.
  if (header === 'application/json' || header === 'application/json; charset=utf-8') return;
  const fail = (detail: string): never => {
    throw new ApiError('invalid_request', {
      detail,
      hint: 'Send exactly one Content-Type: application/json header with a UTF-8 JSON body.',
    });
  };
  if (header.includes(',')) fail('The Content-Type header is given more than once or names several media types.');
  const [type = '', ...params] = header.split(';');
  if (!JSON_MEDIA_TYPE.test(type.trim())) fail('The body must be JSON (Content-Type: application/json).');
  for (const param of params) {
    const eq = param.indexOf('=');
    const name = param.slice(0, eq).trim().toLowerCase();
    const value = param
      .slice(eq + 1)
      .trim()
      .replace(/^"(.*)"$/, '$1')
      .toLowerCase();
    if (name === 'charset' && value !== 'utf-8')
      fail(`The body must be JSON in UTF-8; the Content-Type names charset ${value.slice(0, 40)}.`);
  }
}
