import { ApiError } from '../core/api-error.ts';
import { defineStep } from '../core/step.ts';
import { fromBrowser } from '../lib/browser-request.ts';

/**
 * The interface is called from servers only. A call that carries credentials together with an Origin
 * header or Fetch Metadata only a browser sends came from a browser: refuse it (403) so the mistake shows
 * up in development.
 * `allow: true` switches the guard off for local tooling.
 */
export function browserGuardStep(opts: { allow: boolean }) {
  return defineStep({
    name: 'browser-guard',
    run(ctx, next) {
      const h = ctx.req.headers;
      if (!opts.allow && h.authorization !== undefined && fromBrowser(h)) {
        throw new ApiError('forbidden', {
          message: 'Credentials were sent from a browser.',
          detail:
            h.origin !== undefined
              ? 'The request carries an Origin header together with an Authorization header.'
              : 'The request carries Fetch Metadata only a browser sends (Sec-Fetch-Site, Sec-Fetch-Dest) together with an Authorization header.',
          hint: 'Access credentials belong in the partner backend; call the interface from your server, never from a browser.',
        });
      }
      return next();
    },
  });
}
