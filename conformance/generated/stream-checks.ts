import { createLabelledConnection } from '../checks/support/connections.ts';
import {
  firstMention,
  numberingProblems,
  numericId,
  streamPath,
  streamWaitMs,
} from '../checks/support/sse-scenario.ts';
import type { SseEvent, SseSession } from '../client/sse-stream.ts';
import { type CallOptions, type CheckContext, type CheckDef, defineCheck } from '../runner/check.ts';
import { skipIfLimited } from './invariant-checks.ts';

/** A creation whose message the kit waits for on `session`; the message, or a failure that ends the check. */
async function provoke(ctx: CheckContext, session: SseSession, kind: string): Promise<SseEvent> {
  const c = await createLabelledConnection(ctx, kind);
  skipIfLimited(ctx, c.ex);
  ctx.require(c.id, { expected: 'a valid creation answers 200 with data.id (to provoke a message)', exchange: c.ex });
  const id = c.id;
  await session.readUntil((events) => firstMention(events, id) !== undefined, streamWaitMs(ctx));
  const message = firstMention(session.events, c.id);
  ctx.require(message, {
    expected: `the tenant's stream carries a message for the new connection ${c.id} within ${streamWaitMs(ctx)} ms`,
    exchange: session.ex,
  });
  // A message without a number cannot be resumed from: the interface numbers every message.
  ctx.require(message.id !== undefined && !Number.isNaN(numericId(message)), {
    expected: 'every message carries a consecutive number (an id: line), so a client can resume after it',
    observed: `the message for ${c.id} came with id ${JSON.stringify(message.id)}: ${message.data.slice(0, 120)}`,
    exchange: session.ex,
  });
  return message;
}

/**
 * Live message A, then (disconnected) B goes to the backlog; resuming after A must give B and then,
 * once the backlog is read, a NEW live message C, numbered on without gap or repeat.
 */
async function resumeIntoLive(ctx: CheckContext, how: 'cursor' | 'Last-Event-ID') {
  const first = await ctx.stream(streamPath(), { follow: true });
  skipIfLimited(ctx, first.ex);
  ctx.require(first.isStream, { expected: "GET /stream with the token opens the tenant's feed", exchange: first.ex });
  const a = await provoke(ctx, first, 'live-a');
  await first.close();
  const b = await createLabelledConnection(ctx, 'backlog-b');
  const after = numericId(a);
  const opts: CallOptions =
    how === 'cursor' ? { query: { cursor: String(after) } } : { headers: { 'Last-Event-ID': String(after) } };
  const resumed = await ctx.stream(streamPath(), { ...opts, follow: true });
  const rule = `GET /stream with ${how === 'cursor' ? `?cursor=${after}` : `Last-Event-ID: ${after}`}`;
  ctx.require(resumed.isStream, { expected: `${rule} opens the stream`, exchange: resumed.ex });
  const bId = b.id;
  if (bId) {
    await resumed.readUntil((events) => firstMention(events, bId) !== undefined, streamWaitMs(ctx));
    ctx.expect.that(firstMention(resumed.events, bId) !== undefined, {
      expected: `${rule} delivers the message written while disconnected (connection ${b.id})`,
      exchange: resumed.ex,
    });
  }
  const c = await provoke(ctx, resumed, 'live-c');
  const ids = resumed.events.map(numericId);
  const unnumbered = resumed.events.filter((e) => e.id === undefined || e.id === '');
  ctx.expect.that(unnumbered.length === 0, {
    expected: `${rule}: every message carries a number`,
    observed: `${unnumbered.length} message(s) without an id: ${unnumbered[0]?.data.slice(0, 120) ?? ''}`,
    exchange: resumed.ex,
  });
  ctx.expect.that(ids[0] === after + 1, {
    expected: `${rule} continues with message ${after + 1}`,
    observed: `it started with ${ids[0]}`,
    exchange: resumed.ex,
  });
  // Arrives exactly once: the message resumed after is not sent again (a backlog read with id >= cursor, renumbered).
  const again = resumed.events.find((e) => e.event === a.event && e.data === a.data);
  ctx.expect.that(again === undefined, {
    expected: `${rule}: message ${after}, the one resumed after, is not sent again`,
    observed: `it came again as ${JSON.stringify(again?.id)}: ${a.data.slice(0, 120)}`,
    exchange: resumed.ex,
  });
  const upToC = resumed.events.slice(0, resumed.events.indexOf(c) + 1);
  const problems = numberingProblems(upToC, after);
  ctx.expect.that(problems.length === 0, {
    expected: `${rule}: from the backlog into the new live message ${c.id}, no gap and no message twice`,
    observed: problems.slice(0, 5).join('; '),
    exchange: resumed.ex,
  });
  await resumed.close();
}

