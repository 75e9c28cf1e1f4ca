// "The description is also offered as downloadable JSON and YAML files per version": where a deployment
// lists a YAML file (its paths are not shown, so only what the self-description or the document lists is
// read), it is the same description as the JSON of the same version. Nothing is guessed: a file whose
// version the kit cannot pair with a JSON of that version is not judged.
import { BASE_PATH, CURRENT_VERSION, SUPPORTED_VERSIONS } from '../../simulator/contract/versions.ts';
import type { Exchange } from '../client/http-client.ts';
import { type CheckContext, defineCheck } from '../runner/check.ts';
import type { DiffEntry } from '../runner/json-diff.ts';
import { fileNamesVersion, sameAsServed } from './openapi-version-files.ts';
import { yamlAtAlt } from './openapi-yaml-alt.ts';
import { listedFiles } from './support/file-links.ts';
import {
  deref,
  documentExchange,
  documentOf,
  type OpenApiLike,
  operationsOf,
  requireOpenApi,
} from './support/openapi.ts';
import { publicGet } from './support/public-get.ts';
import { openApiTemplate, parseRoutes, selfDescriptionExchange } from './support/self-description.ts';
import { yamlAsJson } from './support/yaml-json.ts';

export { yamlAsJson } from './support/yaml-json.ts';

const OPENAPI_JSON = `${BASE_PATH}/openapi.json`;
const YAML_FILE = /\.ya?ml$/i;
/** At most this many YAML files (and versions of them) are read: each costs two requests. */
const MAX_PAIRS = 6;
const MAX_DIFFS = 5;
/** How much of a path's purpose and summary is searched for file names. */
const MAX_TEXT = 4000;

/** One YAML file and the JSON of the same version it is compared with. */
export interface YamlPair {
  yaml: { path: string; query?: Record<string, string> };
  json: { path: string; query?: Record<string, string> };
  version: string;
}

/** An offered GET path and what names files under it: its purpose or summary, its parameters' values. */
interface Offered {
  path: string;
  text: string;
  values: Map<string, string[]>;
}

const namedVersion = (path: string) => SUPPORTED_VERSIONS.find((v) => path.includes(v));

function offeredPaths(routes: { method: string; path: string; purpose?: string }[], doc: OpenApiLike): Offered[] {
  const byPath = new Map<string, Offered>();
  // Only paths on the target itself: a listed full URL or `//host` would send the kit elsewhere.
  const onTarget = (path: string) => path.startsWith('/') && !path.startsWith('//');
  const at = (path: string) => {
    const o = byPath.get(path) ?? { path, text: '', values: new Map<string, string[]>() };
    byPath.set(path, o);
    return o;
  };
  for (const r of routes)
    if (r.method.toUpperCase() === 'GET' && onTarget(r.path)) at(r.path).text += ` ${r.purpose ?? ''}`;
  for (const { method, path, op } of operationsOf(doc)) {
    if (method !== 'GET' || !onTarget(path)) continue;
    const o = at(path);
    const { summary, description } = op as { summary?: unknown; description?: unknown };
    o.text += ` ${typeof summary === 'string' ? summary : ''} ${typeof description === 'string' ? description : ''}`;
    for (const raw of Array.isArray(op.parameters) ? op.parameters : []) {
      const p = deref(doc, raw, []).value as {
        name?: unknown;
        in?: unknown;
        schema?: { enum?: unknown; examples?: unknown };
      };
      const listedValues = [p?.schema?.enum, p?.schema?.examples].flatMap((v) => (Array.isArray(v) ? v : []));
      // Path parameters name files, query parameters versions; a header is not part of a file's address.
      if (typeof p?.name === 'string' && (p.in === 'path' || p.in === 'query')) {
        const key = `${p.in} ${p.name}`;
        o.values.set(key, [...(o.values.get(key) ?? []), ...listedValues.filter((v) => typeof v === 'string')]);
      }
    }
  }
  return [...byPath.values()];
}

