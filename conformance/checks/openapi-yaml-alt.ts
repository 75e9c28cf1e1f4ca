// The same files at the alternate address ("The same interface is also offered under a second main-domain
// address"): each YAML file the deployment lists is, there too, the same description as the JSON of its
// version there (a region whose YAML build lags its JSON shows nowhere else: the main address's are judged by
// openapi.yaml-matches-json, the two addresses' JSON by base-urls.alt-identical).
import type { Exchange } from '../client/http-client.ts';
import type { CheckContext } from '../runner/check.ts';
import type { DiffEntry } from '../runner/json-diff.ts';
import { documentExchange } from './support/openapi.ts';
import { yamlAsJson } from './support/yaml-json.ts';

type File = { path: string; query?: Record<string, string> };

/** The pairs of files openapi.yaml-matches-json compares, and how a pair's files are named and diffed. */
export interface AltYamlInput {
  pairs: readonly { yaml: File; json: File; version: string }[];
  named: (f: File) => string;
  diff: (expected: unknown, observed: unknown) => DiffEntry[];
}

const readAlt = async (ctx: CheckContext, f: File): Promise<Exchange> =>
  documentExchange(
    await ctx.call('GET', f.path, { credentials: 'none', base: 'alt', ...(f.query ? { query: f.query } : {}) }),
  );

/**
 * Compares each pair at the alternate base URL, where it answers both files: value for value, as at the main one.
 * @example await yamlAtAlt(ctx, { pairs, named, diff: pointerDiff })
 */
export async function yamlAtAlt(ctx: CheckContext, { pairs, named, diff }: AltYamlInput): Promise<void> {
  if (!ctx.target.altBaseUrl) return;
  for (const pair of pairs) {
    const [yamlEx, jsonEx] = await Promise.all([readAlt(ctx, pair.yaml), readAlt(ctx, pair.json)]);
    // A file the alternate address does not answer is base-urls.alt-identical's to judge (its reads differ).
    if (yamlEx.status !== 200 || jsonEx.status !== 200 || jsonEx.json === undefined) continue;
    if (yamlEx.bodyCappedAt || jsonEx.bodyCappedAt) continue;
    const yaml = yamlAsJson(yamlEx.text);
    if (!('value' in yaml)) continue;
    const found = diff(jsonEx.json, yaml.value);
    ctx.expect.that(found.length === 0, {
      expected: `at the alternate base URL, ${named(pair.yaml)} (version ${pair.version}) is the same description as ${named(pair.json)} there, value for value`,
      observed: `differs at ${found
        .filter((d) => d.path !== '…')
        .map((d) => d.path)
        .join(', ')} (diff: JSON expected, YAML observed)`,
      exchange: yamlEx,
      diff: found,
    });
  }
}