const resumeCheck = (how: 'cursor' | 'Last-Event-ID'): CheckDef =>
  defineCheck({
    name: `generated.resume-into-live-${how === 'cursor' ? 'cursor' : 'last-event-id'}`,
    title: `resuming by ${how} reads through the backlog into a new live message, numbered without gap or repeat`,
    severity: 'MUST',
    section: 'Status stream',
    tags: ['generated', 'sse', 'invariant'],
    mutating: true,
    requires: ['token'],
    run: (ctx) => resumeIntoLive(ctx, how),
  });

/**
 * Resuming from 0 ("last number read": nothing read yet) delivers the backlog from the start: after a
 * message A was numbered, a stream opened with cursor 0 carries numbered messages up to A without
 * waiting for anything new (a long retained backlog that does not reach A in time is only noted).
 */
async function resumeFromZero(ctx: CheckContext) {
  const live = await ctx.stream(streamPath(), { follow: true });
  skipIfLimited(ctx, live.ex);
  ctx.require(live.isStream, { expected: "GET /stream with the token opens the tenant's feed", exchange: live.ex });
  const a = await provoke(ctx, live, 'zero-a');
  await live.close();
  const rule = 'GET /stream?cursor=0 (nothing read yet)';
  const zero = await ctx.stream(streamPath(), { query: { cursor: '0' }, follow: true });
  ctx.require(zero.isStream, { expected: `${rule} opens the stream`, exchange: zero.ex });
  const mentioned = (events: readonly SseEvent[]) => events.some((e) => e.data === a.data && e.id === a.id);
  await zero.readUntil(mentioned, streamWaitMs(ctx));
  // Only messages numbered up to A are backlog: later ones may be other checks' new messages.
  const numbered = zero.events.filter((e) => numericId(e) <= numericId(a));
  await zero.close();
  if (!mentioned(zero.events) && numbered.length > 0)
    return ctx.note(
      `${rule}: ${numbered.length} backlog messages read, message ${a.id} not reached in ${streamWaitMs(ctx)} ms`,
    );
  ctx.expect.that(mentioned(zero.events), {
    expected: `${rule} delivers the backlog from the start, including message ${a.id} (numbered before the stream opened), without waiting for a new one`,
    observed: `${numbered.length} messages numbered up to ${a.id} in ${streamWaitMs(ctx)} ms (${zero.events.length} messages in all${zero.events[0] ? `, the first ${zero.events[0].id}` : ''})`,
    exchange: zero.ex,
  });
}

export const resumeFromZeroCheck = defineCheck({
  name: 'generated.resume-from-zero',
  title: 'a stream resumed with cursor 0 (nothing read yet) delivers the backlog from the start',
  severity: 'MUST',
  section: 'Status stream',
  tags: ['generated', 'sse', 'invariant'],
  mutating: true,
  requires: ['token'],
  run: resumeFromZero,
});

export const streamChecks = [resumeCheck('cursor'), resumeCheck('Last-Event-ID'), resumeFromZeroCheck];