const escapeRe = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** The concrete files a path offers: itself, or its one `{name}` filled with the file names it lists. */
function filesOf(o: Offered): string[] {
  const holes = o.path.match(/\{[^}]*\}/g) ?? [];
  if (holes.length === 0) return [o.path];
  const hole = holes[0];
  if (holes.length > 1 || hole === undefined) return [];
  // A bounded text: a name pattern over megabytes of a hostile purpose would backtrack for minutes.
  const names = [
    ...(o.text.slice(0, MAX_TEXT).match(/[A-Za-z0-9._-]{1,200}\.(?:ya?ml|json)\b/g) ?? []),
    ...(o.values.get(`path ${hole.slice(1, -1)}`) ?? []),
  ];
  // "Downloadable JSON and YAML files per version": a parameter naming the version of a file with its
  // extension after it (`/openapi/{version}.yaml`) is filled with the published versions.
  const perVersion =
    /version/i.test(hole) || new RegExp(`${escapeRe(hole)}\\.(?:ya?ml|json)$`).test(o.path)
      ? SUPPORTED_VERSIONS.map((v) => o.path.replace(hole, v))
      : [];
  return [
    ...new Set([...names.filter((n) => !n.includes('/')).map((n) => o.path.replace(hole, n)), ...perVersion]),
  ].slice(0, 2 * MAX_PAIRS);
}

/**
 * The YAML files the self-description and the document list, each paired with the JSON of the same
 * version: the JSON file of the same name where one is listed; else openapi.json, when the YAML names no
 * other version than the current one the kit asks for. A query parameter both documents take with
 * published versions as values (the simulator's `?version=`) pairs each further version the same way.
 * @example yamlPairs([{ method: 'GET', path: '/api/public/v1/openapi.yaml', purpose: '', auth: false }], doc) // [{ yaml: { path: '…/openapi.yaml' }, json: { path: '…/openapi.json' }, version: '2026-07-01' }]
 */
export function yamlPairs(
  routes: { method: string; path: string; purpose?: string }[],
  doc: OpenApiLike,
  listed: readonly string[] = [],
): YamlPair[] {
  const offered = offeredPaths(routes, doc);
  // Files named as values elsewhere in the two documents (a `documents.yaml` link, an `x-` list of files).
  for (const path of listed)
    if (!offered.some((o) => o.path === path)) offered.push({ path, text: '', values: new Map() });
  const files = new Set(offered.flatMap(filesOf));
  const valuesOf = (path: string) => offered.find((o) => o.path === path)?.values;
  const pairs: YamlPair[] = [];
  for (const o of offered)
    for (const path of filesOf(o).filter((f) => YAML_FILE.test(f))) {
      const sibling = path.replace(YAML_FILE, '.json');
      const version = namedVersion(path) ?? CURRENT_VERSION;
      const json = files.has(sibling) ? sibling : version === CURRENT_VERSION ? OPENAPI_JSON : undefined;
      if (!json) continue;
      pairs.push({ yaml: { path }, json: { path: json }, version });
      if (namedVersion(path)) continue;
      // Other versions of the same two files, asked for by a query parameter both list the version in.
      const jsonValues = valuesOf(json);
      for (const [key, values] of valuesOf(o.path) ?? []) {
        if (!key.startsWith('query ')) continue;
        const query = (v: string) => ({ [key.slice('query '.length)]: v });
        for (const v of SUPPORTED_VERSIONS.filter((x) => x !== CURRENT_VERSION && values.includes(x)))
          if (jsonValues?.get(key)?.includes(v))
            pairs.push({ yaml: { path, query: query(v) }, json: { path: json, query: query(v) }, version: v });
      }
    }
  const unique = new Map(pairs.map((p) => [JSON.stringify(p.yaml), p]));
  return [...unique.values()].slice(0, MAX_PAIRS);
}

