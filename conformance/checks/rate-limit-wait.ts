import { ERROR_TABLE } from '../../simulator/contract/errors.ts';
import { type CheckContext, defineCheck } from '../runner/check.ts';
import { burstsRateLimit, provokeRateLimit } from './support/rate-limited.ts';

/** Below this wait nothing is judged: a minute or less is a plausible wait for any window. */
const PLAUSIBLE_ANY_WINDOW_S = 60;
/** How much longer than the wait observed a Retry-After must be to read as another unit (ms: 1,000 times). */
const OVERSTATED = 100;
/** The kit looks for an accepted call at most this long (calls one second apart). */
const LOOK_MS = 15_000;

const sleep = (ms: number, signal: AbortSignal) =>
  new Promise<void>((resolve) => {
    const timer = setTimeout(resolve, ms);
    signal.addEventListener('abort', () => {
      clearTimeout(timer);
      resolve();
    });
  });

/**
 * SHOULD (Limits: "Retry-After (recommended wait in seconds)"): the wait is in seconds. A deployment that
 * sends milliseconds tells clients to wait a thousand times too long; seen from outside, a call on the same
 * path is accepted again long before the wait it named. Judged only where that is unmistakable: a wait of
 * over a minute, and a call accepted within a hundredth of it (a conservative wait, e.g. until a whole
 * window or bucket is back, stays well within that).
 */
export const retryAfterSeconds = defineCheck({
  name: 'rate-limit.retry-after-seconds',
  title:
    "a 429's Retry-After is a wait in seconds: a call is not accepted again within a hundredth of a wait of over a minute (milliseconds sent as seconds)",
  severity: 'SHOULD',
  section: 'Limits',
  tags: ['rate-limit', 'errors'],
  mutating: true,
  requires: ['token'],
  exhausts: burstsRateLimit,
  async run(ctx: CheckContext) {
    const provoked = await provokeRateLimit(ctx);
    if ('skip' in provoked) ctx.skip(provoked.skip);
    const text = provoked.ex.headers['retry-after']?.trim() ?? '';
    if (!/^\d+$/.test(text)) ctx.skip('no Retry-After in whole seconds to measure (see rate-limit.retry-after)');
    const wait = Number(text);
    if (wait <= PLAUSIBLE_ANY_WINDOW_S) {
      ctx.note(`Retry-After ${wait} s: a minute or less is plausible for any window, nothing to measure`);
      return;
    }
    // Only an acceptance within wait/OVERSTATED counts, so the kit never looks longer than that.
    const until = Date.now() + Math.min(LOOK_MS, (wait * 1000) / OVERSTATED);
    const since = Date.now();
    while (!ctx.signal.aborted) {
      const ex = await ctx.call('GET', provoked.path, { retry: false });
      const after = Math.max(1, (Date.now() - since) / 1000);
      if (ex.status !== ERROR_TABLE.rate_limited.status) {
        ctx.expect.that(wait < OVERSTATED * after, {
          expected: `a 429's Retry-After (${wait} s) is a wait in seconds: calls are refused for about that long`,
          observed: `the same call was answered ${ex.status} ${after.toFixed(1)} s later, ${Math.round(wait / after)} times sooner than the wait named: milliseconds sent as seconds?`,
          exchange: ex,
        });
        return;
      }
      if (Date.now() >= until) break;
      await sleep(1000, ctx.signal);
    }
    ctx.note(
      `no call accepted within ${Math.round((until - since) / 1000)} s of a Retry-After of ${wait} s: consistent`,
    );
  },
});
