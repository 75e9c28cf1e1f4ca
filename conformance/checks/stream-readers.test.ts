import { describe, expect, it } from 'vitest';
import type { SseEvent } from '../client/sse-stream.ts';
import type { CheckContext } from '../runner/check.ts';
import { judgeTwin } from './stream-readers.ts';
import type { SseScenario } from './support/sse-scenario.ts';

/** A message numbered `n` carrying its number in its data (as `seq`), about connection `about`. */
const msg = (n: number, about: number): SseEvent => ({
  id: String(n),
  event: 'connection.created',
  data: JSON.stringify({ seq: n, connectionId: about }),
});
const range = (from: number, to: number, about: (n: number) => number) =>
  Array.from({ length: to - from + 1 }, (_, i) => msg(from + i, about(from + i)));

function judged(first: SseEvent[], twin: SseEvent[], created: string[]) {
  const failures: string[] = [];
  const ctx = {
    note: () => undefined,
    expect: {
      that: (ok: boolean, f: { expected: string }) => {
        if (!ok) failures.push(f.expected);
        return ok;
      },
    },
  } as unknown as CheckContext;
  const session = { ex: {}, isStream: true, events: twin } as unknown as SseScenario['tenant'];
  const s = { events: first, created: created.map((id) => ({ id })), twin: { session, events: twin, base: 'alt' } };
  judgeTwin(ctx, s as unknown as SseScenario);
  return failures;
}

describe('sse.every-reader: the second reader of the tenant stream', () => {
  it("is not held to a message numbered before its first, whose number equals a connection's id (ginkgo, run AM)", () => {
    // The first reader opened at 120; the second at 154, after 20 messages of other checks. Connection 134 is
    // created at 170: message 134 (about connection 99) names 134 as its own number only.
    const first = range(120, 175, (n) => (n === 170 ? 134 : 99));
    const twin = range(154, 175, (n) => (n === 170 ? 134 : 99));
    expect(judged(first, twin, ['134'])).toEqual([]);
  });

  it('still fails a second reader missing the creation message it was open for', () => {
    const first = range(120, 175, (n) => (n === 170 ? 134 : 99));
    const twin = range(154, 175, (n) => (n === 170 ? 134 : 99)).filter((e) => e.id !== '170');
    expect(judged(first, twin, ['134'])).toContainEqual(expect.stringContaining('about connection 134 too'));
  });
});
