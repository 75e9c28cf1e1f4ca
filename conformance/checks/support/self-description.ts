import { RouteInfo } from '../../../simulator/contract/discovery.ts';
import { BASE_PATH } from '../../../simulator/contract/versions.ts';
import type { Exchange } from '../../client/http-client.ts';
import { interfaceRoutes } from '../../rules/interface-routes.ts';
import type { CheckContext } from '../../runner/check.ts';
import { listed } from './listed.ts';
import { publicGet } from './public-get.ts';

export const selfDescriptionExchange = (ctx: CheckContext): Promise<Exchange> => publicGet(ctx, BASE_PATH);

/** How many entries' problems are spelled out; the rest are counted ("and N more"). */
export const MAX_ROUTE_PROBLEMS = 20;

/**
 * A route path with its parameters written as OpenAPI writes them: `<name>` (shelf_router, Flask's `<int:id>`)
 * and a segment's leading `:name` (Express, Rails) become `{name}`; a colon inside a segment (a custom method,
 * `…/jobs/{id}:cancel`) stays. The interface shows no template syntax for a RouteInfo's path.
 * @example openApiTemplate('/openapi/<version>.yaml') // '/openapi/{version}.yaml'
 */
export function openApiTemplate(path: string): string {
  return path.replace(/<(?:[A-Za-z_]\w*:)?([A-Za-z_][\w-]*)>/g, '{$1}').replace(/\/:([A-Za-z_]\w*)/g, '/{$1}');
}

/**
 * Checks `routes` entry by entry, keeping the valid ones and the first MAX_ROUTE_PROBLEMS problems only: a
 * self-description of 600,000 `{}` entries (under the body cap) made a whole-array parse collect millions of
 * issues and run the kit out of memory.
 * @example parseRoutes([{ method: 'GET', path: '/x', purpose: 'p', auth: true }, {}]).problems // ['1.method: ...', ...]
 */
export function parseRoutes(raw: unknown): { routes: RouteInfo[]; problems: string[]; bad: number } {
  if (!Array.isArray(raw))
    return { routes: [], problems: [`routes: expected a list, got ${raw === null ? 'null' : typeof raw}`], bad: 1 };
  const routes: RouteInfo[] = [];
  const problems: string[] = [];
  let bad = 0;
  for (const [i, entry] of raw.entries()) {
    const r = RouteInfo.safeParse(entry);
    if (r.success) {
      routes.push({ ...r.data, path: openApiTemplate(r.data.path) });
      continue;
    }
    bad++;
    if (problems.length < MAX_ROUTE_PROBLEMS) {
      const first = r.error.issues[0];
      problems.push(`${[i, ...(first?.path ?? [])].join('.')}: ${first?.message ?? 'not a RouteInfo'}`);
    }
  }
  return { routes, problems, bad };
}

/**
 * The self-description's routes; skips when the endpoint is unavailable (reported by
 * discovery.public-endpoints) and fails when `routes` is not a list of RouteInfo.
 */
export async function requireSelfDescribedRoutes(ctx: CheckContext): Promise<{ ex: Exchange; routes: RouteInfo[] }> {
  const ex = await selfDescriptionExchange(ctx);
  if (ex.status !== 200 || ex.json === undefined)
    ctx.skip(`needs the self-description, but GET ${BASE_PATH} answered ${ex.status} (see discovery.public-endpoints)`);
  const raw = (ex.json as { data?: { routes?: unknown } }).data?.routes;
  const { routes, problems, bad } = parseRoutes(raw);
  const of = Array.isArray(raw) ? `${bad} of ${raw.length} entries are not RouteInfo: ` : '';
  ctx.require(bad === 0, {
    expected: `GET ${BASE_PATH}: data.routes is a list of RouteInfo {method, path, purpose, auth}`,
    observed: `${of}${problems.slice(0, 3).join('; ')}${bad > 3 ? `; and ${bad - 3} more` : ''}`,
    exchange: ex,
  });
  return { ex, routes };
}

/**
 * A route as METHOD and path, its path parameters written alike whatever the router's spelling ({id},
 * or a whole segment :id or <id>, so a custom method's `:redeliver` stays) and name: the self-description's path is a string whose format the interface does not show.
 * @example routeKey({ method: 'delete', path: '/hooks/:hookId' }) // 'DELETE /hooks/{}'
 */
export const routeKey = (r: { method: string; path: string }) =>
  `${r.method.toUpperCase()} ${r.path.replace(/\{[^}/]*\}|(?<=\/):[A-Za-z_]\w*(?=\/|$)|(?<=\/)<[^>/]*>(?=\/|$)/g, '{}')}`;

/**
 * The self-description read by a client that sends its credentials (a public route called with a token, as
 * a client that adds them to every call does) still lists every endpoint of the interface, with its auth flag.
 * @example if (ctx.target.hasToken) await judgeListedWithCredentials(ctx);
 */
export async function judgeListedWithCredentials(ctx: CheckContext): Promise<void> {
  const ex = await ctx.call('GET', BASE_PATH);
  const raw = (ex.json as { data?: { routes?: unknown } } | undefined)?.data?.routes;
  if (ex.status !== 200 || !Array.isArray(raw)) {
    ctx.note(
      `GET ${BASE_PATH} with credentials answered ${ex.status}${Array.isArray(raw) ? '' : ' without routes'}: not judged`,
    );
    return;
  }
  const byKey = new Map(parseRoutes(raw).routes.map((r) => [routeKey(r), r]));
  const missing = interfaceRoutes()
    .map(routeKey)
    .filter((k) => !byKey.has(k));
  ctx.expect.that(missing.length === 0, {
    expected: `GET ${BASE_PATH} read with credentials lists every endpoint of the interface, as the anonymous read does`,
    observed: `not listed: ${listed(missing, 8, ', ')}`,
    exchange: ex,
  });
  // And describes them alike: who calls does not change whether an endpoint needs authentication.
  const wrong = interfaceRoutes().filter((r) => {
    const shown = byKey.get(routeKey(r));
    return shown !== undefined && shown.auth !== r.auth;
  });
  ctx.expect.that(wrong.length === 0, {
    expected: `GET ${BASE_PATH} read with credentials gives each endpoint the interface's auth flag`,
    observed: `other auth flags for ${listed(
      wrong.map((r) => `${routeKey(r)} (auth ${String(byKey.get(routeKey(r))?.auth)})`),
      6,
      ', ',
    )}`,
    exchange: ex,
  });
}
