// The description's files per version (GET openapi.json: "also offered as downloadable JSON and YAML files per
// version"), beyond their YAML matching their JSON (openapi-yaml.ts): the current version's own file describes
// what openapi.json does, and a download's file name names the version it holds.
import { BASE_PATH, CURRENT_VERSION, SUPPORTED_VERSIONS } from '../../simulator/contract/versions.ts';
import type { Exchange } from '../client/http-client.ts';
import type { CheckContext } from '../runner/check.ts';
import type { DiffEntry } from '../runner/json-diff.ts';
import type { YamlPair } from './openapi-yaml.ts';

const OPENAPI_JSON = `${BASE_PATH}/openapi.json`;

/**
 * A download's file name (Content-Disposition), where it names a published version, names the version asked
 * for: a file saved as another version's description misleads every client that keeps it; where it has an
 * extension, it is the format held.
 */
export function fileNamesVersion(ctx: CheckContext, ex: Exchange, version: string, format?: 'json' | 'yaml') {
  const disposition = ex.headers['content-disposition'];
  const name = disposition && /filename\*?=(?:UTF-8'')?"?([^";]+)/i.exec(disposition)?.[1];
  // Its extension names the format it holds: the JSON file saved as .yaml, or the YAML one as .json (YAML may be
  // written in JSON's syntax, so only a .json name on a body that is not JSON counts there).
  const extension = name && /\.(json|ya?ml)$/i.exec(name.trim())?.[1]?.toLowerCase();
  const wrong =
    extension &&
    ((format === 'json' && extension !== 'json') ||
      (format === 'yaml' && extension === 'json' && ex.json === undefined));
  ctx.expect.that(!wrong, {
    expected: `the ${format?.toUpperCase()} file is offered under a name of its format ("downloadable JSON and YAML files")`,
    observed: `Content-Disposition names ${name}`,
    exchange: ex,
  });
  const named = name ? SUPPORTED_VERSIONS.find((v) => name.includes(v)) : undefined;
  if (!name || !named) return;
  ctx.expect.that(named === version, {
    expected: `the file of version ${version} is offered under a name of that version ("downloadable JSON and YAML files per version")`,
    observed: `Content-Disposition names ${name}`,
    exchange: ex,
  });
}

/**
 * The current version's own JSON file (not openapi.json itself) describes what openapi.json does: the same
 * paths and components ("the description is also offered as downloadable JSON and YAML files per version").
 * Its servers and info may differ (a file written for download names its own). Each file once.
 */
export function sameAsServed(
  ctx: CheckContext,
  o: {
    doc: unknown;
    pair: YamlPair;
    jsonEx: Exchange;
    compared: Set<string>;
    diff: (expected: unknown, observed: unknown) => DiffEntry[];
    named: (f: { path: string; query?: Record<string, string> }) => string;
  },
) {
  const { doc, pair, jsonEx, compared, named } = o;
  if (pair.version !== CURRENT_VERSION || (pair.json.path === OPENAPI_JSON && !pair.json.query)) return;
  if (compared.has(named(pair.json))) return;
  compared.add(named(pair.json));
  // What the two describe, not how they word it: prose (descriptions, summaries, examples, x- extensions) and the
  // description's own download routes may differ between the served document and a file written for download.
  const prose = new Set(['description', 'summary', 'title', 'example', 'examples', 'externalDocs']);
  const plain = (v: unknown): unknown =>
    Array.isArray(v)
      ? v.map(plain)
      : v && typeof v === 'object'
        ? Object.fromEntries(
            Object.entries(v)
              .filter(([k]) => !prose.has(k) && !k.startsWith('x-'))
              .map(([k, x]) => [k, plain(x)]),
          )
        : v;
  const described = (d: unknown) => {
    const { paths, components } = (d ?? {}) as { paths?: Record<string, unknown>; components?: unknown };
    const routes = Object.entries(paths ?? {}).filter(([p]) => !/openapi|\.(?:json|ya?ml)$/i.test(p));
    return plain({ paths: Object.fromEntries(routes), components });
  };
  const diff = o.diff(described(doc), described(jsonEx.json));
  ctx.expect.that(diff.length === 0, {
    expected: `${named(pair.json)}, the file of the current version ${CURRENT_VERSION}, describes the same paths and components as ${OPENAPI_JSON}`,
    observed: `differs at ${diff
      .slice(0, 3)
      .map((d) => `${d.path} (openapi.json ${d.expected}, the file ${d.observed})`)
      .join('; ')}`,
    exchange: jsonEx,
  });
}
