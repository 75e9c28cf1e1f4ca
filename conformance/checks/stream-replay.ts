import type { SseEvent } from '../client/sse-stream.ts';
import { type CheckContext, defineCheck } from '../runner/check.ts';
import {
  numbered,
  numberingProblems,
  numericId,
  READ_PAST_MS,
  requireScenario,
  sseScenario,
  streamPath,
} from './support/sse-scenario.ts';

/** How long the late resume reads: the replay of what happened meanwhile comes at once. */
const LATE_READ_MS = 2 * READ_PAST_MS;

/** The ids of every connection the run created (their messages are status messages). */
const createdIds = (answers: readonly { ex: { method: string; url: string; status: number; json?: unknown } }[]) =>
  answers
    .filter(({ ex }) => ex.method === 'POST' && ex.status === 200 && new URL(ex.url).pathname.endsWith('/connections'))
    .map(({ ex }) => (ex.json as { data?: { id?: unknown } } | undefined)?.data?.id)
    .filter((id): id is string => typeof id === 'string' && id.length >= 4);

/**
 * Messages without an id that name one of `ids`: status messages of a connection that carry no number.
 * @example unnumberedChanges(events, ['conn_1']) // the `connection.state_changed` message without an `id:` line
 */
export const unnumberedChanges = (events: readonly SseEvent[], ids: readonly string[]) =>
  events.filter((e) => !numbered([e]).length && ids.some((id) => e.data.includes(id)));

export const lateResume = defineCheck({
  name: 'sse.resume-late',
  title:
    "a stream resumed at the run's end after the last message the kit read live continues right after it, every message numbered: what happened meanwhile (state changes included) comes without gaps",
  severity: 'MUST',
  section: 'Status stream',
  tags: ['sse', 'events'],
  mutating: true,
  requires: ['token'],
  // After the other checks: the run's later creations and its connections' state changes happened since.
  judgesRun: true,
  async run(ctx: CheckContext) {
    const s = await requireScenario(ctx);
    const live = numbered(s.events)
      .map(numericId)
      .filter((n) => !Number.isNaN(n));
    if (!live.length) ctx.skip('the live stream carried no numbered message (see sse.consecutive-ids)');
    const last = Math.max(...live);
    const session = await ctx.stream(streamPath(), { headers: { 'Last-Event-ID': String(last) } });
    const rule = `GET /stream with Last-Event-ID: ${last} at the end of the run`;
    ctx.require(session.isStream, { expected: `${rule} opens the stream (200)`, exchange: session.ex });
    await session.readUntil(() => false, LATE_READ_MS);
    await session.close();
    const resumed = numbered(session.events);
    const first = resumed[0] ? numericId(resumed[0]) : undefined;
    if (first !== undefined)
      ctx.expect.that(first === last + 1, {
        expected: `${rule} continues with message ${last + 1}`,
        observed: `it started with ${resumed[0]?.id}`,
        exchange: session.ex,
      });
    const problems = numberingProblems(resumed, first === last + 1 ? last : undefined);
    ctx.expect.that(problems.length === 0, {
      expected: `${rule}: no gap and no message twice`,
      observed: problems.slice(0, 5).join('; '),
      exchange: session.ex,
    });
    const unnumbered = unnumberedChanges(session.events, createdIds(ctx.exchanges()));
    ctx.expect.that(unnumbered.length === 0, {
      expected: `${rule}: every message about a connection carries its consecutive number`,
      observed: `${unnumbered.length} message(s) without an id, e.g. ${JSON.stringify(unnumbered[0]?.data.slice(0, 160))}`,
      exchange: session.ex,
    });
    ctx.note(`${session.events.length} message(s) since ${last}`);
  },
});

/** Last numbers read past anything a deployment has sent: one past 2^53, and one past 64 bits. */
const PAST_NEWEST = ['9007199254740993', '99999999999999999999'];

export const pastNewest = defineCheck({
  name: 'sse.resume-past-newest',
  title:
    'a stream resumed from a number past the newest message (a few past the newest the run read, or past 2^53; cursor or Last-Event-ID) sends nothing numbered at or below it: the number is the last one read, never read as 0',
  severity: 'MUST',
  section: 'Status stream',
  tags: ['sse', 'events'],
  mutating: false,
  // After the other checks: the run's messages are the backlog a misread cursor would replay.
  judgesRun: true,
  async run(ctx: CheckContext) {
    // A few past the newest number the run's own stream read, where it read one (a value any deployment
    // holds; the stream scenario writes, so not in a read-only run).
    const seen =
      ctx.target.hasToken && ctx.profile === 'full' ? numbered((await sseScenario(ctx)).events).map(numericId) : [];
    const newest = Math.max(-1, ...seen.filter((n) => Number.isSafeInteger(n)));
    const tries = [
      ...(newest >= 0 ? [{ cursor: String(newest + 5), how: 'query' as const }] : []),
      ...PAST_NEWEST.map((cursor) => ({ cursor, how: 'query' as const })),
      { cursor: PAST_NEWEST[0] ?? '', how: 'header' as const },
    ];
    const access = ctx.target.hasToken ? {} : { credentials: 'none' as const };
    for (const { cursor, how } of tries) {
      // With the run's credentials where it has them: a deployment may send a tenant's messages only to it.
      const s = await ctx.stream(
        streamPath(),
        how === 'query' ? { ...access, query: { cursor } } : { ...access, headers: { 'Last-Event-ID': cursor } },
      );
      const call = how === 'query' ? `GET /stream?cursor=${cursor}` : `GET /stream with Last-Event-ID: ${cursor}`;
      // Refusing a number out of the deployment's range is limits.cursor's to judge (a 4xx, never a 5xx).
      if (!s.isStream) {
        await s.close();
        ctx.note(`${call} answered ${s.ex.status}: not a stream, nothing to judge here`);
        continue;
      }
      const early = (events: readonly SseEvent[]) =>
        numbered(events).filter((e) => /^\d+$/.test(e.id ?? '') && BigInt(e.id ?? '') <= BigInt(cursor));
      await s.readUntil((events) => early(events).length > 0, READ_PAST_MS);
      await s.close();
      const again = early(s.events);
      ctx.expect.that(again.length === 0, {
        expected: `${call}: nothing numbered at or below the last number read comes (no replay from the start)`,
        observed: `message(s) ${again
          .slice(0, 5)
          .map((e) => e.id)
          .join(', ')}${again.length > 5 ? ' …' : ''} came`,
        exchange: s.ex,
      });
    }
  },
});
