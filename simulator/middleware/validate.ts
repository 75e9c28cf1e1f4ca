import { ApiError } from '../core/api-error.ts';
import type { Middleware } from '../core/pipeline.ts';
import type { Router } from '../core/router.ts';

const decoder = new TextDecoder('utf-8', { fatal: true });
const JSON_MEDIA_TYPE = /^application\/(?:[\w.+-]+\+)?json\b/i;
/** Deeper JSON than any request of the interface needs is refused before parsing (depth bombs). */
export const MAX_JSON_DEPTH = 32;

function depthExceeds(text: string, max: number): boolean {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 92)
        i++; // backslash: skip the escaped character
      else if (c === 34) inString = false;
    } else if (c === 34) inString = true;
    else if (c === 123 || c === 91) {
      if (++depth > max) return true;
    } else if (c === 125 || c === 93) depth--;
  }
  return false;
}

/** Parses the JSON body (strict UTF-8) and validates query, params, headers and body against the document. */
export function validateMiddleware(router: Router): Middleware {
  return async (ctx, next) => {
    const { route, match, req } = ctx;
    if (!route || !match) return next();
    if (req.bodyTooLarge) {
      throw new ApiError('invalid_request', {
        detail: 'The body is larger than this deployment accepts; it was not read further.',
        hint: 'Send a smaller body.',
      });
    }
    if (route.body) {
      const type = req.headers['content-type'] ?? '';
      if (!JSON_MEDIA_TYPE.test(type.trim())) {
        throw new ApiError('invalid_request', {
          detail: 'The body must be JSON (Content-Type: application/json).',
          hint: 'Send Content-Type: application/json with a JSON body.',
        });
      }
      let text: string;
      try {
        text = decoder.decode(req.body ?? new Uint8Array());
      } catch {
        throw new ApiError('invalid_request', { detail: 'The body is not valid UTF-8.' });
      }
      if (text.trim() === '') throw new ApiError('invalid_request', { detail: 'The JSON body is missing.' });
      if (depthExceeds(text, MAX_JSON_DEPTH))
        throw new ApiError('invalid_request', {
          detail: `The JSON body is nested deeper than ${MAX_JSON_DEPTH} levels.`,
        });
      try {
        ctx.body = JSON.parse(text);
      } catch {
        throw new ApiError('invalid_request', { detail: 'The body is not valid JSON.' });
      }
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
  };
}
