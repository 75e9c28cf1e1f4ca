import { ROUTE_BY_ID } from '../../simulator/contract/route-table.ts';
import { listedEventually, postConnection } from '../checks/support/connections.ts';
import { replayUnjudged } from '../checks/support/key-validity.ts';
import type { Exchange } from '../client/http-client.ts';
import {
  decisionReasonRule,
  filterRule,
  issuedKeyRepeats,
  keyOnlyWhereMarkedRule,
  laterReplayProblem,
  rateLimitedProblem,
  requestIdRepeats,
  selfDescriptionVersionRule,
  unlistedCreations,
} from '../rules/call-rules.ts';
import { type CheckContext, type CheckDef, defineCheck } from '../runner/check.ts';
import { must } from '../runner/invariant.ts';
import { ISSUED_KEY_CREATION, type IssuedKeyCreation } from './identity-checks.ts';
import { skipIfLimited } from './invariant-checks.ts';
import { judged } from './judged-checks.ts';
import { replaysUnlikeFirst, replaysWithoutFirst } from './replays.ts';

/**
 * Rules that hold each answer to the call that asked for it and the run's answers to each other
 * (rules/call-rules.ts), and two run-end checks: every connection the run created is in its tenant's
 * list, and a key still replays its creation seconds later.
 */
const route = (id: string) => must(ROUTE_BY_ID.get(id), `the contract defines ${id}`);
const data = (ex: Exchange) => (ex.json as { data?: Record<string, unknown> } | undefined)?.data;
const meta = (ex: Exchange) => (ex.json as { meta?: Record<string, unknown> } | undefined)?.meta ?? {};
const header = (ex: Exchange, name: string) =>
  Object.entries(ex.requestHeaders).find(([k]) => k.toLowerCase() === name)?.[1];
const pathOf = (ex: Exchange) => new URL(ex.url).pathname;
/**
 * How long after its creation a key is sent again at the earliest: a second, where any key's validity is
 * longer. The replay comes at the end of the run, which is usually later anyway: a longer floor (3 s at
 * first) made every full run wait for it (1.5 -> 3.2 s against the simulator) to catch only keys a
 * deployment forgets within seconds.
 */
export const REPLAY_LATER_MS = 1000;

function runWide(ctx: CheckContext, problems: { problem: string; ex: Exchange }[], expected: string) {
  const first = problems[0];
  if (first) ctx.fail({ expected, observed: `${first.problem} (${problems.length} answers)`, exchange: first.ex });
}
const answers = (ctx: CheckContext) => ctx.exchanges().map(({ ex }) => ex);

const onTarget = (ctx: CheckContext, ex: Exchange) =>
  [ctx.target.baseUrl, ctx.target.altBaseUrl].some((b) => b !== undefined && ex.url.startsWith(b));

/** The run's creations that made a connection (200, not a replay), oldest first. */
function creations(ctx: CheckContext) {
  const create = route('createConnection');
  return answers(ctx).filter(
    (ex) =>
      ex.method === 'POST' &&
      pathOf(ex).endsWith(create.path) &&
      ex.status === 200 &&
      meta(ex).replayed !== true &&
      typeof data(ex)?.id === 'string',
  );
}

