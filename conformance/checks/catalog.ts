import { isDeepStrictEqual } from 'node:util';
import { Connector, Provider } from '../../simulator/contract/catalog.ts';
import type { Exchange } from '../client/http-client.ts';
import { routePath } from '../rules/interface-routes.ts';
import { type CheckContext, defineCheck } from '../runner/check.ts';
import { catalogReferences } from './catalog-references.ts';
import { narrowingAll, narrowingPair, rareValue, valuesOf } from './support/filter-values.ts';
import { type Place, placesWithVersion } from './support/places.ts';
import { successSamples } from './support/samples.ts';

type Item = Record<string, unknown>;
/** The list endpoints of the interface and the field of data that holds the list. */
const LISTS: Record<string, string> = {
  listProviders: 'providers',
  listConnectors: 'connectors',
  listCapabilities: 'capabilities',
  listConnections: 'connections',
};

const listOf = (ex: Exchange | undefined, field: string): Item[] | undefined => {
  const list = (ex?.json as { data?: Record<string, unknown> } | undefined)?.data?.[field];
  return Array.isArray(list) ? (list as Item[]) : undefined;
};
const pathOf = (id: string) => routePath(id);

/** MUST (list endpoints: "data: count (integer), <list>"): count is the length of the list it describes. */
export const countMatches = defineCheck({
  name: 'catalog.count-matches',
  title: 'data.count of every list answer equals the number of entries listed (filtered or not)',
  severity: 'MUST',
  section: 'GET /api/public/v1/providers',
  tags: ['catalog', 'schema'],
  mutating: false,
  requires: ['token'],
  async run(ctx) {
    for (const { route, ex } of await successSamples(ctx)) {
      const field = LISTS[route.id];
      const list = field ? listOf(ex, field) : undefined;
      if (ex.status !== 200 || !field || !list) continue;
      const count = (ex.json as { data?: { count?: unknown } }).data?.count;
      ctx.expect.that(count === list.length, {
        expected: `${route.method} ${route.path}: data.count equals the length of data.${field}`,
        observed: `data.count ${JSON.stringify(count)}, ${list.length} entries`,
        exchange: ex,
      });
    }
  },
});

/** Calls a list with one filter and judges that every entry matches and none that matches is missing. */
async function judgeFilter(
  ctx: CheckContext,
  id: string,
  query: Record<string, string>,
  matches: (i: Item) => boolean,
  all: Item[],
  place?: Place,
) {
  const path = pathOf(id);
  const field = LISTS[id] ?? id;
  const param = `${Object.keys(query).join(' and ')}${place ? ` (${place.what})` : ''}`;
  const ex = await ctx.call('GET', path, { query, ...place?.call });
  const list = listOf(ex, field);
  if (
    !ctx.expect.that(ex.status === 200 && list !== undefined, {
      expected: `GET ${path}?${new URLSearchParams(query)} answers 200 with data.${field}`,
      exchange: ex,
    }) ||
    list === undefined
  )
    return;
  const stray = list.filter((i) => !matches(i));
  ctx.expect.that(stray.length === 0, {
    expected: `GET ${path}?${new URLSearchParams(query)} lists only entries with that ${param}`,
    observed: `${stray.length} of ${list.length} do not match, e.g. ${String(JSON.stringify(stray[0])).slice(0, 160)}`,
    exchange: ex,
  });
  // A filter chooses entries, it does not rewrite them: each listed entry carries the interface's fields as
  // the unfiltered list has them (a capability filter narrowing a connector's capabilities to the one asked).
  const fields = Object.keys(RECORD[id]?.shape ?? {});
  const unfiltered = new Map(all.map((i) => [i.id, i]));
  const rewritten = list.filter((i) => {
    const whole = unfiltered.get(i.id);
    return whole !== undefined && fields.some((f) => !isDeepStrictEqual(unordered(i[f]), unordered(whole[f])));
  });
  ctx.expect.that(rewritten.length === 0, {
    expected: `GET ${path}?${new URLSearchParams(query)} lists each entry with the fields the unfiltered list gives it (${fields.join(', ')})`,
    observed: `${rewritten.length} differ, e.g. ${String(JSON.stringify(rewritten[0])).slice(0, 160)} against ${String(JSON.stringify(unfiltered.get(rewritten[0]?.id))).slice(0, 160)}`,
    exchange: ex,
  });
  const wanted = all.filter(matches).length;
  ctx.expect.that(list.length === wanted, {
    expected: `GET ${path}?${new URLSearchParams(query)} lists every matching entry of the unfiltered list (${wanted})`,
    observed: `${list.length} entries`,
    exchange: ex,
  });
  const count = (ex.json as { data?: { count?: unknown } }).data?.count;
  ctx.expect.that(count === list.length, {
    expected: `GET ${path}?${new URLSearchParams(query)}: data.count equals the entries listed`,
    observed: `data.count ${JSON.stringify(count)}, ${list.length} entries`,
    exchange: ex,
  });
}

