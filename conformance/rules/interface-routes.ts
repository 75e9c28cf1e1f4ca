import type { RouteDef } from '../../simulator/contract/route-def.ts';
import { ROUTE_BY_ID, routesFor } from '../../simulator/contract/route-table.ts';
import { CURRENT_VERSION } from '../../simulator/contract/versions.ts';

/**
 * The endpoints the interface lists (the contract's route table without the simulator's documented
 * additions): what every deployment must offer.
 */
export function interfaceRoutes(): RouteDef[] {
  return routesFor(CURRENT_VERSION).filter((r) => !r.addition);
}

/**
 * The query parameters the interface names for a route: all of its table's, or of a sample-call route
 * ("further parameters: not shown") only those the interface shows.
 * @example interfaceQuery(auditRoute) // ['limit']
 */
export function interfaceQuery(route: RouteDef): string[] {
  const all = Object.keys(route.query?.shape ?? {});
  return route.fieldsNotShown ? all.filter((name) => route.shownQuery?.includes(name)) : all;
}

/** The interface route with this method and path template, if it is one. */
export function interfaceRoute(method: string, path: string): RouteDef | undefined {
  return interfaceRoutes().find((r) => r.method === method.toUpperCase() && r.path === path);
}

/**
 * The path template of an interface route by operationId (the kit's own ids: a missing one is a bug here).
 * @example routePath('createIdempotencyKey') // '/api/public/v1/idempotency-keys'
 */
export function routePath(id: string): string {
  const route = ROUTE_BY_ID.get(id);
  if (!route) throw new Error(`the route table has no ${id}`);
  return route.path;
}

/** A concrete path for a template: every {param} becomes a recognisable probe value. */
export function fillPath(path: string): string {
  return path.replace(/\{[^}]+\}/g, 'ncs-conformance-probe');
}

/** Runs `work` over `items`, `width` at a time (modest parallelism keeps a run fast and polite). */
export async function inBatches<T, R>(items: readonly T[], width: number, work: (item: T) => Promise<R>): Promise<R[]> {
  const out: R[] = [];
  for (let i = 0; i < items.length; i += width) out.push(...(await Promise.all(items.slice(i, i + width).map(work))));
  return out;
}
