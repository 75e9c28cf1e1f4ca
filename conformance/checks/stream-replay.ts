import type { SseEvent } from '../client/sse-stream.ts';
import { type CheckContext, defineCheck } from '../runner/check.ts';
import { namesValue } from './support/names-value.ts';
import { disagreements, readUntilQuiet, repeatsWithin } from './support/sse-once.ts';
import {
  numbered,
  numberingProblems,
  numericId,
  READ_PAST_MS,
  requireScenario,
  streamPath,
} from './support/sse-scenario.ts';

/** The late resume reads until nothing came for this long (the replay of what happened meanwhile comes at once). */
const QUIET_MS = READ_PAST_MS;
/** At most this long: a feed that never falls quiet (a deployment's own traffic) is read this long. */
const LATE_READ_MAX_MS = 5000;

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
  events.filter((e) => !numbered([e]).length && ids.some((id) => namesValue(e.data, id)));

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
    const rule = `GET /stream with Last-Event-ID: ${last} at the end of the run`;
    const readSince = async () => {
      const session = await ctx.stream(streamPath(), { headers: { 'Last-Event-ID': String(last) } });
      ctx.require(session.isStream, { expected: `${rule} opens the stream (200)`, exchange: session.ex });
      await readUntilQuiet(session, QUIET_MS, LATE_READ_MAX_MS);
      await session.close();
      return session;
    };
    const session = await readSince();
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
    const created = createdIds(ctx.exchanges());
    const unnumbered = unnumberedChanges(session.events, created);
    ctx.expect.that(unnumbered.length === 0, {
      expected: `${rule}: every message about a connection carries its consecutive number`,
      observed: `${unnumbered.length} message(s) without an id, e.g. ${JSON.stringify(unnumbered[0]?.data.slice(0, 160))}`,
      exchange: session.ex,
    });
    // Arrives exactly once: no message about a connection comes twice under two numbers (announced again by a
    // second publisher), and the same position read again gives the same messages under the same numbers, none
    // left out (a backlog query keeping one message per connection, or resuming by time and losing the rest of a
    // burst, shows only once the messages were read before).
    const repeats = repeatsWithin(session.events, created);
    ctx.expect.that(repeats.length === 0, {
      expected: `${rule}: every message about a connection arrives once, under one number`,
      observed: repeats.slice(0, 3).join('; '),
      exchange: session.ex,
    });
    let again = await readSince();
    let differ = disagreements(session.events, again.events, { complete: true, from: last });
    // A token that expired between the reads opens the public feed, numbered on its own: once more, renewed.
    if (differ.length && (await ctx.renewToken())) {
      ctx.note(`${rule}: the second read disagreed; read again with a renewed token`);
      again = await readSince();
      differ = disagreements(session.events, again.events, { complete: true, from: last });
    }
    ctx.expect.that(differ.length === 0, {
      expected: `${rule}, read twice in a row: the second read carries the first one's messages under the same numbers, none left out`,
      observed: differ.slice(0, 3).join('; '),
      exchange: again.ex,
    });
    ctx.note(`${session.events.length} message(s) since ${last}`);
  },
});
