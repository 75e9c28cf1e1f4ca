import { ApiError } from '../core/api-error.ts';
import { defineStep } from '../core/step.ts';

/**
 * The interface is called from servers only. A call that carries an Origin header together with
 * credentials came from a browser: refuse it (403) so the mistake shows up in development.
 * `allow: true` switches the guard off for local tooling.
 */
export function browserGuardStep(opts: { allow: boolean }) {
  return defineStep({
    name: 'browser-guard',
    run(ctx, next) {
      const h = ctx.req.headers;
      if (!opts.allow && h.origin !== undefined && h.authorization !== undefined) {
        throw new ApiError('forbidden', {
          message: 'Credentials were sent from a browser.',
          detail: 'The request carries an Origin header together with an Authorization header.',
          hint: 'Access credentials belong in the partner backend; call the interface from your server, never from a browser.',
        });
      }
      return next();
    },
  });
}
