// The status stream resumed at its edges: at the newest number read (nothing in the backlog) and one beyond it
// (a number within the cursor's limit that the feed has not sent yet). Judged against a live reader of the same
// feed opened before, so each message's number is known from a reader nobody resumed.
import type { SseEvent, SseSession } from '../client/sse-stream.ts';
import { type CheckContext, defineCheck } from '../runner/check.ts';
import { createLabelledConnection } from './support/connections.ts';
import { disagreements, readUntilQuiet, repeatsWithin } from './support/sse-once.ts';
import {
  firstMention,
  numbered,
  numberingProblems,
  numericId,
  READ_PAST_MS,
  streamPath,
  streamWaitMs,
} from './support/sse-scenario.ts';

interface EdgeScenario {
  live: SseSession;
  /** The newest number the live reader had read when the two resumed readers opened. */
  newest: number;
  /** The message numbered `newest`, as the live reader got it. */
  newestMessage: SseEvent;
  atNewest: SseSession;
  beyond: SseSession;
  /** The connections created after the resumed readers opened (their messages come to all three). */
  created: string[];
}

/**
 * A live reader, one creation read on it, then readers resumed at the newest number read and one beyond it, and
 * two more creations read on all three. Once per run, shared by the edge checks.
 */
function edgeScenario(ctx: CheckContext): Promise<EdgeScenario | string> {
  return ctx.shared('sse-edge-scenario', async () => {
    const live = await ctx.stream(streamPath(), { follow: true });
    if (!live.isStream) return `GET /stream with the token answered ${live.ex.status} (see sse.content-type)`;
    const first = (await createLabelledConnection(ctx, 'edge')).id;
    if (!first) return 'the kit could not create a connection to produce a message (see idempotency.*)';
    await live.readUntil((events) => firstMention(events, first) !== undefined, streamWaitMs(ctx));
    // Until the feed falls quiet: the newest number read is then the feed's newest (no message on its way).
    await readUntilQuiet(live, READ_PAST_MS, streamWaitMs(ctx));
    const newestMessage = numbered(live.events)
      .filter((e) => !Number.isNaN(numericId(e)))
      .sort((x, y) => numericId(y) - numericId(x))[0];
    if (!newestMessage) return 'the live stream carried no numbered message (see sse.consecutive-ids)';
    const newest = numericId(newestMessage);
    const atNewest = await ctx.stream(streamPath(), { query: { cursor: String(newest) }, follow: true });
    const beyond = await ctx.stream(streamPath(), { query: { cursor: String(newest + 1) }, follow: true });
    const created: string[] = [];
    for (let i = 0; i < 2; i++) {
      const id = (await createLabelledConnection(ctx, 'edge')).id;
      if (id) created.push(id);
    }
    const all = (events: readonly SseEvent[]) => created.every((id) => firstMention(events, id));
    const open = [live, atNewest, beyond].filter((s) => s.isStream);
    await Promise.all(open.map((s) => s.readUntil(all, streamWaitMs(ctx))));
    await Promise.all(open.map((s) => s.readUntil(() => false, READ_PAST_MS)));
    await Promise.all([live.close(), atNewest.close(), beyond.close()]);
    return { live, newest, newestMessage, atNewest, beyond, created };
  });
}

async function requireEdges(ctx: CheckContext): Promise<EdgeScenario> {
  const s = await edgeScenario(ctx);
  if (typeof s === 'string') return ctx.skip(s);
  if (s.created.length < 2) ctx.skip('could not create two connections to produce messages (see idempotency.*)');
  return s;
}