/**
 * Calls a list with a filter value no entry has: a success is 200 with an empty list and count 0 ("Success
 * responses use status 200"; an empty list is still a list, never 204). Refusing the value (400, or 404 for
 * an identifier that names nothing) is a legal reading and passes if it comes in the failure envelope.
 */
async function judgeNoMatch(
  ctx: CheckContext,
  id: string,
  param: string,
  value?: string,
  also: Record<string, string> = {},
) {
  const path = pathOf(id);
  const field = LISTS[id] ?? id;
  const query = { ...also, [param]: value ?? `ncs-kit-none-${ctx.runId.slice(-6)}` };
  const ex = await ctx.call('GET', path, { query });
  const shown = `GET ${path}?${new URLSearchParams(query)}`;
  if (ex.status === 400 || ex.status === 404) {
    ctx.expect.that((ex.json as { ok?: unknown } | undefined)?.ok === false, {
      expected: `${shown}: a refusal of a value nothing has comes in the failure envelope`,
      exchange: ex,
    });
    return;
  }
  const list = listOf(ex, field);
  const count = (ex.json as { data?: { count?: unknown } } | undefined)?.data?.count;
  ctx.expect.that(ex.status === 200 && list !== undefined && list.length === 0 && count === 0, {
    expected: `${shown} (a value no entry has) answers 200 with an empty data.${field} and data.count 0`,
    observed: `${ex.status}${list ? `, ${list.length} entries, count ${JSON.stringify(count)}` : ', no list'}`,
    exchange: ex,
  });
}

/** A list of strings as a set of them: their order is not shown (a join may list them another way). */
const unordered = (v: unknown) => (Array.isArray(v) && v.every((x) => typeof x === 'string') ? [...v].sort() : v);
/** The interface's record of each list, for comparing a filtered entry with the same entry unfiltered. */
const RECORD: Record<string, { shape: Record<string, unknown> }> = {
  listProviders: Provider,
  listConnectors: Connector,
};

