import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { positionsDoNotGrow, waitsDoNotGrow } from './growth-trend.ts';

/** Pairs of consecutive waits of `sequences` retry sequences of three waits drawn by `wait(k, rand)`. */
function pairsOf(sequences: number, rand: () => number, wait: (k: number, r: () => number) => number) {
  const pairs: [number, number][] = [];
  for (let s = 0; s < sequences; s++) {
    const waits = [0, 1, 2].map((k) => wait(k, rand));
    for (let k = 1; k < waits.length; k++) pairs.push([waits[k - 1] ?? 0, waits[k] ?? 0]);
  }
  return pairs;
}

/** Uniform draws in [0, 1) from a seed (fast-check's doubles lean to extremes, a random source does not). */
const seeded = (seed: number) => () => {
  seed = (seed * 16807) % 2147483647;
  return (seed - 1) / 2147483646;
};

describe('waitsDoNotGrow: the trend of a jittered schedule over all its sequences', () => {
  it('finds a constant wait with jitter and shrinking waits', () => {
    expect(
      waitsDoNotGrow(
        pairsOf(5, seeded(7), (_k, r) => 1000 + 500 * r()),
        5,
      ),
    ).toBeDefined();
    expect(
      waitsDoNotGrow(
        pairsOf(5, seeded(9), (k, r) => 3000 / (k + 1) + 250 * r()),
        5,
      ),
    ).toBeDefined();
  });

  it('never judges a doubling schedule, with slight spread or full jitter (AWS), over many draws', () => {
    fc.assert(
      fc.property(fc.integer({ min: 3, max: 8 }), fc.integer({ min: 1, max: 2147483646 }), (n, seed) => {
        const rand = seeded(seed);
        expect(
          waitsDoNotGrow(
            pairsOf(n, rand, (k, r) => 500 * 2 ** k + 250 * r()),
            n,
          ),
        ).toBeUndefined();
        expect(
          waitsDoNotGrow(
            pairsOf(n, rand, (k, r) => 1000 * 2 ** k * r()),
            n,
          ),
        ).toBeUndefined();
        // resilience4j's exponential random backoff at x1.2 with 10 % randomization grows too.
        expect(
          waitsDoNotGrow(
            pairsOf(n, rand, (k, r) => 500 * 1.2 ** k * (0.9 + 0.2 * r())),
            n,
          ),
        ).toBeUndefined();
      }),
      { numRuns: 2000, seed: 4 },
    );
  });

  it('finds a constant wait with jitter over three sequences of three waits (Helidon: 200 ms, 50 ms of jitter)', () => {
    const helidon = [
      [218, 209, 157],
      [167, 153, 216],
      [171, 240, 211],
    ].flatMap(
      (w) =>
        [
          [w[0], w[1]],
          [w[1], w[2]],
        ] as [number, number][],
    );
    expect(waitsDoNotGrow(helidon, 3)).toBeDefined();
    expect(
      waitsDoNotGrow(
        pairsOf(3, seeded(11), (_k, r) => 1000 * (0.85 + 0.3 * r())),
        3,
      ),
    ).toBeDefined();
  });

  it('says nothing with too few pairs or sequences', () => {
    expect(waitsDoNotGrow([[1000, 1000]], 1)).toBeUndefined();
    expect(
      waitsDoNotGrow(
        pairsOf(2, Math.random, () => 1000),
        2,
      ),
    ).toBeUndefined();
  });
});

describe('positionsDoNotGrow: the mean wait by retry over many sequences', () => {
  /** Waits by position of `sequences` sequences of `waits` waits drawn by `wait(k, rand)`. */
  const byPosition = (
    sequences: number,
    waits: number,
    rand: () => number,
    wait: (k: number, r: () => number) => number,
  ) => Array.from({ length: waits }, (_, k) => Array.from({ length: sequences }, () => wait(k, rand)));

  it('finds one fixed range drawn from at every retry (full jitter with its cap at its base) in many draws of twenty', () => {
    let judged = 0;
    for (let seed = 1; seed <= 200; seed++)
      if (
        positionsDoNotGrow(
          byPosition(20, 3, seeded(seed), (_k, r) => 2000 * r()),
          20,
        )
      )
        judged++;
    // 86 of these 200 draws; 61 of 100 of the client kit's generator (unnamed24-probes-more.ts).
    expect(judged).toBeGreaterThan(70);
  });

  it('never judges a doubling full jitter or a slow narrow growth, and needs eight sequences', () => {
    fc.assert(
      fc.property(fc.integer({ min: 8, max: 30 }), fc.integer({ min: 1, max: 2147483646 }), (n, seed) => {
        const rand = seeded(seed);
        expect(
          positionsDoNotGrow(
            byPosition(n, 3, rand, (k, r) => 1000 * 2 ** k * r()),
            n,
          ),
        ).toBeUndefined();
        expect(
          positionsDoNotGrow(
            byPosition(n, 3, rand, (k, r) => 500 * 1.2 ** k * (0.9 + 0.2 * r())),
            n,
          ),
        ).toBeUndefined();
      }),
      { numRuns: 2000, seed: 5 },
    );
    expect(
      positionsDoNotGrow(
        byPosition(7, 3, seeded(3), () => 1000),
        7,
      ),
    ).toBeUndefined();
    expect(
      positionsDoNotGrow(
        byPosition(8, 3, seeded(3), (_k, r) => 1000 + 100 * r()),
        8,
      ),
    ).toBeDefined();
  });
});
