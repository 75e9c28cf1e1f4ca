import { ApiError } from '../core/api-error.ts';
import type { Middleware } from '../core/pipeline.ts';
import type { Router } from '../core/router.ts';

const decoder = new TextDecoder('utf-8', { fatal: true });
const JSON_MEDIA_TYPE = /^application\/(?:[\w.+-]+\+)?json\b/i;

/** Parses the JSON body (strict UTF-8) and validates query, params, headers and body against the document. */
export function validateMiddleware(router: Router): Middleware {
  return async (ctx, next) => {
    const { route, match, req } = ctx;
    if (!route || !match) return next();
    if (req.bodyTooLarge) {
      throw new ApiError('invalid_request', { detail: 'The body is larger than this deployment accepts; it was not read further.', hint: 'Send a smaller body.' });
    }
    if (route.body) {
      const type = req.headers['content-type'] ?? '';
      if (!JSON_MEDIA_TYPE.test(type.trim())) {
        throw new ApiError('invalid_request', { detail: 'The body must be JSON (Content-Type: application/json).', hint: 'Send Content-Type: application/json with a JSON body.' });
      }
      let text: string;
      try {
        text = decoder.decode(req.body ?? new Uint8Array());
      } catch {
        throw new ApiError('invalid_request', { detail: 'The body is not valid UTF-8.' });
      }
      if (text.trim() === '') throw new ApiError('invalid_request', { detail: 'The JSON body is missing.' });
      try {
        ctx.body = JSON.parse(text);
      } catch {
        throw new ApiError('invalid_request', { detail: 'The body is not valid JSON.' });
      }
    }
    router.validate(match, { method: req.method, path: req.path, headers: req.headers, query: req.query, body: ctx.body });
    ctx.query = req.query;
    return next();
  };
}
