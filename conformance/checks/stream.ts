import type { SseSession } from '../client/sse-stream.ts';
import { type CheckContext, defineCheck } from '../runner/check.ts';
import { lateResume, unnumberedChanges } from './stream-replay.ts';
import {
  checkResume,
  firstMention,
  numbered,
  numberingProblems,
  requireScenario,
  streamPath,
  streamWaitMs,
} from './support/sse-scenario.ts';

const STREAM = 'GET /api/public/v1/stream' as const;

function expectEventStream(ctx: CheckContext, s: SseSession, rule: string) {
  if (!ctx.expect.status(s.ex, 200, `${rule} answers 200`)) return;
  ctx.expect.that((s.ex.headers['content-type'] ?? '').toLowerCase().startsWith('text/event-stream'), {
    expected: `${rule} answers with content type text/event-stream`,
    observed: `content-type ${s.ex.headers['content-type'] ?? '(none)'}`,
    exchange: s.ex,
  });
}

export const contentType = defineCheck({
  name: 'sse.content-type',
  title:
    'the stream answers 200 text/event-stream, without credentials and with them, and to Last-Event-ID 0 (the lowest number: nothing read yet)',
  severity: 'MUST',
  section: STREAM,
  tags: ['sse', 'events'],
  mutating: false,
  async run(ctx: CheckContext) {
    const pub = await ctx.stream(streamPath(), { credentials: 'none' });
    expectEventStream(ctx, pub, 'GET /stream without credentials');
    if (ctx.target.hasToken)
      expectEventStream(ctx, await ctx.stream(streamPath()), 'GET /stream with the token and tenant header');
    // "cursor: integer, minimum 0" and Last-Event-ID its header form: 0 is a value, not a missing one.
    const zero = await ctx.stream(streamPath(), { credentials: 'none', headers: { 'Last-Event-ID': '0' } });
    await zero.close();
    expectEventStream(ctx, zero, 'GET /stream with Last-Event-ID: 0');
    // The same at the alternate address, as a reader of the tenant would resume there.
    if (ctx.target.altBaseUrl) {
      const credentials = ctx.target.hasToken ? ('token' as const) : ('none' as const);
      const there = await ctx.stream(streamPath(), { base: 'alt', credentials, headers: { 'Last-Event-ID': '0' } });
      await there.close();
      expectEventStream(ctx, there, 'GET /stream at the alternate base URL with Last-Event-ID: 0');
    }
  },
});

/** Cursor values that are not a whole number (the Limits row: integer, minimum 0; the negative one is limits.cursor's). */
const MALFORMED_CURSORS = ['abc', '1.5', '7x'];

export const malformedCursor = defineCheck({
  name: 'sse.malformed-cursor',
  title: 'a cursor that is not a whole number answers 400 invalid_request with the failure envelope, not a stream',
  severity: 'MUST',
  section: STREAM,
  tags: ['sse', 'validation'],
  mutating: false,
  async run(ctx: CheckContext) {
    for (const cursor of MALFORMED_CURSORS) {
      const s = await ctx.stream(streamPath(), { credentials: 'none', query: { cursor } });
      await s.close();
      ctx.expect.errorCode(s.ex, 'invalid_request', `GET /stream?cursor=${cursor} answers 400 invalid_request`);
    }
  },
});

