import { must } from '../lib/invariant.ts';
import { type Chain, findChains, type Link } from './attempts.ts';
import { positionsDoNotGrow, waitsDoNotGrow } from './growth-trend.ts';
import type { ClientBucket } from './observation.ts';
import { type ClientRule, type Evidence, evidence, verdict } from './rule.ts';
import {
  backoff,
  firstCall,
  growthMin,
  honoured,
  IMMEDIATE_MS,
  median,
  ownWaitsByPosition,
  positionDiffs,
  positionMedians,
  SAME_WAIT_MS,
  SPREAD_MIN_MS,
  sequenceSpread,
  spreadOfDiffs,
} from './wait-positions.ts';

export { firstCall, RETRY_AFTER_SLACK_MS } from './wait-positions.ts';

/** The wait rules: growth and spread of a client's retry waits, judged per client over its retry sequences. */
export const growingWaits: ClientRule = {
  id: 'retry.growing-waits',
  severity: 'MUST',
  title: 'Waits between retries of one operation grow',
  section: 'Limits',
  sentence: 'Clients retry with growing intervals and slight random spread.',
  evaluate({ buckets }) {
    const bad: Evidence[] = [];
    const good: Evidence[] = [];
    const undecided: string[] = [];
    for (const b of buckets)
      judgeGrowth(
        b,
        findChains(b).filter((c) => !c.polling),
        bad,
        good,
        undecided,
      );
    return verdict(
      bad,
      good,
      'pairs of consecutive waits',
      undecided.length
        ? `undecided: only shorter waits after longer ones, which random spread may draw (${undecided.slice(0, 5).join('; ')})`
        : 'no operation retried twice yet (two waits are needed)',
    );
  },
};

/**
 * Growth of one client's waits. A schedule with random spread (full or decorrelated jitter) may draw a
 * shorter wait after a longer one, so one shorter wait proves nothing; what does: the same wait again
 * (two consecutive waits within growthMin of each other, which random draws seldom give: for a client
 * with shown spread, or a single sequence whose spread is unknown, only when most of its pairs are
 * such), or, for a client shown to have little spread or none (same-position waits of several sequences
 * within SPREAD_MIN_MS), median waits by position that do not grow; for a randomly spread client, a trend
 * over all its sequences that does not grow (growth-trend.ts). A wait that grew by growthMin or more
 * passes; a shorter wait after a longer one alone, nothing.
 */
function judgeGrowth(b: ClientBucket, chains: Chain[], bad: Evidence[], good: Evidence[], undecided: string[]) {
  const pairs: { chain: Chain; a: Link & { waitMs: number }; b: Link & { waitMs: number } }[] = [];
  for (const chain of chains)
    for (let i = 1; i < chain.links.length; i++) {
      const x = must(chain.links[i - 1], 'a link index lies inside the chain');
      const y = must(chain.links[i], 'a link index lies inside the chain');
      // Unanswered attempts have no wait; a wait the server set (Retry-After) is not the client's choice.
      if (backoff(x) && backoff(y)) pairs.push({ chain, a: x, b: y });
    }
  if (!pairs.length) return;
  const spread = sequenceSpread(chains);
  const noSpread = spread?.noSpread === true;
  const shownSpread = spread !== undefined && spread.median > SPREAD_MIN_MS;
  const e = (p: (typeof pairs)[number], note: string) =>
    evidence(p.chain.bucket, [p.a.prev.requestId, p.a.next.requestId, p.b.next.requestId], p.a.prev.at, note, [
      p.a.waitMs,
      p.b.waitMs,
    ]);
  // Little spread or none (several sequences whose same-position waits differ by less than SPREAD_MIN_MS):
  // the client's waits are its schedule; judge that schedule by position (medians, so neither one delayed
  // call nor one pair its slight jitter drew close decides: resilience4j at x1.2 with 10 % spread drew
  // one pair within 5 % now and then).
  if (noSpread || (spread !== undefined && !shownSpread)) {
    const byPos = positionMedians(chains);
    for (let k = 1; k < byPos.length; k++) {
      const [x, y] = [byPos[k - 1], byPos[k]];
      if (x === undefined || y === undefined) continue;
      const first = must(pairs[0], 'pairs is not empty');
      if (y >= x + growthMin(x))
        good.push(e(first, `wait ${k + 1} (median ${Math.round(y)} ms) grew from wait ${k} (${Math.round(x)} ms)`));
      else
        bad.push(
          evidence(
            b,
            chains.map((c) => firstCall(c).requestId).slice(0, 5),
            firstCall(must(chains[0], 'chains are not empty')).at,
            `the schedule does not grow: wait ${k} is ${Math.round(x)} ms, wait ${k + 1} ${Math.round(y)} ms (medians over ${chains.length} retry sequences without spread)`,
            [x, y],
          ),
        );
    }
    return;
  }
  // A randomly spread client: its waits over all sequences at once, when there are enough to tell.
  const own = pairs.filter((p) => !honoured(p.a) && !honoured(p.b));
  const trend = waitsDoNotGrow(
    own.map((p) => [p.a.waitMs, p.b.waitMs] as const),
    new Set(own.map((p) => p.chain)).size,
  );
  if (trend) {
    const first = must(own[0], 'a trend needs pairs');
    bad.push(
      e(
        first,
        `the waits do not grow: over ${trend.pairs} pairs of waits of ${new Set(own.map((p) => p.chain)).size} retry sequences, each wait is on average ${trend.meanRatio.toFixed(2)} times the one before`,
      ),
    );
    return;
  }
  // The mean wait by position over the same sequences: one wide range drawn from at every retry shows there.
  const ownChains = [...new Set(own.map((p) => p.chain))];
  const byPosition = ownWaitsByPosition(ownChains);
  const positions = positionsDoNotGrow(byPosition, ownChains.length);
  if (positions && own[0]) {
    bad.push(
      e(
        own[0],
        `the waits do not grow: the mean wait by retry (${byPosition
          .filter((w) => w.length >= 3)
          .map((w) => `${Math.round(w.reduce((x, y) => x + y, 0) / w.length)} ms`)
          .join(', ')}, over ${ownChains.length} retry sequences) grows by ${positions.growth.toFixed(2)} per retry`,
      ),
    );
    return;
  }
  // Two waits after an honoured Retry-After are its length plus the client's draw: equal ones are the server's doing.
  const flat = pairs.filter(
    (p) =>
      !honoured(p.a) &&
      !honoured(p.b) &&
      ((p.a.waitMs < IMMEDIATE_MS && p.b.waitMs < IMMEDIATE_MS) ||
        Math.abs(p.b.waitMs - p.a.waitMs) < growthMin(p.a.waitMs)),
  );
  // A randomly spread client draws an equal pair now and then; only when most pairs are equal is it the
  // schedule. So is a client whose spread is unknown (a single retry sequence, nothing to compare it
  // with): Sidekiq's 15 + rand(10) s, then 16 + rand(10) * 2 s draws the same whole second now and then,
  // and the wait after grows. (A client shown to have little spread or none is judged by position above.)
  const flatIsSchedule = flat.length * 2 > pairs.length;
  for (const p of pairs) {
    if (flat.includes(p)) {
      if (flatIsSchedule)
        bad.push(e(p, `the wait did not grow: ${Math.round(p.a.waitMs)} ms, then ${Math.round(p.b.waitMs)} ms`));
    } else if (p.b.waitMs >= p.a.waitMs + growthMin(p.a.waitMs)) good.push(e(p, 'the wait grew'));
    else undecided.push(`${Math.round(p.a.waitMs)} ms, then ${Math.round(p.b.waitMs)} ms`);
  }
}

