// "X-RateLimit-Remaining (calls left in the window)": whatever the limiter counts and however its window moves
// (fixed, sliding, a refilled bucket), time only gives calls back, and one call takes at most what a call costs.
// So between two calls of one access made in a row, Remaining falls by at most one call's cost. A header writer
// that fills Remaining from a fresh window on some answers (a validation refusal answered before the limiter's
// context is loaded) breaks that at once: the refusal says the window is fresh, the next read continues the old
// count. Judged where nothing else of the run calls between (the `alone` phase), three times in a row.
import type { Exchange } from '../client/http-client.ts';
import { routePath } from '../rules/interface-routes.ts';
import { type CheckContext, defineCheck } from '../runner/check.ts';
import { authenticatedGet, capabilityCheckRoute } from './support/error-probes.ts';
import { knownPair } from './support/samples.ts';

const LIMIT = 'x-ratelimit-limit';
const REMAINING = 'x-ratelimit-remaining';
const WHOLE = /^\d+$/;
/** How often a sandwich is made before a jump counts: another client of the tenant may spend calls meanwhile. */
const ATTEMPTS = 3;

const remaining = (ex: Exchange) =>
  WHOLE.test(ex.headers[REMAINING]?.trim() ?? '') ? Number(ex.headers[REMAINING]) : undefined;

/**
 * One sandwich: two reads (what a read costs), the middle call, a read. 'jump' where the middle call reported
 * as many calls left as the read before it or more, and the read after fell back by more than a read costs; 'alike' where
 * the steps are possible; 'unread' where the values cannot be compared (no headers, another limit, a 429, a refill).
 * @example stepVerdict([90, 89, 100, 87]) // 'jump': the refusal said 100 left, the next read continued from 89
 */
export function stepVerdict(values: readonly (number | undefined)[]): 'jump' | 'alike' | 'unread' {
  const [r0, r1, rm, r2] = values;
  if (r0 === undefined || r1 === undefined || rm === undefined || r2 === undefined) return 'unread';
  const cost = r0 - r1;
  // A window that ended, or a bucket refilled, between the two reads: no cost to measure.
  if (cost < 1) return 'unread';
  // The middle call reported no cost (or calls given back) and the read after fell by more than a read's cost from
  // what it reported: the count it stated is not the one the limiter continues (a refusal reporting a fresh window,
  // a call counted only by the next one).
  return rm >= r1 && r2 < rm - cost ? 'jump' : 'alike';
}

async function sandwich(ctx: CheckContext, middle: () => Promise<Exchange>) {
  const path = authenticatedGet().path;
  const g0 = await ctx.call('GET', path, { retry: false });
  const g1 = await ctx.call('GET', path, { retry: false });
  const m = await middle();
  const g2 = await ctx.call('GET', path, { retry: false });
  const all = [g0, g1, m, g2];
  const oneLimit = new Set(all.map((ex) => ex.headers[LIMIT]?.trim())).size === 1;
  const limited = all.some((ex) => ex.status === 429);
  const values = all.map(remaining);
  return { m, values, verdict: oneLimit && !limited ? stepVerdict(values) : ('unread' as const) };
}

type Middle = { what: string; call: () => Promise<Exchange> };

/**
 * Whether the middle calls' Remaining fell by one from each try to the next: a count of their own (a limit per
 * route, totara's), not the reads' count misreported. A refusal reporting a fresh window says the same each time.
 * @example countOfItsOwn([284, 283, 282]) // true; countOfItsOwn([300, 300, 300]) // false
 */
export function countOfItsOwn(counts: readonly (number | undefined)[]): boolean {
  return counts.length > 1 && counts.every((c, i) => c !== undefined && (i === 0 || c === (counts[i - 1] ?? 0) - 1));
}

/** Three sandwiches around each middle call at most, until one shows possible steps: a wrong count fails all three. */
async function judgeSteps(ctx: CheckContext, middles: readonly Middle[]) {
  let judged = 0;
  for (const { what, call } of middles) {
    const seen: string[] = [];
    const middleCounts: (number | undefined)[] = [];
    let jumps = 0;
    let last: Exchange | undefined;
    for (let i = 0; i < ATTEMPTS; i++) {
      const { m, values, verdict } = await sandwich(ctx, call);
      if (verdict === 'alike') break;
      seen.push(values.map((v) => v ?? '-').join(' -> '));
      middleCounts.push(values[2]);
      if (verdict === 'jump') {
        jumps++;
        last = m;
      }
    }
    if (jumps === 0 && seen.length === ATTEMPTS) {
      ctx.note(`${what}: Remaining not comparable in ${ATTEMPTS} tries (${seen.join('; ')}): not judged`);
      continue;
    }
    if (jumps === ATTEMPTS && countOfItsOwn(middleCounts)) {
      ctx.note(
        `${what}: its Remaining counts down on its own across the tries (${seen.join('; ')}): a limit of its route, not judged`,
      );
      continue;
    }
    judged++;
    ctx.expect.that(jumps < ATTEMPTS, {
      expected: `a read, a read, ${what}, a read, in a row: Remaining falls by at most what a read costs after the middle call (time only gives calls back)`,
      observed: `Remaining read, read, middle, read: ${seen.join('; ')}: the middle call reports more calls left than the read after it continues from`,
      ...(last ? { exchange: last } : {}),
    });
  }
  if (!judged) ctx.skip('no X-RateLimit-Remaining could be compared across calls in a row');
}

export const remainingSteps = defineCheck({
  name: 'rate-limit.remaining-steps',
  title:
    'X-RateLimit-Remaining falls by at most one call between two calls of one access in a row, whatever the first was answered: a success or a refusal (400) reporting a fresh window that the next read does not continue is a wrong count',
  severity: 'SHOULD',
  section: 'Limits',
  tags: ['rate-limit', 'headers'],
  mutating: false,
  requires: ['token'],
  // Nothing else of the run may call between the reads.
  alone: true,
  async run(ctx) {
    const path = capabilityCheckRoute().path;
    const pair = await knownPair(ctx);
    await judgeSteps(ctx, [
      {
        what: `POST ${path} refused 400 (an empty body)`,
        call: () => ctx.call('POST', path, { json: {}, retry: false }),
      },
      ...(pair
        ? [{ what: `POST ${path} answered`, call: () => ctx.call('POST', path, { json: pair, retry: false }) }]
        : []),
    ]);
  },
});

/**
 * The same steps around a write: an idempotency key issued. A route mounted before the limiter whose calls the next
 * call pays for reports a count the limiter does not continue. Whether a key issue is counted at all is the
 * deployment's choice: a read after it falling by one read's cost is either.
 */
export const remainingStepsWrites = defineCheck({
  name: 'rate-limit.remaining-steps-writes',
  title:
    'X-RateLimit-Remaining after POST /idempotency-keys is the count the next call continues: the read after falls by at most what a read costs (a key issue counted only by the next call is a wrong count)',
  severity: 'SHOULD',
  section: 'Limits',
  tags: ['rate-limit', 'headers', 'idempotency'],
  mutating: true,
  requires: ['token'],
  alone: true,
  async run(ctx) {
    const path = routePath('createIdempotencyKey');
    await judgeSteps(ctx, [
      {
        what: `POST ${path} (a key issued)`,
        call: () => ctx.call('POST', path, { json: { operation: 'connection.create' }, retry: false }),
      },
    ]);
  },
});
