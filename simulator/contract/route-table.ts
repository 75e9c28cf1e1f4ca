import type { RouteDef } from './route-def.ts';
import { catalogRoutes } from './routes/catalog.ts';
import { connectionRoutes } from './routes/connections.ts';
import { eventRoutes } from './routes/events.ts';
import { discoveryRoutes } from './routes/discovery.ts';
import { CURRENT_VERSION, SUPPORTED_VERSIONS, type ApiVersion } from './versions.ts';

/** Every route of the public surface (interface endpoints plus documented simulator additions). */
/** One row of ROUTES with its literal id and schemas (what handlers are typed from). */
export type PublicRoute = (
  | typeof discoveryRoutes
  | typeof catalogRoutes
  | typeof connectionRoutes
  | typeof eventRoutes
)[number];
/** The operationId of a public route. */
export type RouteId = PublicRoute['id'];

export const ROUTES: readonly RouteDef[] = [...discoveryRoutes, ...catalogRoutes, ...connectionRoutes, ...eventRoutes];

/** Routes offered by one interface version (versions are ISO dates, so string order is time order). */
export function routesFor(version: ApiVersion = CURRENT_VERSION): RouteDef[] {
  return ROUTES.filter((r) => !r.since || r.since <= version);
}

export const ROUTE_BY_ID: ReadonlyMap<string, RouteDef> = new Map(ROUTES.map((r) => [r.id, r]));
export { SUPPORTED_VERSIONS };