export const createdListed = defineCheck({
  name: 'generated.created-listed',
  title:
    'every connection the run created is listed by GET /connections of its tenant at the end of the run (connections of the tenant: all of them, on every page where the list offers a next one)',
  severity: 'MUST',
  section: 'GET /api/public/v1/connections',
  tags: ['generated', 'connections'],
  mutating: false,
  requires: ['token'],
  judgesRun: true,
  async run(ctx) {
    const byTenant = new Map<string, Exchange[]>();
    for (const ex of creations(ctx)) {
      const tenant = header(ex, 'x-service-tenant') ?? '';
      byTenant.set(tenant, [...(byTenant.get(tenant) ?? []), ex]);
    }
    // Like the other judges: a run that created nothing (read-only profile) has nothing to judge here.
    if (byTenant.size === 0) return ctx.note('the run created no connection: nothing to look for');
    for (const [tenant, made] of byTenant) {
      const { ex, connections } = await listedEventually(
        ctx,
        (cs) => unlistedCreations(made, cs).length === 0,
        tenant || undefined,
      );
      if (ex.status === 429) {
        ctx.note(`GET /connections for ${tenant}: rate limited, not judged`);
        continue;
      }
      const missing = unlistedCreations(made, connections);
      const first = missing[0];
      ctx.expect.that(first === undefined, {
        expected: `GET ${route('listConnections').path} for tenant ${tenant} lists every connection the run created for it (${made.length})`,
        observed: `${missing.length} not listed, e.g. ${String(data(first ?? ex)?.id)} (created by ${first?.method} ${first ? pathOf(first) : ''}); ${connections.length} listed`,
        exchange: ex,
      });
    }
  },
});

export const keyReplaysLater = defineCheck({
  name: 'generated.key-replays-later',
  title: `a creation sent again with its key and content seconds later (at least ${REPLAY_LATER_MS / 1000} s, after a first replay) still replays it; judged as MUST for a key the deployment issued that has not expired`,
  severity: 'SHOULD',
  section: 'Idempotency key result',
  tags: ['generated', 'idempotency'],
  mutating: true,
  requires: ['token'],
  judgesRun: true,
  async run(ctx) {
    const issued = await ctx.shared<IssuedKeyCreation | undefined>(ISSUED_KEY_CREATION, async () => undefined);
    const earliest = creations(ctx).find((ex) => header(ex, 'idempotency-key') !== undefined);
    const made = issued?.made ?? earliest;
    const key = issued?.key ?? (earliest ? header(earliest, 'idempotency-key') : undefined);
    if (!made || !key) return ctx.skip('the run made no creation with an Idempotency-Key to send again');
    if (issued) {
      await new Promise((r) => setTimeout(r, Math.max(0, issued.madeAt + REPLAY_LATER_MS - Date.now())));
      // Expired (or about to, in flight) by the time a later replay is sent: the key's validity is the
      // deployment's ("Validity period of an idempotency key ...: not shown"), and it said when it ends.
      const unjudged = replayUnjudged({ firstSentAt: issued.madeAt, expiresAt: issued.expiresAt });
      if (unjudged) ctx.skip(unjudged);
      ctx.judgeAsMust(
        `the key was issued by POST /idempotency-keys and expires at ${new Date(issued.expiresAt).toISOString()}: until then it is valid`,
      );
    }
    const body = issued?.body ?? JSON.parse(made.requestBody ?? '{}');
    const tenant = header(made, 'x-service-tenant');
    const again = await postConnection(ctx, body, {
      key,
      ...(tenant ? { tenant } : {}),
      ...(made.url.startsWith(ctx.target.baseUrl) ? {} : { base: 'alt' as const }),
    });
    skipIfLimited(ctx, again);
    const problem = laterReplayProblem(made, again);
    ctx.expect.that(problem === undefined, {
      expected:
        'the same key with the same content returns the same response again (meta.replayed true, the same connection), however long after the first replay',
      observed: problem,
      exchange: again,
    });
  },
});

const isIssue = (ex: Exchange) => ex.method === 'POST' && pathOf(ex).endsWith(route('createIdempotencyKey').path);

