// Limits: "X-RateLimit-Limit (limit for the current window)". The values and the window are not shown, and a
// deployment keeping several limits (per access, per tenant, per environment) may report whichever binds; but
// within one window a limit does not move with each call. The kit's reads elsewhere come in pairs with nothing
// between them; here reads and creations alternate, so a limit counted up by writes (a burst credit added to the
// header) shows on both routes.
import type { Exchange } from '../client/http-client.ts';
import { type CheckContext, defineCheck } from '../runner/check.ts';
import { createLabelledConnection } from './support/connections.ts';
import { authenticatedGet } from './support/error-probes.ts';

const LIMIT = 'x-ratelimit-limit';
const REMAINING = 'x-ratelimit-remaining';
const WHOLE = /^\d+$/;
/** Reads and creations, alternating. */
const ROUNDS = 4;
/** The limits the interface names (per access, per tenant, per environment): at most one each within a window. */
const LIMITS_NAMED = 3;

const whole = (ex: Exchange, name: string) => {
  const v = ex.headers[name]?.trim();
  return v !== undefined && WHOLE.test(v) ? Number(v) : undefined;
};

/**
 * The runs of one route's answers whose Remaining goes down call by call (one window: a window that ends, or a
 * bucket that refills, starts a new run), each with the distinct limits it reported.
 * @example windows([a, b, c]) // [{ answers: [a, b, c], limits: [100] }]
 */
export function windows(answers: readonly Exchange[]): { answers: Exchange[]; limits: number[] }[] {
  const out: { answers: Exchange[]; limits: number[] }[] = [];
  let current: Exchange[] = [];
  const close = () => {
    if (current.length) out.push({ answers: current, limits: [...new Set(current.map((x) => whole(x, LIMIT) ?? -1))] });
    current = [];
  };
  for (const ex of answers) {
    const r = whole(ex, REMAINING);
    const last = current.at(-1);
    if (r === undefined || whole(ex, LIMIT) === undefined) {
      close();
      continue;
    }
    if (last && !(r < (whole(last, REMAINING) ?? -1))) close();
    current.push(ex);
  }
  close();
  return out;
}

export const limitSteady = defineCheck({
  name: 'rate-limit.limit-steady',
  title:
    "X-RateLimit-Limit holds within a window across writes: a route's calls whose Remaining goes down call by call (reads and creations alternating) report at most three limits (per access, tenant, environment), not a new one with each call",
  severity: 'MUST',
  section: 'Limits',
  tags: ['rate-limit', 'headers'],
  mutating: true,
  requires: ['token'],
  async run(ctx: CheckContext) {
    const read = authenticatedGet().path;
    const reads: Exchange[] = [];
    const writes: Exchange[] = [];
    for (let i = 0; i < ROUNDS; i++) {
      const r = await ctx.call('GET', read);
      const w = (await createLabelledConnection(ctx, 'limit-steady')).ex;
      if (r.status === 429 || w.status === 429) return ctx.note('a call of the sequence answered 429: not judged');
      reads.push(r);
      if (w.status === 200) writes.push(w);
    }
    let judged = 0;
    for (const [what, answers] of [
      [`GET ${read}`, reads],
      ['the creations', writes],
    ] as const)
      for (const w of windows(answers)) {
        if (w.answers.length <= LIMITS_NAMED) continue;
        judged++;
        const seen = w.answers.map((x) => `${x.headers[LIMIT]}/${x.headers[REMAINING]}`).join(', ');
        ctx.expect.that(w.limits.length <= LIMITS_NAMED, {
          expected: `${what}, ${w.answers.length} calls in one window (Remaining going down call by call) between creations, report the window's limit: at most ${LIMITS_NAMED} values (per access, tenant, environment)`,
          observed: `X-RateLimit-Limit/Remaining ${seen}`,
          exchange: w.answers.at(-1) as Exchange,
        });
      }
    if (judged === 0)
      ctx.note(
        `no run of ${LIMITS_NAMED + 1} calls of one route with Remaining going down call by call (a window ended, a bucket refilled, or no headers): nothing judged`,
      );
  },
});