const pointerPart = (k: string) => k.replace(/~/g, '~0').replace(/\//g, '~1');
const shown = (v: unknown) => {
  if (v === undefined) return '(absent)';
  const text = JSON.stringify(v) ?? String(v);
  return text.length > 80 ? `${text.slice(0, 80)}…` : text;
};

/**
 * The first differing JSON pointers of two JSON values (RFC 6901), at most `limit`, then one entry counting the rest.
 * @example pointerDiff({ a: ['x', 'y'] }, { a: ['x'] }) // [{ path: '/a/1', expected: '"y"', observed: '(absent)' }]
 */
export function pointerDiff(expected: unknown, observed: unknown, limit = MAX_DIFFS): DiffEntry[] {
  const out: DiffEntry[] = [];
  let more = 0;
  const isObject = (v: unknown): v is Record<string, unknown> =>
    typeof v === 'object' && v !== null && !Array.isArray(v);
  const walk = (a: unknown, b: unknown, at: string) => {
    if (Array.isArray(a) && Array.isArray(b)) {
      for (let i = 0; i < Math.max(a.length, b.length); i++) walk(a[i], b[i], `${at}/${i}`);
    } else if (isObject(a) && isObject(b)) {
      for (const k of new Set([...Object.keys(a), ...Object.keys(b)])) walk(a[k], b[k], `${at}/${pointerPart(k)}`);
    } else if (a !== b) {
      if (out.length < limit) out.push({ path: at || '(root)', expected: shown(a), observed: shown(b) });
      else more++;
    }
  };
  walk(expected, observed, '');
  if (more > 0) out.push({ path: '…', expected: `${more} more difference${more === 1 ? '' : 's'}`, observed: '' });
  return out;
}

/** A GET of one file as the kit reads documents: without credentials, the bare path shared with the run. */
async function read(ctx: CheckContext, file: { path: string; query?: Record<string, string> }): Promise<Exchange> {
  if (!file.query) return documentExchange(await publicGet(ctx, file.path));
  return documentExchange(await ctx.call('GET', file.path, { credentials: 'none', query: file.query }));
}

const named = (f: { path: string; query?: Record<string, string> }) =>
  `${f.path}${f.query ? `?${new URLSearchParams(f.query)}` : ''}`;

export const yamlMatchesJson = defineCheck({
  name: 'openapi.yaml-matches-json',
  title:
    'a YAML file of the description the deployment lists (self-description or openapi.json) is the same description as the JSON of the same version, at each base URL',
  severity: 'MUST',
  section: 'GET /api/public/v1/openapi.json',
  tags: ['openapi', 'discovery'],
  mutating: false,
  async run(ctx: CheckContext) {
    const { ex: docEx, doc } = await requireOpenApi(ctx);
    const described = await selfDescriptionExchange(ctx);
    const { routes } = parseRoutes((described.json as { data?: { routes?: unknown } } | undefined)?.data?.routes);
    const data = (described.json as { data?: unknown } | undefined)?.data;
    const { paths: _operations, ...rest } = doc as Record<string, unknown>;
    const listed = [...listedFiles(data, ctx.target.baseUrl), ...listedFiles(rest, ctx.target.baseUrl)].map(
      openApiTemplate,
    );
    const pairs = yamlPairs(routes, doc, listed);
    if (pairs.length === 0)
      ctx.skip(
        'neither the self-description (its routes, or a path ending .yaml or .yml among its values) nor openapi.json (its GET operations and their file names, or such a path among its values) lists a YAML file of the description (the download paths are not shown)',
      );
    const compared = new Set<string>();
    for (const pair of pairs) {
      const [yamlEx, jsonEx] = await Promise.all([
        read(ctx, pair.yaml),
        pair.json.path === OPENAPI_JSON && !pair.json.query ? Promise.resolve(docEx) : read(ctx, pair.json),
      ]);
      const what = `${named(pair.yaml)} (version ${pair.version})`;
      // A file the deployment lists itself is offered: it answers (a 429 left after the retry policy is no verdict).
      if (yamlEx.status !== 200 && yamlEx.status !== 429) {
        ctx.expect.that(false, {
          expected: `${what}, which the deployment lists, answers 200 with the description ("also offered as downloadable JSON and YAML files per version")`,
          exchange: yamlEx,
        });
        continue;
      }
      // A listed file that is not served, or a JSON that is no JSON, is another check's finding (public
      // endpoints, auth flags, openapi-valid): nothing to compare here.
      const unread = yamlEx.status !== 200 || jsonEx.status !== 200 || jsonEx.json === undefined;
      if (unread || yamlEx.bodyCappedAt || jsonEx.bodyCappedAt) {
        ctx.note(
          `${what}: not compared (answered ${yamlEx.status}, ${named(pair.json)} ${jsonEx.status}, or too large)`,
        );
        continue;
      }
      // A file of one version is that version's description: where its info.version names a published
      // version (a deployment may number its documents otherwise), it names the one asked for.
      const infoVersion = (jsonEx.json as { info?: { version?: unknown } }).info?.version;
      if (typeof infoVersion === 'string' && (SUPPORTED_VERSIONS as readonly string[]).includes(infoVersion))
        ctx.expect.that(infoVersion === pair.version, {
          expected: `${named(pair.json)} for version ${pair.version} is that version's description ("offered as downloadable JSON and YAML files per version")`,
          observed: `info.version ${infoVersion}`,
          exchange: jsonEx,
        });
      sameAsServed(ctx, { doc, pair, jsonEx, compared, diff: pointerDiff, named });
      fileNamesVersion(ctx, yamlEx, pair.version, 'yaml');
      fileNamesVersion(ctx, jsonEx, pair.version, 'json');
      const yaml = yamlAsJson(yamlEx.text);
      // The kit's own guard against alias bombs is no verdict on a file that uses anchors as YAML allows.
      if ('guard' in yaml) {
        ctx.note(`${what}: not compared (${yaml.problem})`);
        continue;
      }
      if (
        !ctx.expect.that('value' in yaml, {
          expected: `${what} is a YAML document`,
          observed: 'problem' in yaml ? yaml.problem : '',
          exchange: yamlEx,
        }) ||
        !('value' in yaml)
      )
        continue;
      const diff = pointerDiff(jsonEx.json, yaml.value);
      ctx.note(`compared ${named(pair.yaml)} with ${named(pair.json)} (version ${pair.version})`);
      ctx.expect.that(diff.length === 0, {
        expected: `${what} is the same description as ${named(pair.json)}, value for value`,
        observed: `differs at ${diff
          .filter((d) => d.path !== '…')
          .map((d) => d.path)
          .join(', ')}${diff.some((d) => d.path === '…') ? ' and more' : ''} (diff: JSON expected, YAML observed)`,
        exchange: yamlEx,
        diff,
      });
    }
    await yamlAtAlt(ctx, { pairs, named, diff: (a, b) => pointerDiff(a, b) });
    // Asked after the files of other versions, the plain description is still the current one (a cache of
    // the document keyed without the version, filled by an earlier version's request, serves that one after).
    const current = (doc as { info?: { version?: unknown } }).info?.version;
    if (!pairs.some((p) => p.version !== current) || typeof current !== 'string') return;
    // As a browser or a code generator fetches it: no credentials, no Service-Version.
    const again = await ctx.call('GET', OPENAPI_JSON, { credentials: 'none', defaultHeaders: false });
    const after = (documentOf(again.json) as { info?: { version?: unknown } } | undefined)?.info?.version;
    if (again.status === 200)
      ctx.expect.that(after === current, {
        expected: `GET ${OPENAPI_JSON}, asked again after the files of earlier versions, is still the description of ${current}`,
        observed: `info.version ${JSON.stringify(after)}`,
        exchange: again,
      });
  },
});

export const openApiYamlChecks = [yamlMatchesJson];
