// "Every message carries a consecutive number and arrives exactly once": to every reader. A broker whose live
// readers share one queue hands each message to one of them; a feed that numbers only its first tenant's
// messages numbers the others' otherwise. The scenario reads the tenant's stream twice at once, and the
// second tenant's stream while a connection of its own is created.
import { type CheckContext, defineCheck } from '../runner/check.ts';
import { firstMention, numbered, numberingProblems, requireScenario, streamWaitMs } from './support/sse-scenario.ts';

export const everyReader = defineCheck({
  name: 'sse.every-reader',
  title:
    "every reader gets every message with its number: a second reader of the tenant's stream open at once gets the same numbered messages; the second tenant's stream numbers its own consecutively",
  severity: 'MUST',
  section: 'Status stream',
  tags: ['sse', 'events'],
  mutating: true,
  requires: ['token'],
  async run(ctx: CheckContext) {
    const s = await requireScenario(ctx);
    const twin = s.twin;
    if (!twin?.session.isStream)
      ctx.note(
        `a second reader of the tenant's stream answered ${twin?.session.ex.status ?? 'nothing'}: a cap on streams per access is the deployment's; not judged`,
      );
    else
      for (const c of s.created) {
        const first = firstMention(s.events, c.id);
        if (!first) continue; // judged by sse.consecutive-ids
        const there = firstMention(twin.events, c.id);
        ctx.expect.that(there !== undefined && there.id === first.id, {
          expected: `a second reader of the tenant's stream, open at the same time, gets the message about connection ${c.id} too, with the same number (${first.id ?? 'none'})`,
          observed: there
            ? `its number there: ${there.id ?? 'none'}`
            : `none of its ${twin.events.length} message(s) names it`,
          exchange: twin.session.ex,
        });
      }
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
  },
});