/** MUST (GET /providers, GET /connectors query parameters): the filters restrict the list, alone and together. */
export const filtersHonoured = defineCheck({
  name: 'catalog.filters',
  title:
    'category on GET /providers and capability, providerId, category on GET /connectors restrict the list to matching entries, unchanged, alone and together; a value nothing has gives 200 and an empty list',
  severity: 'MUST',
  section: 'GET /api/public/v1/connectors',
  tags: ['catalog', 'query'],
  mutating: false,
  requires: ['token'],
  async run(ctx) {
    const samples = await successSamples(ctx);
    const providers = listOf(samples.find((s) => s.route.id === 'listProviders')?.ex, 'providers') ?? [];
    const connectors = listOf(samples.find((s) => s.route.id === 'listConnectors')?.ex, 'connectors') ?? [];
    if (providers.length === 0 || connectors.length === 0)
      ctx.skip('the catalog lists no providers or connectors to filter');
    const one = (field: string) => (i: Item) => [i[field]];
    const cases: [string, string, (i: Item) => unknown[], Item[]][] = [
      ['listProviders', 'category', one('category'), providers],
      ['listConnectors', 'category', one('category'), connectors],
      ['listConnectors', 'providerId', one('providerId'), connectors],
      ['listConnectors', 'capability', (i) => (Array.isArray(i.capabilities) ? i.capabilities : []), connectors],
    ];
    // Every value the lists show (up to FILTER_VALUES per filter, the rarest first): a filter that drops some
    // entries for one value only (a capability restricted in one environment) is seen there.
    const single = cases.flatMap(([id, param, pick, all]) =>
      valuesOf(all, pick).map((value) => judgeFilter(ctx, id, { [param]: value }, (i) => pick(i).includes(value), all)),
    );
    // Filters given together restrict together: every pair of one list's filters, on values whose
    // intersection is narrower than either filter alone (so a filter dropped is seen).
    const pairs = cases.flatMap((a, i) =>
      cases
        .slice(i + 1)
        .filter((b) => b[0] === a[0])
        .map((b) => [a, b] as const),
    );
    // Each way round: values where the first filter narrows the second's list, then the other way.
    const ways = pairs.flatMap(([a, b]) => [[a, b] as const, [b, a] as const]);
    const judgedPairs = new Set<string>();
    const combined = ways.map(([[id, p1, pick1, all], [, p2, pick2]]) => {
      const both = narrowingPair(all, pick1, pick2);
      if (!both) return undefined;
      const [v1, v2] = both;
      const query = { [p1]: v1, [p2]: v2 };
      const key = `${id}?${Object.entries(query).sort().join('&')}`;
      if (judgedPairs.has(key)) return undefined;
      judgedPairs.add(key);
      return judgeFilter(ctx, id, query, (i) => pick1(i).includes(v1) && pick2(i).includes(v2), all);
    });
    // Every filter of a list at once (three on GET /connectors): values where leaving any one out lists more, so
    // a query builder that drops the third predicate is seen.
    const lists = [...new Set(cases.map(([id]) => id))].map((id) => cases.filter((c) => c[0] === id));
    const together = lists.flatMap((group) => {
      const [id, , , all] = group[0] ?? [];
      if (group.length < 3 || !id || !all) return [];
      const picks = group.map(([, , pick]) => pick);
      return group.map((_, left) => {
        const values = narrowingAll(all, picks, left);
        if (!values) return undefined;
        const query = Object.fromEntries(group.map(([, param], i) => [param, values[i] as string]));
        const key = `${id}?${Object.entries(query).sort().join('&')}`;
        if (judgedPairs.has(key)) return undefined;
        judgedPairs.add(key);
        return judgeFilter(ctx, id, query, (item) => picks.every((pick, i) => pick(item).includes(values[i])), all);
      });
    });
    const none = cases.map(([id, param]) => judgeNoMatch(ctx, id, param));
    // A value nothing has beside a real one: together they match nothing (a filter matching nothing is not dropped).
    const noneBeside = pairs.map(([[id, p1, pick1, all], [, p2]]) => {
      const real = valuesOf(all, pick1)[0];
      return real === undefined ? undefined : judgeNoMatch(ctx, id, p2, undefined, { [p1]: real });
    });
    // The second tenant's reads, the alternate address's and the earlier version's filter alike (a filter wired to
    // one tenant's settings, a gateway dropping a query parameter, an older handler reading a parameter of another
    // name), each held to its own unfiltered lists.
    // The calls already sent are in flight: their rejections are handled now (awaited below), so a
    // deployment that stops answering while the second tenant's lists are read is no unhandled rejection.
    const inFlight = Promise.all([...single, ...combined, ...together, ...none, ...noneBeside]);
    inFlight.catch(() => undefined);
    const theirs: Promise<void>[] = [];
    for (const place of await placesWithVersion(ctx)) theirs.push(...(await otherPlaceFilters(ctx, place, cases)));
    // "restricts to one category": a value is compared as it is, not as a pattern. A real value with one
    // character replaced by `_`, and `%` alone (SQL LIKE's wildcards), that no entry has, match nothing.
    const wildcards = cases.flatMap(([id, param, pick, all]) => {
      const value = rareValue(all, pick);
      const has = (v: string) => all.some((i) => pick(i).includes(v));
      const candidates = value && value.length >= 3 ? [`${value[0]}_${value.slice(2)}`, '%'] : ['%'];
      return candidates.filter((v) => !has(v)).map((v) => judgeNoMatch(ctx, id, param, v));
    });
    await Promise.all([inFlight, ...wildcards, ...theirs]);
  },
});

/**
 * The single filters, and one pair of a list's filters together, judged in another place (the second tenant, the
 * alternate address), each on its own unfiltered list.
 */
async function otherPlaceFilters(
  ctx: CheckContext,
  place: Place,
  cases: [string, string, (i: Item) => unknown[], Item[]][],
): Promise<Promise<void>[]> {
  const lists = new Map<string, Item[]>();
  for (const id of new Set(cases.map(([id]) => id))) {
    const ex = await ctx.call('GET', pathOf(id), place.call);
    lists.set(id, listOf(ex, LISTS[id] ?? id) ?? []);
  }
  const single = cases.map(([id, param, pick, mine]) => {
    const all = lists.get(id) ?? [];
    const value = rareValue(all.length ? all : mine, pick);
    return value === undefined || all.length === 0
      ? Promise.resolve()
      : judgeFilter(ctx, id, { [param]: value }, (i) => pick(i).includes(value), all, place);
  });
  // And two filters of one list together, once a list (a gateway there that takes one filter only).
  const paired = new Set<string>();
  const combined = cases.flatMap((a, k) =>
    cases.slice(k + 1).flatMap((b) => {
      const [id, p1, pick1] = a;
      const [other, p2, pick2] = b;
      const all = lists.get(id) ?? [];
      if (other !== id || paired.has(id) || !all.length) return [];
      const both = narrowingPair(all, pick1, pick2) ?? narrowingPair(all, pick2, pick1);
      if (!both) return [];
      paired.add(id);
      const [v1, v2] = narrowingPair(all, pick1, pick2) ? both : ([both[1], both[0]] as const);
      const query = { [p1]: v1, [p2]: v2 };
      return [judgeFilter(ctx, id, query, (i) => pick1(i).includes(v1) && pick2(i).includes(v2), all, place)];
    }),
  );
  return [...single, ...combined];
}

export const catalogChecks = [countMatches, filtersHonoured, catalogReferences];