export const spreadWaits: ClientRule = {
  id: 'retry.spread',
  severity: 'SHOULD',
  title: 'Retry waits carry a random spread (jitter)',
  section: 'Limits',
  sentence: 'Clients retry with growing intervals and slight random spread.',
  evaluate({ buckets }) {
    const bad: Evidence[] = [];
    const good: Evidence[] = [];
    const undecided: string[] = [];
    for (const b of buckets) {
      // Same-position waits of different operations: without jitter every client retries in lockstep.
      // The median difference decides, so one delayed call (measurement noise) does not.
      const chains = findChains(b)
        .filter((c) => !c.polling && c.links.some(backoff))
        .slice(-20);
      const diffs: number[] = [];
      const byPosition = new Map<number, number[]>();
      for (let i = 0; i < chains.length; i++)
        for (let j = i + 1; j < chains.length; j++)
          for (const [k, d] of positionDiffs(
            must(chains[i], 'i < chains.length'),
            must(chains[j], 'j < chains.length'),
          )) {
            diffs.push(d);
            byPosition.set(k, [...(byPosition.get(k) ?? []), d]);
          }
      if (!diffs.length) continue;
      const { median: overall, noSpread: flat } = spreadOfDiffs(diffs);
      // A schedule may start its jitter at a later retry (Python's `retry`: a fixed first wait, then drawn
      // ones): a position of three or more sequences whose waits clearly differ shows the spread, whatever
      // the fixed positions add to the differences in all.
      const spreadAt = [...byPosition].find(([, d]) => d.length >= 3 && median(d) > SPREAD_MIN_MS);
      const spreadMs = spreadAt ? median(spreadAt[1]) : overall;
      // And "no spread" holds only where every such position looks alike, not where a fixed first wait's
      // zero differences outnumber a drawn wait's: three draws from 250 ms fall within 40 ms now and then.
      const flatEverywhere = [...byPosition.values()].every((d) => d.length < 3 || median(d) <= SAME_WAIT_MS);
      const noSpread = !spreadAt && flat && flatEverywhere;
      const waits = chains.map((c) => c.links.filter(backoff).map((l) => Math.round(l.waitMs)));
      const e = (note: string) =>
        evidence(
          b,
          chains.map((c) => firstCall(c).requestId),
          firstCall(must(chains[0], 'diffs come from at least two chains')).at,
          `${note} (${chains.length} retry sequences, waits ${waits.map((w) => `[${w.join(', ')}]`).join(' ')})`,
        );
      if (spreadAt)
        good.push(e(`waits ${spreadAt[0] + 1} of the sequences differ by ${Math.round(spreadMs)} ms (median): spread`));
      else if (overall > SPREAD_MIN_MS)
        good.push(e(`same-position waits differ by ${Math.round(overall)} ms (median): spread`));
      else if (noSpread)
        bad.push(e(`same-position waits differ by ${Math.round(overall)} ms (median): no random spread`));
      else
        undecided.push(
          `${b.client} @ ${b.tenant}: ${diffs.length} differences, median ${Math.round(overall)} ms, waits ${waits.map((w) => `[${w.join(', ')}]`).join(' ')}`,
        );
    }
    return verdict(
      bad,
      good,
      'clients with several retry sequences',
      undecided.length
        ? `undecided (${undecided.join('; ')}): neither clearly spread nor clearly the same`
        : 'fewer than two retry sequences with backoff waits seen yet',
    );
  },
};
