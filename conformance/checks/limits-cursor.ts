import { LIMITS } from '../../simulator/contract/limits.ts';
import { type CheckContext, defineCheck } from '../runner/check.ts';
import { streamPath } from './support/sse-scenario.ts';

export const cursorMinimum = defineCheck({
  name: 'limits.cursor',
  title: `cursor: ${LIMITS.cursor.min} opens the stream, ${LIMITS.cursor.min - 1} answers 400 invalid_request, an integer past 2^53 or a Last-Event-ID that is no number is no fault (200 or 4xx)`,
  severity: 'MUST',
  section: 'Limits',
  tags: ['limits', 'validation', 'sse'],
  mutating: false,
  async run(ctx: CheckContext) {
    // At the alternate address too: the same interface.
    const bases = ctx.target.altBaseUrl ? (['main', 'alt'] as const) : (['main'] as const);
    for (const base of bases)
      for (const cursor of [LIMITS.cursor.min, LIMITS.cursor.min - 1]) {
        const s = await ctx.stream(streamPath(), { credentials: 'none', base, query: { cursor: String(cursor) } });
        await s.close();
        const rule = `GET /stream?cursor=${cursor} (integer, minimum ${LIMITS.cursor.min})${base === 'alt' ? ' at the alternate base URL' : ''}`;
        if (cursor >= LIMITS.cursor.min)
          ctx.expect.that(s.isStream, { expected: `${rule} opens the stream (200)`, exchange: s.ex });
        else ctx.expect.errorCode(s.ex, 'invalid_request', `${rule} answers 400 invalid_request`);
      }
    // An integer with no maximum: one past what a double holds exactly (2^53) or a 64-bit integer holds is
    // still a cursor, to be served (nothing after it yet) or refused as out of the deployment's range, never
    // a fault of the service.
    // Last-Event-ID is a header's text ("last number read"): one that is no number is the client's mistake, answered
    // 400 or read as no position (a stream from the start or from now), never a fault of the service.
    const odd = await ctx.stream(streamPath(), { credentials: 'none', headers: { 'Last-Event-ID': 'not-a-number' } });
    await odd.close();
    ctx.expect.that(odd.isStream || (odd.ex.status >= 400 && odd.ex.status < 500), {
      expected: 'GET /stream with Last-Event-ID: not-a-number opens the stream or is refused with a 4xx, never a 5xx',
      exchange: odd.ex,
    });
    for (const cursor of ['9007199254740993', '99999999999999999999']) {
      const s = await ctx.stream(streamPath(), { credentials: 'none', query: { cursor } });
      await s.close();
      ctx.expect.that(s.isStream || (s.ex.status >= 400 && s.ex.status < 500), {
        expected: `GET /stream?cursor=${cursor} (an integer past 2^53) opens the stream or is refused with a 4xx, never a 5xx`,
        exchange: s.ex,
      });
    }
  },
});
