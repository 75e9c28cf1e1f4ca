import { BASE_PATH } from '../../simulator/contract/versions.ts';
import { documentOf, documentPaths } from '../checks/support/openapi.ts';
import type { Exchange, KitClient } from '../client/http-client.ts';
import { interfaceRoutes } from '../rules/interface-routes.ts';

/** What the first two public calls showed about a target, before any check runs. */
export type Identity =
  | { describes: true; selfDescription: Exchange; openApi: Exchange; serviceVersionRefused: boolean }
  | { describes: false; reason: string };

const interfaceKeys = () => new Set(interfaceRoutes().map((r) => `${r.method} ${r.path}`));

/** A self-description: 200, {ok: true, data: {routes: [...]}} naming at least one interface route. */
function selfDescribes(ex: Exchange): boolean {
  const routes = (ex.json as { ok?: unknown; data?: { routes?: unknown } } | undefined)?.data?.routes;
  if (ex.status !== 200 || !Array.isArray(routes)) return false;
  const keys = interfaceKeys();
  return routes.some((r: { method?: unknown; path?: unknown }) => {
    const path = typeof r?.path === 'string' ? r.path : '';
    const method = typeof r?.method === 'string' ? r.method.toUpperCase() : '';
    return keys.has(`${method} ${path}`) || keys.has(`${method} ${BASE_PATH}${path}`);
  });
}

/** An OpenAPI document (an `openapi` version and `paths`) documenting at least one interface route. */
function documents(ex: Exchange): boolean {
  const doc = documentOf(ex.json) as { openapi?: unknown; paths?: unknown } | undefined;
  if (ex.status !== 200 || typeof doc?.openapi !== 'string' || typeof doc.paths !== 'object' || doc.paths === null)
    return false;
  const keys = interfaceKeys();
  return documentPaths(doc).some(({ method, path }) => keys.has(`${method} ${path}`));
}

const what = (ex: Exchange) =>
  `${ex.status}${ex.json === undefined ? (ex.text ? ' (not JSON)' : ' (empty)') : ''}${ex.bodyCappedAt ? ` (cut at ${ex.bodyCappedAt} bytes)` : ''}`;

/**
 * Whether `baseUrl` serves this interface: its self-description or its OpenAPI document names the
 * interface's routes. Tried with the client's default headers (Service-Version) and, when that fails,
 * without them: a deployment refusing Service-Version is judged (versions.service-version-current),
 * not mistaken for another service.
 * @example const id = await identify(client, 'https://staging.example'); if (!id.describes) console.error(id.reason);
 */
export async function identify(client: KitClient, baseUrl: string): Promise<Identity> {
  const read = (omitDefaultHeaders: boolean) => {
    const get = (path: string) => client.send({ method: 'GET', url: `${baseUrl}${path}`, omitDefaultHeaders });
    return Promise.all([get(BASE_PATH), get(`${BASE_PATH}/openapi.json`)]);
  };
  const [self, doc] = await read(false);
  if (selfDescribes(self) || documents(doc))
    return { describes: true, selfDescription: self, openApi: doc, serviceVersionRefused: false };
  const [bareSelf, bareDoc] = await read(true);
  if (selfDescribes(bareSelf) || documents(bareDoc))
    return { describes: true, selfDescription: bareSelf, openApi: bareDoc, serviceVersionRefused: true };
  return {
    describes: false,
    reason: `${baseUrl} does not describe itself as this interface: GET ${BASE_PATH} answered ${what(self)} without a self-description naming its routes, and GET ${BASE_PATH}/openapi.json answered ${what(doc)} without an OpenAPI document naming them; check the base URL (give the address in front of ${BASE_PATH})`,
  };
}
