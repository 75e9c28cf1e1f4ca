// Connection: createdAt is when the connection was created, so it never moves: the list read right after
// the creation, the list read once the connection had time to change its state (transitions are not
// shown, so the kit waits a few seconds and watches the state), and a replay all name the creation's instant.
import { DateTime } from '../../simulator/contract/date-time.ts';
import { IDEMPOTENCY_KEY_PATTERN } from '../../simulator/contract/limits.ts';
import type { Exchange } from '../client/http-client.ts';
import { routePath } from '../rules/interface-routes.ts';
import { type CheckContext, defineCheck } from '../runner/check.ts';
import {
  CONNECTIONS_PATH,
  dataIdOf,
  freshKey,
  listConnections,
  postConnection,
  requireCreationBase,
} from './support/connections.ts';

/** How long the later read waits for the connection's listed state to move on (the simulator's: 2 s). */
const STATE_WAIT_MS = 3000;
const POLL_MS = 500;

interface Seen {
  where: string;
  createdAt: unknown;
  ex: Exchange;
}

/**
 * Whether two createdAt values name the same instant: RFC 3339 date-times, any offset or precision
 * (`…T10:00:00.123Z` and `…T12:00:00.123+02:00` are one instant), compared at the coarser of their two
 * precisions: a store keeping whole seconds where the creation answer had milliseconds renders the same
 * instant coarser (under a second apart is the same), one keeping milliseconds of a microsecond answer may
 * round (a millisecond apart is the same); two millisecond values 300 ms apart are two instants.
 * Undefined when either is no date-time (connections.schema judges the format).
 * @example sameInstant('2026-07-01T10:00:00.120Z', '2026-07-01t12:00:00.12+02:00') // true
 */
export function sameInstant(a: unknown, b: unknown): boolean | undefined {
  if (!DateTime.safeParse(a).success || !DateTime.safeParse(b).success) return undefined;
  const unit = Math.max(precisionMs(String(a)), precisionMs(String(b)));
  const apart = Math.abs(Date.parse(String(a)) - Date.parse(String(b)));
  return unit >= 1000 ? apart < unit : apart <= unit;
}

/** The unit of a date-time's written precision in milliseconds: 1000 for whole seconds, 10 for `.12`, 1 below. */
function precisionMs(text: string): number {
  const digits = /[.,](\d+)/.exec(text)?.[1]?.length ?? 0;
  return digits >= 3 ? 1 : 10 ** (3 - digits);
}

/** How long after its issue the kit sends the creation with an issued key. */
const ISSUED_WAIT_MS = 2000;
/**
 * How far createdAt may fall short of the issue's meta.at plus the wait: clocks of two hosts of one deployment
 * (the one stamping meta.at, the one stamping the record), beside the written precision of createdAt.
 */
const CLOCKS_APART_MS = 1000;

interface Issue {
  key: string;
  /** meta.at of the issue's answer: the deployment's clock before the creation was sent. */
  at: string;
  ex: Exchange;
}

/** A key issued by POST /idempotency-keys with the time its answer states, or undefined where none is issued. */
async function issuedKey(ctx: CheckContext): Promise<Issue | undefined> {
  const ex = await ctx.call('POST', routePath('createIdempotencyKey'), { json: { operation: 'connection.create' } });
  const body = ex.json as { data?: { idempotencyKey?: unknown }; meta?: { at?: unknown } } | undefined;
  const key = body?.data?.idempotencyKey;
  const at = body?.meta?.at;
  if (ex.status !== 200 || typeof key !== 'string' || !IDEMPOTENCY_KEY_PATTERN.test(key)) return undefined;
  return DateTime.safeParse(at).success ? { key, at: String(at), ex } : undefined;
}

/** createdAt names an instant after the creation was sent: at least the wait after the key's issue (meta.at). */
function judgeAfterIssue(ctx: CheckContext, issue: Issue, createdAt: unknown, made: Exchange) {
  const earliest = Date.parse(issue.at) + ISSUED_WAIT_MS - CLOCKS_APART_MS - precisionMs(String(createdAt));
  ctx.expect.that(Date.parse(String(createdAt)) >= earliest, {
    expected: `a connection created with a key issued at ${issue.at} (meta.at of POST /idempotency-keys) and sent ${ISSUED_WAIT_MS / 1000} s after that answer has a createdAt of its creation, not before ${new Date(earliest).toISOString()}`,
    observed: `createdAt ${String(createdAt)}`,
    exchange: made,
  });
}

