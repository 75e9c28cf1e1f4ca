import type { Router } from '../core/router.ts';
import { defineStep } from '../core/step.ts';
import { readJsonBody, refuseOversizedBody } from './json-body.ts';

/** Parses the JSON body (strict UTF-8) and validates query, params, headers and body against the document. */
export function validateStep(router: Router) {
  return defineStep({
    name: 'validate',
    requires: ['route', 'match'],
    provides: ['body'],
    run(ctx, next) {
      const { route, match, req } = ctx;
      refuseOversizedBody(req);
      if (route.body) {
        const value = readJsonBody(req);
        ctx.body = value;
        // The content as sent, for an observer, before the validator coerces anything in place.
        if (ctx.noteBody)
          try {
            ctx.bodyNote = ctx.noteBody(value);
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
