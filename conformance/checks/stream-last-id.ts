// "After an interruption, the client resumes without gaps by sending Last-Event-ID ... (last number read)": a
// standard client (EventSource) sends what its last event ID holds, and every block's `id:` sets that, a block
// without data too. So once a client has read a number (or resumed after one), a block of an `id:` alone must not
// move it elsewhere: an opening `retry:` block carrying `id: 0` on a resumed stream, or a heartbeat written as an
// empty `id:`, makes the next reconnect resume from the wrong place (everything again, or nothing sent).
import type { IdOnlyBlock } from '../client/exchange.ts';
import { type CheckContext, defineCheck } from '../runner/check.ts';

const said = (v: string | undefined) => (v === '' ? 'an empty id (clearing it)' : JSON.stringify(v));

export const lastEventIdKept = defineCheck({
  name: 'sse.last-event-id-kept',
  title:
    "a block of the stream without data never moves a standard client's last event ID away from the last number it read (no `id: 0` in an opening block of a resumed stream, no empty `id:` heartbeat)",
  severity: 'MUST',
  section: 'Status stream',
  tags: ['sse'],
  mutating: false,
  judgesRun: true,
  async run(ctx: CheckContext) {
    const streams = ctx.exchanges().filter(({ ex }) => ex.headers['content-type']?.includes('text/event-stream'));
    if (!streams.length) ctx.skip('no event stream was read in the run');
    const moved: { ex: (typeof streams)[number]['ex']; block: IdOnlyBlock }[] = [];
    for (const { ex } of streams)
      for (const block of ex.idOnlyBlocks ?? []) if (block.before !== undefined) moved.push({ ex, block });
    ctx.note(`${streams.length} stream(s) read; ${moved.length} block(s) of an id alone moved the last event ID`);
    const first = moved[0];
    if (!first) return;
    ctx.fail({
      expected:
        'a block without data leaves the last event ID at the last number read (a standard client resumes from it after an interruption)',
      observed: `${moved.length} block(s) of an id alone; the first, after ${first.block.afterMessages} message(s), set it from ${said(first.block.before)} to ${said(first.block.id)}`,
      exchange: first.ex,
    });
  },
});
