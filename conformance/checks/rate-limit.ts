import type { Exchange } from '../client/http-client.ts';
import { failureEnvelopeProblem } from '../rules/response-rules.ts';
import { type CheckContext, defineCheck } from '../runner/check.ts';
import { retryAfterSeconds } from './rate-limit-wait.ts';
import { authenticatedGet, errorProbes } from './support/error-probes.ts';
import { burstsRateLimit, provokeRateLimit } from './support/rate-limited.ts';
import { successSamples } from './support/samples.ts';

const LIMIT = 'x-ratelimit-limit';
const REMAINING = 'x-ratelimit-remaining';
const WHOLE = /^\d+$/;

/** Authenticated answers the run already has (successes with the token). */
async function authenticatedAnswers(ctx: CheckContext): Promise<Exchange[]> {
  return (await successSamples(ctx)).filter((s) => s.route.auth && s.ex.status === 200).map((s) => s.ex);
}

const where = (ex: Exchange) => `${ex.method} ${new URL(ex.url).pathname}`;

export const headersPresent = defineCheck({
  name: 'rate-limit.headers',
  title: 'authenticated answers carry X-RateLimit-Limit and X-RateLimit-Remaining',
  severity: 'SHOULD',
  section: 'Limits',
  tags: ['rate-limit', 'headers'],
  mutating: false,
  requires: ['token'],
  async run(ctx: CheckContext) {
    for (const ex of await authenticatedAnswers(ctx)) {
      const missing = [LIMIT, REMAINING].filter((h) => ex.headers[h] === undefined);
      ctx.expect.that(missing.length === 0, {
        expected: `${where(ex)} tells the client its rate limit (X-RateLimit-Limit, X-RateLimit-Remaining)`,
        observed: `missing ${missing.join(', ')}`,
        exchange: ex,
      });
    }
  },
});

export const headersNumeric = defineCheck({
  name: 'rate-limit.headers-numeric',
  title:
    'X-RateLimit-Limit and X-RateLimit-Remaining, where sent, are whole numbers with Remaining <= Limit (every answer of the run)',
  severity: 'MUST',
  section: 'Limits',
  tags: ['rate-limit', 'headers'],
  mutating: false,
  requires: ['token'],
  // Every answer of the run, creations and replays among them: a deployment may render the headers
  // differently on one route (a gateway plugin on writes only).
  judgesRun: true,
  async run(ctx: CheckContext) {
    const answers = new Set([
      ...(await authenticatedAnswers(ctx)),
      ...(await errorProbes(ctx)).map((p) => p.ex),
      ...ctx.exchanges().map((e) => e.ex),
    ]);
    let seen = 0;
    const bad: Exchange[] = [];
    for (const ex of answers) {
      const limit = ex.headers[LIMIT];
      const remaining = ex.headers[REMAINING];
      if (limit === undefined && remaining === undefined) continue;
      seen++;
      const wellFormed = [limit, remaining].every((v) => v === undefined || WHOLE.test(v.trim()));
      if (!wellFormed || (limit !== undefined && remaining !== undefined && Number(remaining) > Number(limit)))
        bad.push(ex);
    }
    const [first] = bad;
    if (first)
      ctx.fail({
        expected: `${where(first)}: the rate-limit headers are whole numbers and Remaining does not exceed Limit`,
        observed: `X-RateLimit-Limit ${first.headers[LIMIT] ?? '(absent)'}, X-RateLimit-Remaining ${first.headers[REMAINING] ?? '(absent)'} (${bad.length} of ${seen} answers with the headers)`,
        exchange: first,
      });
    if (seen === 0) ctx.note('no answer carried rate-limit headers: nothing to judge (see rate-limit.headers)');
  },
});

export const remainingDecreases = defineCheck({
  name: 'rate-limit.remaining-decreases',
  title:
    'X-RateLimit-Remaining goes down from one call to the next within a window, under one X-RateLimit-Limit (for each tenant of the run, and for reads with a query string as for plain ones)',
  severity: 'SHOULD',
  section: 'Limits',
  tags: ['rate-limit', 'headers'],
  mutating: false,
  requires: ['token'],
  async run(ctx: CheckContext) {
    const counting = await judgeDecrease(ctx);
    // "Configured per access, per tenant and per environment": the second tenant's window counts too.
    if (ctx.target.otherTenant) await judgeDecrease(ctx, ctx.target.otherTenant);
    // A read with a query string is a call like any (a limiter keyed by the raw request target counts none): where
    // the plain reads went down, so do these (a bucket refilled between calls would have shown in the plain ones).
    const query = await filterQuery(ctx);
    if (query) await judgeDecrease(ctx, undefined, query, counting);
  },
});

export const retryAfter = defineCheck({
  name: 'rate-limit.retry-after',
  title:
    'a 429 answers rate_limited with the failure envelope and a Retry-After wait time (provoked through the sandbox control plane, or a bounded burst the deployment profile allows)',
  severity: 'MUST',
  section: 'Limits',
  tags: ['rate-limit', 'errors'],
  mutating: true,
  // The control plane is used when there is one with an admin token; else only a burst the profile allows.
  requires: ['token'],
  // A burst leaves the window spent for the rest of it: then last, so no other check waits it out (an
  // armed fault spends nothing, and its 429 is judged by the run-wide rules like every answer).
  exhausts: burstsRateLimit,
  async run(ctx: CheckContext) {
    const provoked = await provokeRateLimit(ctx);
    if ('skip' in provoked) ctx.skip(provoked.skip);
    for (const ex of [provoked.ex, ...(provoked.alt ? [provoked.alt] : [])]) judgeLimited(ctx, ex);
  },
});

