// "Meta: at | string, date-time | yes": what the time means is not shown, but it is one service's time of the
// answer. The kit cannot compare it with its own clock (a sandbox's clock may be moved on purpose, a replay may
// repeat its original time), so it compares answers with one another: answers that arrived close together state
// times close together. A route whose answers sit hours away from their neighbours' writes another clock (local
// time labelled UTC, a zone applied twice) where the rest of the service writes the real one.
import type { Exchange } from '../client/http-client.ts';
import { routeOf } from '../rules/exchange-scope.ts';
import { type CheckContext, defineCheck } from '../runner/check.ts';

/** How far a route's answers may sit from their neighbours' (replicas' clocks, a slow answer): an hour. */
export const META_AT_SPREAD_MS = 3_600_000;
const DATE_TIME = /^\d{4}-\d{2}-\d{2}[Tt ]\d{2}:\d{2}/;
/** Neighbours compared on each side, in the order answers arrived (answers of other routes only). */
const NEIGHBOURS = 12;

type Stamped = { ex: Exchange; group: string; at: number };

const median = (xs: readonly number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  const mid = Math.floor(s.length / 2);
  return s.length % 2 ? (s[mid] as number) : ((s[mid - 1] as number) + (s[mid] as number)) / 2;
};

/**
 * Each group's median distance (ms) from the answers of other groups that arrived around its own answers,
 * leaving the `apart` groups out as neighbours.
 * @example groupDrift([{ group: 'a', at: 0 }, { group: 'b', at: 5 }, { group: 'a', at: 10 }]).get('b') // 0
 */
export function groupDrift(
  stamped: readonly Pick<Stamped, 'group' | 'at'>[],
  apart: ReadonlySet<string> = new Set(),
): Map<string, number> {
  const drift = new Map<string, number[]>();
  const other = (s: Pick<Stamped, 'group'> | undefined, group: string) =>
    !!s && s.group !== group && !apart.has(s.group);
  stamped.forEach((s, i) => {
    const near: number[] = [];
    for (let j = i - 1; j >= 0 && near.length < NEIGHBOURS; j--)
      if (other(stamped[j], s.group)) near.push(stamped[j]?.at as number);
    for (let j = i + 1; j < stamped.length && near.length < 2 * NEIGHBOURS; j++)
      if (other(stamped[j], s.group)) near.push(stamped[j]?.at as number);
    if (near.length) drift.set(s.group, [...(drift.get(s.group) ?? []), s.at - median(near)]);
  });
  return new Map([...drift].map(([g, ds]) => [g, median(ds)]));
}

/**
 * The groups whose times sit apart from the rest, with their drift: the farthest one is set apart and the rest
 * measured again without it (an odd route pulls its neighbours' medians too), until every other group agrees.
 * @example groupsApart(threeRoutesOneFiveHoursBehind) // Map { 'c' => -18000000 }
 */
export function groupsApart(stamped: readonly Pick<Stamped, 'group' | 'at'>[]): Map<string, number> {
  const apart = new Set<string>();
  for (;;) {
    const drift = [...groupDrift(stamped, apart)].filter(([g]) => !apart.has(g));
    const worst = drift.reduce<[string, number] | undefined>(
      (w, d) => (Math.abs(d[1]) > Math.abs(w?.[1] ?? 0) ? d : w),
      undefined,
    );
    if (!worst || Math.abs(worst[1]) <= META_AT_SPREAD_MS || apart.size + 1 >= drift.length) break;
    apart.add(worst[0]);
  }
  const drift = groupDrift(stamped, apart);
  return new Map([...apart].map((g) => [g, drift.get(g) ?? 0]));
}

export const metaAtTogether = defineCheck({
  name: 'envelope.meta-at-together',
  title:
    'answers that arrived close together state meta.at times close together (within an hour): no route writes another clock than the rest of the service (local time labelled UTC)',
  severity: 'SHOULD',
  section: 'Meta',
  tags: ['envelope', 'meta'],
  mutating: false,
  judgesRun: true,
  async run(ctx: CheckContext) {
    const bases = [ctx.target.baseUrl, ...(ctx.target.altBaseUrl ? [ctx.target.altBaseUrl] : [])];
    const stamped: Stamped[] = ctx.exchanges().flatMap(({ ex }) => {
      const meta = (ex.json as { meta?: { at?: unknown; replayed?: unknown } } | undefined)?.meta;
      // A replay may state its original answer's time ("the same response again").
      // A date-time with its time of day: a malformed value (a date alone) is envelope.meta-fields' to judge.
      if (typeof meta?.at !== 'string' || meta.replayed === true || !DATE_TIME.test(meta.at)) return [];
      const at = Date.parse(meta.at);
      if (Number.isNaN(at)) return [];
      const route = routeOf(ex, bases);
      const group = `${ex.method} ${route?.path ?? new URL(ex.url).pathname}`;
      return [{ ex, group, at }];
    });
    const groups = new Set(stamped.map((s) => s.group));
    if (groups.size < 3) ctx.skip(`meta.at read on ${groups.size} route(s): too few to compare with one another`);
    const off = [...groupsApart(stamped)];
    // Most routes apart means no common clock: judged against a majority only.
    if (off.length * 2 > groups.size)
      ctx.skip('meta.at times spread over hours on most routes: no common clock to compare with');
    ctx.note(`meta.at of ${stamped.length} answers on ${groups.size} routes compared with their neighbours'`);
    for (const [group, d] of off)
      ctx.expect.that(false, {
        expected: `${group}: meta.at within an hour of the answers that arrived around it`,
        observed: `${(Math.abs(d) / 3_600_000).toFixed(1)} h ${d > 0 ? 'ahead of' : 'behind'} its neighbours' meta.at (median)`,
        exchange: stamped.find((s) => s.group === group)?.ex,
      });
  },
});
