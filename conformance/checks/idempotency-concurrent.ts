// idempotency.concurrent: copies of one keyed creation sent at once have one effect.
import { ERROR_TABLE } from '../../simulator/contract/errors.ts';
import { skipIfLimited } from '../generated/invariant-checks.ts';
import { type CheckContext, defineCheck } from '../runner/check.ts';
import { must } from '../runner/invariant.ts';
import { is2xx } from './idempotency.ts';
import { countLabelled, dataIdOf, freshKey, postConnection, requireCreationBase } from './support/connections.ts';

/** Same-key calls sent at once. */
const CONCURRENT = 5;
/** The longest Retry-After the kit waits before sending the group again (seconds). */
const MAX_WAIT_S = 10;

const sleep = (ms: number, signal: AbortSignal) =>
  new Promise<void>((resolve) => {
    const timer = setTimeout(resolve, ms);
    signal.addEventListener('abort', () => {
      clearTimeout(timer);
      resolve();
    });
  });

export const concurrent = defineCheck({
  name: 'idempotency.concurrent',
  title: `${CONCURRENT} concurrent calls with one key and one body have one effect: one connection, the same in every success`,
  severity: 'MUST',
  section: 'What the service does',
  tags: ['idempotency', 'concurrency'],
  mutating: true,
  requires: ['token'],
  async run(ctx: CheckContext) {
    const base = await requireCreationBase(ctx);
    const round = async () => {
      const key = freshKey(ctx);
      const body = { ...base, scopeLabel: ctx.label('concurrent') };
      const sent = await Promise.all(
        Array.from({ length: CONCURRENT }, () => postConnection(ctx, body, { key, retry: false })),
      );
      return { key, body, answers: sent };
    };
    let { key, body, answers } = await round();
    // Fewer than two copies past a rate limit the rest of the run spent (a tight window): the group once more,
    // under a key of its own, after the wait the answers asked for (bounded), so that two can race.
    const limited = answers.filter((ex) => ex.status === ERROR_TABLE.rate_limited.status);
    if (answers.length - limited.length < 2 && limited.length > 0) {
      const asked = Math.max(1, ...limited.map((ex) => Number(ex.headers['retry-after']) || 1));
      ctx.note(
        `${limited.length} of ${CONCURRENT} copies answered 429: sent again after ${Math.min(asked, MAX_WAIT_S)} s`,
      );
      await sleep(Math.min(asked, MAX_WAIT_S) * 1000, ctx.signal);
      ({ key, body, answers } = await round());
    }
    let successes = answers.filter(is2xx);
    // Every copy refused 429 (the deployment's limit, whose values are not shown): the same call once more
    // under the interface's retry policy, which a client would send; still 429 is no verdict.
    if (successes.length === 0 && answers.every((ex) => ex.status === ERROR_TABLE.rate_limited.status)) {
      const again = await postConnection(ctx, body, { key });
      skipIfLimited(ctx, again);
      successes = [again].filter(is2xx);
    }
    ctx.require(successes.length > 0, {
      expected: `at least one of ${CONCURRENT} concurrent same-key creations succeeds`,
      exchange: must(answers[0], `${CONCURRENT} creations were sent`),
    });
    // Fewer than two copies past the rate limit did not race each other: nothing about concurrency to judge.
    const through = answers.filter((ex) => ex.status !== ERROR_TABLE.rate_limited.status).length;
    if (through < 2)
      ctx.skip(
        `only ${through} of ${CONCURRENT} concurrent same-key creations got past the deployment's rate limit (429): no two raced each other, concurrency not judged`,
      );
    const refused = answers.filter((ex) => !is2xx(ex));
    for (const ex of refused) {
      ctx.expect.that(
        ex.status === ERROR_TABLE.idempotency_conflict.status || ex.status === ERROR_TABLE.rate_limited.status,
        {
          expected: 'a concurrent duplicate is either answered like the first or refused (409 or 429)',
          exchange: ex,
        },
      );
    }
    if (refused.length)
      ctx.note(
        `${refused.length} of ${CONCURRENT} concurrent duplicates were refused (${refused.map((r) => r.status).join(', ')})`,
      );
    const ids = new Set(successes.map(dataIdOf));
    ctx.expect.that(ids.size === 1 && !ids.has(undefined), {
      expected: 'every successful answer names the same connection',
      observed: `data.id values: ${[...ids].map(String).join(', ')}`,
      exchange: must(successes.at(-1), 'ctx.require saw a success'),
    });
    const after = await countLabelled(ctx, body.scopeLabel, undefined, 1);
    ctx.expect.that(after.count === 1, {
      expected: `${CONCURRENT} concurrent calls with one key created exactly one connection`,
      observed: `GET /connections lists ${after.count} with scopeLabel ${body.scopeLabel}`,
      exchange: after.ex,
    });
  },
});