/** A 429's envelope, code and whole-second Retry-After. */
function judgeLimited(ctx: CheckContext, ex: Exchange) {
  ctx.expect.errorCode(ex, 'rate_limited', 'a 429 carries the failure envelope with error.code rate_limited');
  const envelope = failureEnvelopeProblem(ex);
  ctx.expect.that(envelope === undefined, {
    expected: 'a 429 carries the failure envelope with its meta (requestId, version, at)',
    observed: envelope ?? '',
    exchange: ex,
  });
  // Limits: "Retry-After (recommended wait in seconds)": whole seconds, not the HTTP-date form HTTP also allows.
  const wait = ex.headers['retry-after']?.trim();
  ctx.expect.that(wait !== undefined && WHOLE.test(wait), {
    expected: 'a 429 carries Retry-After as a wait in whole seconds: the wait time clients must respect',
    observed: `Retry-After ${ex.headers['retry-after'] ?? '(absent)'}`,
    exchange: ex,
  });
}

export const rateLimitChecks = [headersPresent, headersNumeric, remainingDecreases, retryAfter, retryAfterSeconds];

/**
 * A filter of the authenticated read the contract declares, with a value its plain answer lists (a field of the
 * same name in its entries), else a label: `{ category: 'pos' }` for GET /providers.
 */
async function filterQuery(ctx: CheckContext): Promise<Record<string, string> | undefined> {
  const route = authenticatedGet();
  const name = Object.keys(route.query?.shape ?? {})[0];
  if (!name) return undefined;
  const plain = await ctx.call('GET', route.path);
  const data = (plain.json as { data?: Record<string, unknown> } | undefined)?.data ?? {};
  const entries = Object.values(data).find(Array.isArray) as Record<string, unknown>[] | undefined;
  const listed = entries?.map((e) => e?.[name]).find((v) => typeof v === 'string');
  return { [name]: typeof listed === 'string' ? listed : ctx.label('filter') };
}

/**
 * Up to four pairs of calls (under `tenant`, else the run's; with `query`): one going down shows a counting window
 * (true). `counting`: the plain reads' pairs went down, so pairs that do not are no refilled bucket.
 */
async function judgeDecrease(
  ctx: CheckContext,
  tenant?: string,
  query?: Record<string, string>,
  counting?: boolean,
): Promise<boolean> {
  const path = authenticatedGet().path;
  const as = { ...(tenant ? { tenant } : {}), ...(query ? { query } : {}) };
  const whose = tenant
    ? ` (tenant ${tenant})`
    : query
      ? ` (with the query ${new URLSearchParams(query).toString()})`
      : '';
  const remaining = (ex: Exchange) =>
    WHOLE.test(ex.headers[REMAINING]?.trim() ?? '') ? Number(ex.headers[REMAINING]) : undefined;
  // A window may end between two calls (Remaining jumps up), and a bucket refilled continuously may give
  // back a call between two (its values are not shown): up to four pairs, one going down is enough.
  const seen: string[] = [];
  const values = new Set<number>();
  for (let pair = 0; pair < 4; pair++) {
    const a = await ctx.call('GET', path, as);
    const b = await ctx.call('GET', path, as);
    const [ra, rb] = [remaining(a), remaining(b)];
    if (ra === undefined || rb === undefined) {
      const why = `no readable X-RateLimit-Remaining to compare${whose} (see rate-limit.headers and rate-limit.headers-numeric)`;
      if (tenant || query) {
        ctx.note(why);
        return false;
      }
      ctx.skip(why);
    }
    if (rb >= ra) {
      seen.push(`${ra}, then ${rb}`);
      values.add(ra).add(rb);
      if (pair < 3) continue;
      // A counter that moves between the pairs, or stays under the limit, is counting: a bucket refilled
      // faster than the kit calls gives each call back before the next, showing the limit less that call
      // (a frozen counter shows the limit, or one value moving nowhere, throughout).
      const limit = Number(b.headers[LIMIT]);
      // Where the plain reads went down (no bucket refilled between calls), only a value moving is a refill.
      if (values.size > 1 || (!counting && Number.isFinite(limit) && rb < limit)) {
        ctx.note(
          `X-RateLimit-Remaining moves${whose} (${seen.join('; ')}) but no pair went down: refilled between calls`,
        );
        return false;
      }
      ctx.fail({
        expected: `a second call leaves fewer calls in the window than the first (in one of four pairs)${whose}${counting ? ', as the plain reads did' : ''}`,
        observed: `X-RateLimit-Remaining ${seen.join('; ')}`,
        exchange: b,
      });
      return false;
    }
    // The limit is configured per access, tenant and environment: one window, one X-RateLimit-Limit; where the
    // deployment keeps several (an access's and a tenant's) and reports the one that binds, the reported limit
    // may change to the other as their counts cross, each call's Remaining within its own Limit.
    const [la, lb] = [Number(a.headers[LIMIT]), Number(b.headers[LIMIT])];
    if (a.headers[LIMIT] !== b.headers[LIMIT] && Number.isFinite(la) && Number.isFinite(lb) && ra <= la && rb <= lb) {
      ctx.note(
        `X-RateLimit-Limit ${la}, then ${lb}, Remaining ${ra}, then ${rb}: the binding one of several limits (per access, per tenant, per environment) reported`,
      );
      return true;
    }
    ctx.expect.that(a.headers[LIMIT] === b.headers[LIMIT], {
      expected: 'two calls of one access in one window report the same X-RateLimit-Limit',
      observed: `X-RateLimit-Limit ${a.headers[LIMIT] ?? '(absent)'}, then ${b.headers[LIMIT] ?? '(absent)'}`,
      exchange: b,
    });
    return true;
  }
  return false;
}
