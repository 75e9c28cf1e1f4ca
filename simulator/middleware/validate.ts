import { ApiError } from '../core/api-error.ts';
import { defineStep } from '../core/step.ts';
import type { Router } from '../core/router.ts';
import { parseJsonChecked } from './json-scan.ts';

const decoder = new TextDecoder('utf-8', { fatal: true });
const JSON_MEDIA_TYPE = /^application\/(?:[\w.+-]+\+)?json$/i;
/** Deeper JSON than any request of the interface needs is refused before parsing (depth bombs). */
export const MAX_JSON_DEPTH = 32;

/** Parses the JSON body (strict UTF-8) and validates query, params, headers and body against the document. */
export function validateStep(router: Router) {
  return defineStep({
    name: 'validate',
    requires: ['route', 'match'],
    provides: ['body'],
    run(ctx, next) {
      const { route, match, req } = ctx;
      if (req.bodyTooLarge) {
        throw new ApiError('invalid_request', {
          detail: 'The body is larger than this deployment accepts; it was not read further.',
          hint: 'Send a smaller body.',
        });
      }
      if (route.body) {
        checkJsonContentType(req.headers['content-type'] ?? '');
        let text: string;
        try {
          text = decoder.decode(req.body ?? new Uint8Array());
        } catch {
          throw new ApiError('invalid_request', { detail: 'The body is not valid UTF-8.' });
        }
        if (text.trim() === '') throw new ApiError('invalid_request', { detail: 'The JSON body is missing.' });
        const parsed = parseJsonChecked(text, MAX_JSON_DEPTH);
        if (!parsed.ok) {
          const { problem } = parsed;
          if (problem.kind === 'depth')
            throw new ApiError('invalid_request', {
              detail: `The JSON body is nested deeper than ${MAX_JSON_DEPTH} levels.`,
            });
          if (problem.kind === 'duplicate_key')
            throw new ApiError('invalid_request', {
              detail: `The JSON body gives the key "${problem.key.slice(0, 64)}" twice in one object.`,
              hint: 'Send each key once per object: parsers disagree on which of two equal keys counts.',
            });
          throw new ApiError('invalid_request', { detail: 'The body is not valid JSON.' });
        }
        ctx.body = parsed.value;
        // The content as sent, for an observer, before the validator coerces anything in place.
        if (ctx.noteBody)
          try {
            ctx.bodyNote = ctx.noteBody(parsed.value);
          } catch {}
      }
      router.validate(match, {
        method: req.method,
        path: req.path,
        headers: req.headers,
        query: req.query,
        body: ctx.body,
      });
      ctx.query = req.query;
      return next();
    },
  });
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