export const consecutiveIds = defineCheck({
  name: 'sse.consecutive-ids',
  title: 'every message carries the next consecutive number and arrives exactly once',
  severity: 'MUST',
  section: 'Status stream',
  tags: ['sse', 'events'],
  mutating: true,
  requires: ['token'],
  async run(ctx: CheckContext) {
    const s = await requireScenario(ctx);
    // A message without an id that names none of the run's connections may be a keep-alive or control
    // message (a deployment's own choice of how to keep the line open); one that carries a change of a
    // connection is a status message, and "every message carries a consecutive number".
    const withoutId = s.events.filter((e) => !numbered([e]).length);
    const changes = unnumberedChanges(
      s.events,
      s.created.map((c) => c.id),
    );
    if (withoutId.length > changes.length)
      ctx.note(
        `${withoutId.length - changes.length} message(s) without an id naming no connection (control messages) were not judged`,
      );
    ctx.expect.that(changes.length === 0, {
      expected: 'every message carrying a change of a connection has an id (its consecutive number)',
      observed: `${changes.length} message(s) about the run's connections without an id, e.g. ${JSON.stringify(changes[0]?.data.slice(0, 160))}`,
      exchange: s.tenant.ex,
    });
    const problems = numberingProblems(s.events);
    ctx.expect.that(problems.length === 0, {
      expected: 'message ids go up by one: no gap, no repeat',
      observed: problems.slice(0, 5).join('; '),
      exchange: s.tenant.ex,
    });
    for (const c of s.created) {
      ctx.expect.that(firstMention(s.events, c.id) !== undefined, {
        expected: `the creation of connection ${c.id} shows up on the tenant's stream within ${streamWaitMs(ctx)} ms`,
        observed: `${s.events.length} message(s) read, none naming it`,
        exchange: s.tenant.ex,
      });
    }
  },
});

export const resumeLastEventId = defineCheck({
  name: 'sse.resume-last-event-id',
  title: 'a stream resumed with Last-Event-ID continues right after that message: no gap, no repeat',
  severity: 'MUST',
  section: 'Status stream',
  tags: ['sse', 'events'],
  mutating: true,
  requires: ['token'],
  run: (ctx) => checkResume(ctx, 'Last-Event-ID'),
});

export const resumeCursor = defineCheck({
  name: 'sse.resume-cursor',
  title: 'a stream resumed with ?cursor= continues right after that message: no gap, no repeat',
  severity: 'MUST',
  section: 'Status stream',
  tags: ['sse', 'events'],
  mutating: true,
  requires: ['token'],
  run: (ctx) => checkResume(ctx, 'cursor'),
});

/** Every string in a message's data (parsed as JSON when it is), to find a tenant's values in it. */
function stringsOf(data: string): string[] {
  let parsed: unknown;
  try {
    parsed = JSON.parse(data);
  } catch {
    return [data];
  }
  const out: string[] = [];
  const walk = (v: unknown): void => {
    if (typeof v === 'string') out.push(v);
    else if (Array.isArray(v)) v.forEach(walk);
    else if (v && typeof v === 'object') Object.values(v).forEach(walk);
  };
  walk(parsed);
  return out;
}

export const publicWithoutCredentials = defineCheck({
  name: 'sse.public-without-credentials',
  title: "the stream read without credentials carries none of a tenant's data (its tenant id, its descriptive names)",
  severity: 'SHOULD',
  section: STREAM,
  tags: ['sse', 'security'],
  mutating: true,
  requires: ['token'],
  async run(ctx: CheckContext) {
    const s = await requireScenario(ctx);
    // The stream is public and carries state changes, and a message's payload is not shown: a public
    // message naming a connection and its state is the interface's own design. What tenant isolation
    // keeps from anonymous readers is the tenant's data: its identifier and the names it gave
    // (scopeLabel, "the name of the venue").
    const labels = s.created
      .map((c) => (c.ex.json as { data?: { scopeLabel?: unknown } } | undefined)?.data?.scopeLabel)
      .filter((l): l is string => typeof l === 'string' && l.length >= 8);
    const tenant = ctx.target.tenant;
    const leaks = s.publicEvents.filter((e) =>
      stringsOf(e.data).some((v) => v === tenant || labels.some((l) => v.includes(l))),
    );
    ctx.expect.that(leaks.length === 0, {
      expected:
        "GET /stream without credentials does not carry the tenant's data: its tenant id or the scope labels of its new connections (only a token and tenant header open the tenant's feed)",
      observed: `the public stream carried: ${leaks
        .slice(0, 2)
        .map((e) => e.data.slice(0, 200))
        .join(' | ')}`,
      exchange: s.public.ex,
    });
  },
});

export const streamChecks = [
  lateResume,
  contentType,
  malformedCursor,
  consecutiveIds,
  resumeLastEventId,
  resumeCursor,
  publicWithoutCredentials,
];