/** Generated checks that hold answers to their calls and to each other. */
export const callChecks: CheckDef[] = [
  judged(
    'filters-respected',
    'GET /api/public/v1/connectors',
    'every entry of a filtered list matches every filter of the contract sent (category, capability, providerId), whatever the value',
    filterRule,
  ),
  judged(
    'request-id-unique',
    'Meta',
    'meta.requestId identifies one call: no two answers of the run carry the same one (replays aside)',
    () => undefined,
    () => false,
    (ctx) => runWide(ctx, requestIdRepeats(answers(ctx), false), 'every call is answered with its own meta.requestId'),
  ),
  judged(
    'replay-after-a-first-call',
    'Meta',
    'an answer marked meta.replayed true comes from an earlier identical operation: a call with that Idempotency-Key began before the answer came back (a first call refused 429 is no replay), and that call was answered with the same status',
    () => undefined,
    () => false,
    (ctx) =>
      runWide(
        ctx,
        [...replaysWithoutFirst(answers(ctx)), ...replaysUnlikeFirst(answers(ctx))],
        'meta.replayed is true only where the key was used before, on the answer that use got',
      ),
  ),
  judged(
    'replay-own-request-id',
    'Meta',
    "a replay carries its own meta.requestId, not the original call's",
    () => undefined,
    () => false,
    (ctx) =>
      runWide(
        ctx,
        requestIdRepeats(answers(ctx), true),
        'a replay is another call: its meta.requestId is its own (support quotes it)',
      ),
    'SHOULD',
  ),
  judged(
    'issued-keys-distinct',
    'POST /api/public/v1/idempotency-keys',
    'POST /idempotency-keys issues a new key each time ("use a new key for each new operation")',
    () => undefined,
    () => false,
    (ctx) => runWide(ctx, issuedKeyRepeats(answers(ctx), isIssue), 'every key issued in the run is a new one'),
    'SHOULD',
  ),
  judged(
    'rate-limited-wait',
    'Limits',
    'every 429 the run meets (provoked or met while pacing) carries Retry-After, a wait in whole seconds ("the service answers 429 with a wait time")',
    () => undefined,
    () => false,
    // Judged from the run's own 429s too, so a deployment without a control plane or a declared burst is
    // judged on the ones its limit gave (rate-limit.retry-after provokes one only where it may).
    (ctx) => {
      const limited = answers(ctx).filter((ex) => ex.status === 429 && onTarget(ctx, ex));
      if (limited.length) ctx.note(`judged ${limited.length} answers 429`);
      runWide(
        ctx,
        limited.flatMap((ex) => {
          const wait = ex.headers['retry-after']?.trim();
          return wait !== undefined && /^\d+$/.test(wait)
            ? []
            : [{ problem: `a 429 with Retry-After ${wait === undefined ? '(absent)' : JSON.stringify(wait)}`, ex }];
        }),
        'every 429 carries Retry-After in whole seconds',
      );
    },
  ),
  judged(
    'rate-limited-consistent',
    'Limits',
    'a 429 asks for a wait of at least one second and, where it reports X-RateLimit-Remaining, reports 0 calls left',
    () => undefined,
    () => false,
    // Every 429 of the target, wherever it was provoked (a control plane arms it on a path of the kit's own).
    (ctx) =>
      runWide(
        ctx,
        answers(ctx)
          .filter((ex) => ex.status === 429 && onTarget(ctx, ex))
          .flatMap((ex) => {
            const problem = rateLimitedProblem(ex);
            return problem ? [{ problem, ex }] : [];
          }),
        'a 429 asks for a wait (Retry-After of a second or more) and reports no calls left',
      ),
    'SHOULD',
  ),
  judged(
    'decision-reason-given',
    'What the service does',
    "a capability decision's reason is not empty (a decision comes with a reason)",
    decisionReasonRule,
    () => true,
    undefined,
    'SHOULD',
  ),
  judged(
    'self-description-version',
    'GET /api/public/v1',
    "the self-description's data.version, when a version identifier, is the version its meta.version reports",
    selfDescriptionVersionRule,
    () => true,
    undefined,
    'SHOULD',
  ),
  judged(
    'key-only-where-marked',
    'Endpoints',
    'an endpoint marked "yes" (no key) never answers 428 idempotency_required: only "yes + key" endpoints require a key',
    keyOnlyWhereMarkedRule,
  ),
  createdListed,
  keyReplaysLater,
];
