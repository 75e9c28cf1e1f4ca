// The request pipeline: auth endpoints, Service-Version, route matching, authentication, errors.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { match } from './discovery.ts';
import { fail, HttpError, header, newCtx } from './http-kit.ts';
import type { Env } from './routes.ts';
import { buildRoutes } from './routes.ts';
import { PUBLISHED_VERSIONS } from './util.ts';

export function createApp(env: Env) {
  const { routes, authenticate } = buildRoutes(env);
  return async function app(req: IncomingMessage, res: ServerResponse, origin: string): Promise<void> {
    const ctx = newCtx(req, res, origin);
    try {
      if (await env.issuer.handle(req, res, ctx.url.pathname, origin)) return;
      const asked = header(ctx, 'service-version');
      if (asked !== undefined) {
        if (!PUBLISHED_VERSIONS.includes(asked.trim())) {
          throw new HttpError(
            400,
            'invalid_request',
            'Unknown Service-Version.',
            `Published versions: ${PUBLISHED_VERSIONS.join(', ')}.`,
          );
        }
        ctx.version = asked.trim();
      }
      const path = ctx.url.pathname.length > 1 ? ctx.url.pathname.replace(/\/+$/, '') : ctx.url.pathname;
      const { route, params, pathKnown } = match(routes, req.method ?? 'GET', path);
      if (!route)
        throw new HttpError(
          404,
          'not_found',
          pathKnown ? 'This method is not offered on this path.' : 'No such path.',
          'See GET /api/public/v1 for the routes.',
        );
      if (route.auth !== 'public') authenticate(ctx);
      if (route.since !== undefined && ctx.version < route.since)
        throw new HttpError(404, 'not_found', `Not offered in version ${ctx.version}.`, `Added in ${route.since}.`);
      await route.handler(ctx, params);
    } catch (err) {
      if (res.headersSent) return void res.end();
      fail(
        ctx,
        err instanceof HttpError
          ? err
          : new HttpError(
              500,
              'internal',
              'Something went wrong on our side.',
              `Quote request ${ctx.requestId} to support.`,
            ),
      );
    }
  };
}
