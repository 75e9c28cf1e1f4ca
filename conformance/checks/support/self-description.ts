import { RouteInfo } from '../../../simulator/contract/discovery.ts';
import { BASE_PATH } from '../../../simulator/contract/versions.ts';
import type { Exchange } from '../../client/http-client.ts';
import type { CheckContext } from '../../runner/check.ts';
import { publicGet } from './public-get.ts';

export const selfDescriptionExchange = (ctx: CheckContext): Promise<Exchange> => publicGet(ctx, BASE_PATH);

/**
 * The self-description's routes; skips when the endpoint is unavailable (reported by
 * discovery.public-endpoints) and fails when `routes` is not a list of RouteInfo.
 */
export async function requireSelfDescribedRoutes(ctx: CheckContext): Promise<{ ex: Exchange; routes: RouteInfo[] }> {
  const ex = await selfDescriptionExchange(ctx);
  if (ex.status !== 200 || ex.json === undefined)
    ctx.skip(`needs the self-description, but GET ${BASE_PATH} answered ${ex.status} (see discovery.public-endpoints)`);
  const routes = RouteInfo.array().safeParse((ex.json as { data?: { routes?: unknown } }).data?.routes);
  ctx.require(routes.success, {
    expected: `GET ${BASE_PATH}: data.routes is a list of RouteInfo {method, path, purpose, auth}`,
    observed:
      routes.error?.issues
        .slice(0, 3)
        .map((i) => `${i.path.join('.')}: ${i.message}`)
        .join('; ') ?? '',
    exchange: ex,
  });
  return { ex, routes: routes.data };
}

export const routeKey = (r: { method: string; path: string }) => `${r.method.toUpperCase()} ${r.path}`;
