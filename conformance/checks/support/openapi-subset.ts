// The part of a deployment's openapi.json the request judges compile: its interface paths (and components),
// not the whole document. A 1.9 MB document of 30,000 extra paths, cloned whole into each Ajv, grew the kit
// by hundreds of MB; the paths no interface route names are never judged, so they are not copied.
import { interfaceRoutes } from '../../rules/interface-routes.ts';
import { type OpenApiLike, operationLocation } from './openapi.ts';

/**
 * A copy of `doc` holding only the path items the interface's routes resolve to (their keys unchanged, so JSON
 * pointers into `doc` still stand) and everything outside `paths` (components, servers); a fresh copy each
 * call, so an Ajv may keep it.
 * @example ajv.addSchema(interfaceSubset(doc) as object, ID)
 */
export function interfaceSubset(doc: OpenApiLike): OpenApiLike {
  const keep = new Set<string>();
  for (const route of interfaceRoutes()) {
    const loc = operationLocation(doc, route.method, route.path);
    if (!loc) continue;
    for (const at of [loc.at, loc.itemAt]) if (at[0] === 'paths' && at[1] !== undefined) keep.add(at[1]);
  }
  const paths = doc.paths ?? {};
  const { paths: _all, ...rest } = doc;
  const subset = { ...rest, paths: Object.fromEntries([...keep].filter((k) => k in paths).map((k) => [k, paths[k]])) };
  return structuredClone(subset) as OpenApiLike;
}
