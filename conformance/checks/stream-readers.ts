// "Every message carries a consecutive number and arrives exactly once": to every reader. A broker whose live
// readers share one queue hands each message to one of them; a feed that numbers only its first tenant's
// messages numbers the others' otherwise. The scenario reads the tenant's stream twice at once (the second
// reader at the alternate address where there is one), and the second tenant's stream while a connection of
// its own is created; that stream is then resumed from the number before its message.

import type { SseEvent } from '../client/sse-stream.ts';
import { type CheckContext, defineCheck } from '../runner/check.ts';
import type { SseScenario } from './support/sse-scenario.ts';
import {
  firstMention,
  numbered,
  numberingProblems,
  requireScenario,
  streamPath,
  streamWaitMs,
} from './support/sse-scenario.ts';

/** The ids of the numbered messages that name `id` as a whole value (not inside another number or word). */
function numberedNaming(events: readonly SseEvent[], id: string): string[] {
  const whole = new RegExp(`(?:^|[^A-Za-z0-9_.-])${id.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}(?:$|[^A-Za-z0-9_-])`);
  return numbered(events)
    .filter((e) => whole.test(e.data))
    .map((e) => e.id ?? '');
}

/** The second reader of the tenant's stream: every message the first got about the kit's connections, once. */
export function judgeTwin(ctx: CheckContext, s: SseScenario) {
  const twin = s.twin;
  if (!twin?.session.isStream)
    return void ctx.note(
      `a second reader of the tenant's stream answered ${twin?.session.ex.status ?? 'nothing'}: a cap on streams per access is the deployment's; not judged`,
    );
  const where = twin.base === 'alt' ? ' at the alternate base URL' : '';
  // The second reader opened after the first: messages numbered before its first one went out before it was open.
  const twinFirst = Number(numbered(twin.events)[0]?.id);
  for (const c of s.created) {
    // The first message naming the connection exactly (a short id such as 77 is also part of other numbers and
    // times), its creation's: the second reader got it too, with its number (both were open before the creation;
    // later messages may come after either reader stopped reading). Only those numbered from the second reader's
    // first on: a numeric id may equal a value of an earlier message (its own number, as `seq: 134`).
    const mine = numberedNaming(s.events, c.id).find((n) => !Number.isFinite(twinFirst) || !(Number(n) < twinFirst));
    if (mine === undefined) continue; // judged by sse.consecutive-ids
    const theirs = new Set(numberedNaming(twin.events, c.id));
    ctx.expect.that(theirs.has(mine), {
      expected: `a second reader of the tenant's stream${where}, open at the same time, gets the message about connection ${c.id} too, with the same number (${mine})`,
      observed: `it got ${theirs.size ? [...theirs].join(', ') : 'none'} of them (${twin.events.length} message(s) in all)`,
      exchange: twin.session.ex,
    });
  }
  const problems = numberingProblems(twin.events);
  ctx.expect.that(problems.length === 0, {
    expected: `the second reader${where} gets each message once, numbered consecutively`,
    observed: problems.slice(0, 4).join('; '),
    exchange: twin.session.ex,
  });
}

/** The second tenant's stream: its connection's message numbered, consecutively, and resumed after it. */
async function judgeOtherTenant(ctx: CheckContext, s: SseScenario) {
  const other = s.other;
  if (!other) return;
  if (!other.session.isStream || !other.created)
    return void ctx.note(
      `the second tenant's stream answered ${other.session.ex.status}${other.created ? '' : ' or its creation failed'}: not judged`,
    );
  const mention = firstMention(other.events, other.created);
  ctx.expect.that(mention !== undefined, {
    expected: `the creation of connection ${other.created} for tenant ${other.tenant} shows up on that tenant's stream within ${streamWaitMs(ctx)} ms`,
    observed: `${other.events.length} message(s) read, none naming it`,
    exchange: other.session.ex,
  });
  const problems = [
    ...numberingProblems(other.events),
    ...(mention && !mention.id ? ['its message about the connection has no number'] : []),
  ];
  ctx.expect.that(problems.length === 0, {
    expected: `tenant ${other.tenant}'s stream numbers its messages consecutively, as the first tenant's does (${numbered(other.events).length} numbered)`,
    observed: problems.slice(0, 4).join('; '),
    exchange: other.session.ex,
  });
  // Resumed from the number before its message (cursor, then Last-Event-ID): that message comes next, once.
  const id = mention?.id && /^\d+$/.test(mention.id) ? Number(mention.id) : undefined;
  if (id === undefined || id < 1) return;
  for (const how of ['cursor', 'Last-Event-ID'] as const) {
    const from = String(id - 1);
    const resumed = await ctx.stream(streamPath(), {
      tenant: other.tenant,
      follow: true,
      ...(how === 'cursor' ? { query: { cursor: from } } : { headers: { 'Last-Event-ID': from } }),
    });
    if (resumed.isStream) await resumed.readUntil((events) => numbered(events).length > 0, streamWaitMs(ctx));
    await resumed.close();
    const next = numbered(resumed.events)[0];
    ctx.expect.that(resumed.isStream && next?.id === String(id), {
      expected: `tenant ${other.tenant}'s stream resumed with ${how} ${from} continues with message ${id} (its connection's), as the first tenant's resumes`,
      observed: resumed.isStream ? `first numbered message: ${next?.id ?? 'none'}` : `${resumed.ex.status}`,
      exchange: resumed.ex,
    });
  }
}

export const everyReader = defineCheck({
  name: 'sse.every-reader',
  title:
    "every reader gets every message with its number: a second reader of the tenant's stream open at once (at the alternate address where given) gets the same numbered messages, once; the second tenant's stream numbers its own consecutively and resumes after them",
  severity: 'MUST',
  section: 'Status stream',
  tags: ['sse', 'events'],
  mutating: true,
  requires: ['token'],
  async run(ctx: CheckContext) {
    const s = await requireScenario(ctx);
    judgeTwin(ctx, s);
    await judgeOtherTenant(ctx, s);
  },
});
