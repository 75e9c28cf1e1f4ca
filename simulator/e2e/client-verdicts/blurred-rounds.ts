import { monitorEventLoopDelay } from 'node:perf_hooks';
import { GROWTH_MIN_MS } from '../../client-rules/rules-waits.ts';

/**
 * The rules judged on the waits between a client's calls. On a machine so busy that this process's
 * timers fire late, a client's waits are not what it meant (two equal waits of 200 ms come out as 230
 * and 480 ms: they grew), so a verdict on them says nothing about the rule.
 */
export const TIMING_RULES: ReadonlySet<string> = new Set([
  'retry.growing-waits',
  'retry.spread',
  'retry.respects-retry-after',
]);

/** How late a timer may fire before the waits of a round are blurred: the least growth the rules count. */
const BLUR_MS = GROWTH_MIN_MS;
const ROUNDS = 3;

export interface Round<T> {
  value: T;
  /** The worst event-loop delay seen during the round, ms. */
  worstDelayMs: number;
}

/**
 * Runs a round of a timing-judged client while watching this process's event-loop delay, and runs it
 * again (at most three rounds) only when its verdict was not the expected one AND the round was
 * blurred (a timer fired later than the rules' tolerance). A wrong verdict in a round that was not
 * blurred is returned as it is, so the test fails; `skip` says why when every round was blurred.
 * @example const r = await judgedInClearRounds(() => runClient(), (v) => same(v, expected));
 */
export async function judgedInClearRounds<T>(
  round: () => Promise<T>,
  expected: (value: T) => boolean,
): Promise<{ value: T; skip?: string }> {
  let last: Round<T> | undefined;
  for (let i = 1; i <= ROUNDS; i++) {
    const delay = monitorEventLoopDelay({ resolution: 5 });
    delay.enable();
    let value: T;
    try {
      value = await round();
    } finally {
      delay.disable();
    }
    last = { value, worstDelayMs: delay.max / 1e6 };
    if (expected(value) || last.worstDelayMs <= BLUR_MS) return { value };
  }
  const { value, worstDelayMs } = last as Round<T>;
  return {
    value,
    skip: `this process was starved: its timers fired up to ${Math.round(worstDelayMs)} ms late in each of ${ROUNDS} rounds (the rules count ${BLUR_MS} ms), so the client's waits were not the ones it meant`,
  };
}
