import { ApiError } from '../core/api-error.ts';
import { defineStep } from '../core/step.ts';
import type { Router } from '../core/router.ts';

/**
 * Finds the route of the call (404 for unknown paths, 404 + Allow for a wrong method). A route that
 * a requested earlier interface version does not have (Service-Version) answers 404 as well.
 */
export function routeMatchStep(router: Router) {
  return defineStep({
    name: 'route-match',
    requires: ['version'],
    provides: ['route', 'match'],
    run(ctx, next) {
      const m = router.match(ctx.req.method, ctx.req.path);
      if (m.route.since && m.route.since > ctx.version) {
        throw new ApiError('not_found', {
          detail: `${m.route.method} ${m.route.path} does not exist in interface version ${ctx.version}.`,
          hint: `It was added in ${m.route.since}: send Service-Version: ${m.route.since} or omit the header.`,
        });
      }
      ctx.route = m.route;
      ctx.params = m.params;
      ctx.match = m;
      return next();
    },
  });
}
