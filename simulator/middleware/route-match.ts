import type { Middleware } from '../core/pipeline.ts';
import type { Router } from '../core/router.ts';

/** Finds the route of the call (404 for unknown paths, 404 + Allow for a wrong method). */
export function routeMatchMiddleware(router: Router): Middleware {
  return async (ctx, next) => {
    const m = router.match(ctx.req.method, ctx.req.path);
    ctx.route = m.route;
    ctx.params = m.params;
    ctx.match = m;
    return next();
  };
}