export const resumeAtEdges = defineCheck({
  name: 'sse.resume-at-edges',
  title:
    'a stream resumed at the newest number read continues right after it, and one resumed beyond it numbers each message as a live reader of the same feed does: no message twice, none renumbered',
  severity: 'MUST',
  section: 'Status stream',
  tags: ['sse', 'events'],
  mutating: true,
  requires: ['token'],
  // One at a time after the checks that make calls: the newest number read stays the newest while the resumed
  // readers open (other checks' creations would move it, and make "at the newest" an ordinary resume).
  alone: true,
  async run(ctx: CheckContext) {
    const s = await requireEdges(ctx);
    const rule = `GET /stream?cursor=${s.newest} (the newest number read)`;
    ctx.require(s.atNewest.isStream, { expected: `${rule} opens the stream (200)`, exchange: s.atNewest.ex });
    const resumed = numbered(s.atNewest.events);
    ctx.expect.that(resumed[0] !== undefined && numericId(resumed[0]) === s.newest + 1, {
      expected: `${rule} continues with message ${s.newest + 1}`,
      observed: resumed[0] ? `it started with ${resumed[0].id}` : `no numbered message within ${streamWaitMs(ctx)} ms`,
      exchange: s.atNewest.ex,
    });
    const again = resumed.find((e) => e.event === s.newestMessage.event && e.data === s.newestMessage.data);
    ctx.expect.that(again === undefined, {
      expected: `${rule}: message ${s.newest}, the one resumed after, is not sent again`,
      observed: `it came again as ${JSON.stringify(again?.id)}`,
      exchange: s.atNewest.ex,
    });
    const missing = s.created.filter((id) => !firstMention(s.atNewest.events, id));
    ctx.expect.that(missing.length === 0, {
      expected: `${rule} delivers the messages of the connections created after it opened`,
      observed: `none for ${missing.join(', ')} within ${streamWaitMs(ctx)} ms`,
      exchange: s.atNewest.ex,
    });
    const problems = [
      ...numberingProblems(resumed, s.newest),
      ...disagreements(s.live.events, s.atNewest.events, { complete: true, from: s.newest }),
      ...repeatsWithin(s.atNewest.events, s.created),
    ];
    ctx.expect.that(problems.length === 0, {
      expected: `${rule}: every message under the number the live reader got it with, consecutive, once`,
      observed: problems.slice(0, 4).join('; '),
      exchange: s.atNewest.ex,
    });
    // Beyond the newest: whether it opens is the deployment's choice (the interface does not say; some answer 400,
    // some wait, some restart the feed with a notice); a message it does send keeps its number.
    if (!s.beyond.isStream)
      return ctx.note(
        `GET /stream?cursor=${s.newest + 1} (one beyond the newest) answered ${s.beyond.ex.status}: not judged`,
      );
    const renumbered = [...disagreements(s.live.events, s.beyond.events), ...repeatsWithin(s.beyond.events, s.created)];
    ctx.expect.that(renumbered.length === 0, {
      expected: `GET /stream?cursor=${s.newest + 1} (one beyond the newest number read): every message it sends carries the number a live reader got it with, once (the cursor moves no counter)`,
      observed: renumbered.slice(0, 4).join('; '),
      exchange: s.beyond.ex,
    });
  },
});

export const resumeBothPositions = defineCheck({
  name: 'sse.resume-both-positions',
  title:
    'a stream asked with ?cursor= and Last-Event-ID naming the same number (as an EventSource reconnecting to a cursor address sends) opens',
  severity: 'SHOULD',
  section: 'GET /api/public/v1/stream',
  tags: ['sse'],
  mutating: true,
  requires: ['token'],
  // Shares the edge scenario, which runs alone (sse.resume-at-edges).
  alone: true,
  async run(ctx: CheckContext) {
    const s = await requireEdges(ctx);
    const at = String(s.newest);
    const both = await ctx.stream(streamPath(), { query: { cursor: at }, headers: { 'Last-Event-ID': at } });
    await both.close();
    // Both parameters are optional and neither excludes the other: what each resumes from is sse.resume-cursor's.
    ctx.expect.that(both.isStream, {
      expected: `GET /stream?cursor=${at} with Last-Event-ID: ${at} opens the stream (200): the interface lists both as optional parameters naming the last number read, neither excluding the other`,
      observed: `${both.ex.status}`,
      exchange: both.ex,
    });
  },
});

export const streamEdgeChecks = [resumeAtEdges, resumeBothPositions];