const createdAtOf = (value: unknown) => (value as { createdAt?: unknown } | undefined)?.createdAt;
const stateOf = (value: unknown) => (value as { state?: unknown } | undefined)?.state;
const sleep = (ms: number, signal: AbortSignal) =>
  new Promise<void>((resolve) => {
    const timer = setTimeout(resolve, ms);
    signal.addEventListener(
      'abort',
      () => {
        clearTimeout(timer);
        resolve();
      },
      { once: true },
    );
  });

/** The connection `id` as GET /connections lists it now (undefined when it is not listed). */
async function listed(ctx: CheckContext, id: string) {
  const { ex, connections } = await listConnections(ctx);
  return { ex, entry: connections.find((c) => c.id === id) };
}

export const createdAtStable = defineCheck({
  name: 'connections.created-at-stable',
  title:
    "a connection's createdAt is the instant of its creation (not before the call was sent: a key issued 2 s earlier is no creation time) and stays it: in GET /connections right after it, in GET /connections once its state had time to move on, and in a replay",
  severity: 'MUST',
  section: 'Connection',
  tags: ['connections'],
  mutating: true,
  requires: ['token'],
  async run(ctx: CheckContext) {
    const base = await requireCreationBase(ctx);
    // The key is issued by the deployment and used ISSUED_WAIT_MS later: a createdAt taken from the key's issue
    // (a row reserved with it) names an instant before the creation was even sent.
    let issue = await issuedKey(ctx);
    if (issue) await sleep(ISSUED_WAIT_MS, ctx.signal);
    let key = issue?.key ?? freshKey(ctx);
    const body = { ...base, scopeLabel: ctx.label('created-at') };
    let made = await postConnection(ctx, body, { key });
    if (issue && dataIdOf(made) === undefined) {
      // Which keys a creation takes is the deployment's (the operation's name is not shown): one of the kit's own.
      ctx.note(
        `the creation with the key POST /idempotency-keys issued answered ${made.status}: made with a key of the kit's`,
      );
      issue = undefined;
      key = freshKey(ctx);
      made = await postConnection(ctx, body, { key });
    }
    const id = dataIdOf(made);
    ctx.require(id !== undefined, {
      expected: `POST ${CONNECTIONS_PATH()} with a valid body answers 200 with data.id`,
      exchange: made,
    });
    const data = (made.json as { data?: unknown }).data;
    const createdAt = createdAtOf(data);
    if (!DateTime.safeParse(createdAt).success)
      ctx.skip(`the creation answered createdAt ${JSON.stringify(createdAt)}, no date-time (see connections.schema)`);
    if (issue) judgeAfterIssue(ctx, issue, createdAt, made);
    const seen: Seen[] = [];
    const first = await listed(ctx, id);
    if (first.entry)
      seen.push({
        where: 'GET /connections right after the creation',
        createdAt: createdAtOf(first.entry),
        ex: first.ex,
      });
    // Later: once the list shows the state moved on (a transition is when a store may rewrite the record),
    // or after STATE_WAIT_MS when it does not move.
    const madeState = stateOf(data);
    let later = first;
    for (const until = Date.now() + STATE_WAIT_MS; Date.now() < until && !ctx.signal.aborted; ) {
      await sleep(POLL_MS, ctx.signal);
      later = await listed(ctx, id);
      if (later.entry && stateOf(later.entry) !== madeState) break;
    }
    const moved = later.entry ? stateOf(later.entry) !== madeState : false;
    if (later.entry && later !== first)
      seen.push({
        where: `GET /connections ${moved ? `once its state moved on (${String(stateOf(later.entry))})` : `${STATE_WAIT_MS / 1000} s later`}`,
        createdAt: createdAtOf(later.entry),
        ex: later.ex,
      });
    const replay = await postConnection(ctx, body, { key });
    if (replay.status === 200 && dataIdOf(replay) === id)
      seen.push({
        where: 'the replay of the creation',
        createdAt: createdAtOf((replay.json as { data?: unknown }).data),
        ex: replay,
      });
    if (seen.length === 0) ctx.skip(`connection ${id} was neither listed nor replayed (see connections.schema)`);
    for (const s of seen) {
      const same = sameInstant(createdAt, s.createdAt);
      if (same === undefined)
        ctx.note(`${s.where}: createdAt ${JSON.stringify(s.createdAt)} is no date-time, not compared`);
      else
        ctx.expect.that(same, {
          expected: `${s.where} names connection ${id} with createdAt ${String(createdAt)}, the instant of its creation`,
          observed: `createdAt ${JSON.stringify(s.createdAt)}`,
          exchange: s.ex,
        });
    }
  },
});

export const createdAtChecks = [createdAtStable];
