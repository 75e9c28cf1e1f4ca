// The values the catalog filters are asked with, chosen from what the lists show: each value of a filter (the
// rarest first), and combinations where a dropped filter shows (catalog.filters).

/** A catalog entry as listed. */
export type Item = Record<string, unknown>;

/** At most this many values of one filter are asked (a catalog of hundreds stays a few dozen calls). */
const FILTER_VALUES = 24;

/** The values of a field among the entries, the least common first (a filter on it must narrow the list). */
export function valuesOf(items: Item[], pick: (i: Item) => unknown[]): string[] {
  const tally = new Map<string, number>();
  for (const i of items) for (const v of pick(i)) if (typeof v === 'string') tally.set(v, (tally.get(v) ?? 0) + 1);
  return [...tally.entries()]
    .sort((a, b) => a[1] - b[1])
    .slice(0, FILTER_VALUES)
    .map(([v]) => v);
}

/** The least common value of a field among the entries: a filter on it must narrow the list. */
export function rareValue(items: Item[], pick: (i: Item) => unknown[]): string | undefined {
  const tally = new Map<string, number>();
  for (const i of items) for (const v of pick(i)) if (typeof v === 'string') tally.set(v, (tally.get(v) ?? 0) + 1);
  return [...tally.entries()].sort((a, b) => a[1] - b[1])[0]?.[0];
}

/**
 * Values of two fields whose entries in common are fewer than the entries of the second value alone: a
 * deployment dropping the first filter beside the second is seen (and, swapped, dropping the second).
 */
export function narrowingPair(items: Item[], pick1: (i: Item) => unknown[], pick2: (i: Item) => unknown[]) {
  const count = (f: (i: Item) => boolean) => items.filter(f).length;
  for (const item of items)
    for (const v1 of pick1(item))
      for (const v2 of pick2(item)) {
        if (typeof v1 !== 'string' || typeof v2 !== 'string') continue;
        const both = count((i) => pick1(i).includes(v1) && pick2(i).includes(v2));
        if (both < count((i) => pick2(i).includes(v2))) return [v1, v2] as const;
      }
  return undefined;
}

/**
 * Values of every filter where the entries matching all of them are fewer than those matching all but the
 * `left`-th (the others taken from one entry, the `left`-th any value the list shows, so all together may match
 * nothing): a deployment dropping that filter beside the others is seen.
 * @example narrowingAll(connectors, [category, providerId, capability], 0) // ['payments', 'prov_a', 'refunds']
 */
export function narrowingAll(items: Item[], picks: ((i: Item) => unknown[])[], left: number): string[] | undefined {
  const count = (values: string[], skip?: number) =>
    items.filter((i) => picks.every((pick, k) => k === skip || pick(i).includes(values[k]))).length;
  const shown = (pick: (i: Item) => unknown[]) =>
    [...new Set(items.flatMap(pick))].filter((v): v is string => typeof v === 'string');
  const options = (item: Item) => picks.map((pick, k) => (k === left ? shown(pick) : pick(item)));
  const combos = (item: Item) =>
    options(item).reduce<string[][]>(
      (acc, vs) => acc.flatMap((done) => vs.flatMap((v) => (typeof v === 'string' ? [[...done, v]] : []))),
      [[]],
    );
  for (const item of items) for (const values of combos(item)) if (count(values) < count(values, left)) return values;
  return undefined;
}
