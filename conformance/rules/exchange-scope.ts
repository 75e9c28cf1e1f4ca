import type { RouteDef } from '../../simulator/contract/route-def.ts';
import { BASE_PATH } from '../../simulator/contract/versions.ts';
import type { Exchange } from '../client/http-client.ts';
import { interfaceRoutes } from './interface-routes.ts';

/** What a response rule knows about one exchange beyond the exchange itself. */
export interface ExchangeInfo {
  /** The interface endpoint the request addressed (method and path template matched). */
  route: RouteDef;
  /** The request carried a bearer token and a tenant header (an authenticated call). */
  authenticated: boolean;
  /** The run's secrets (token, client secret, admin token): never to appear in an answer. */
  secrets: readonly { value: string; what: string }[];
}

const templateRe = (path: string) => new RegExp(`^${path.replace(/\{[^}]+\}/g, '[^/]+')}$`);
let compiled: { route: RouteDef; re: RegExp }[] | undefined;

/**
 * The interface route an exchange addressed, or undefined (control plane, OAuth, unknown paths).
 * @example routeOf(ex, ['http://127.0.0.1:4010'])?.id // 'listProviders' for GET …/api/public/v1/providers?category=pos
 */
export function routeOf(ex: Exchange, bases: readonly string[]): RouteDef | undefined {
  // Several rules ask for every exchange of the run: the answer is remembered per exchange and bases.
  const key = bases.join(' ');
  const seen = routes.get(ex);
  if (seen && seen.key === key) return seen.route;
  const route = findRoute(ex, bases);
  routes.set(ex, { key, route });
  return route;
}

const routes = new WeakMap<Exchange, { key: string; route: RouteDef | undefined }>();

function findRoute(ex: Exchange, bases: readonly string[]): RouteDef | undefined {
  const base = bases.find((b) => ex.url.startsWith(`${b}${BASE_PATH}`));
  if (!base) return undefined;
  // The path as sent: with a trailing slash it is another form (requests.other-forms-as-route), which a
  // deployment may answer as no route (a 404 without the route's headers), not the route itself.
  const path = new URL(ex.url).pathname;
  compiled ??= interfaceRoutes().map((route) => ({ route, re: templateRe(route.path) }));
  return compiled.find((c) => c.route.method === ex.method.toUpperCase() && c.re.test(path))?.route;
}

const header = (headers: Record<string, string>, name: string) =>
  Object.entries(headers).find(([k]) => k.toLowerCase() === name)?.[1];

/**
 * Authorization: Bearer … and x-service-tenant both sent (in any letter case).
 * @example sentCredentials(ex) // true for a call made with the run's token and tenant
 */
export function sentCredentials(ex: Exchange): boolean {
  // Every rule asks for every exchange: the answer is remembered per exchange (what was sent stays).
  let sent = credentialed.get(ex);
  if (sent === undefined) {
    sent =
      /^\s*bearer\s+\S+/i.test(header(ex.requestHeaders, 'authorization') ?? '') &&
      Boolean(header(ex.requestHeaders, 'x-service-tenant'));
    credentialed.set(ex, sent);
  }
  return sent;
}

const credentialed = new WeakMap<Exchange, boolean>();

/**
 * The answer should carry an envelope: a JSON route (not the OpenAPI document, not the stream) that
 * answered with a body; on the other routes only error answers do.
 * @example carriesEnvelope(streamExchange, route) // false: an event stream has no envelope
 */
export function carriesEnvelope(ex: Exchange, route: RouteDef): boolean {
  if ((route.kind ?? 'json') !== 'json') return ex.status >= 400 && ex.text !== '';
  return ex.status >= 200 && ex.text !== '' && ex.status !== 204;
}
