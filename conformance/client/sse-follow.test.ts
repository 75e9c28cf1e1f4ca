import { describe, expect, it } from 'vitest';
import type { Exchange } from './exchange.ts';
import { followStream, MAX_FOLLOWED_CHARS, MAX_RECONNECTS } from './sse-follow.ts';
import type { SseEvent, SseSession } from './sse-stream.ts';

const EX = { method: 'GET', url: 'http://x/stream', status: 200 } as Exchange;

/** A connection that delivers `events` and then ends (or, with `stream: false`, a refusal). */
function connection(events: SseEvent[], stream = true): SseSession & { closed: boolean } {
  const read: SseEvent[] = [];
  return {
    ex: EX,
    isStream: stream,
    events: read,
    closed: false,
    async readUntil(done) {
      for (const e of events) {
        if (done(read)) break;
        read.push(e);
      }
      return read;
    },
    async close() {
      this.closed = true;
    },
  };
}
const ev = (id: number) => ({ id: String(id), data: `m${id}` });

describe('a stream followed across the deployment ending it', () => {
  it('reconnects with the last id read until the read is done, the events of every connection in order', async () => {
    const asked: (string | undefined)[] = [];
    const next = [connection([ev(3), ev(4)]), connection([ev(5)])];
    const first = connection([ev(1), ev(2)]);
    const s = followStream(first, async (lastId) => {
      asked.push(lastId);
      return next.shift() ?? connection([]);
    });
    const events = await s.readUntil((e) => e.some((x) => x.id === '5'), 2000);
    expect(events.map((e) => e.id)).toEqual(['1', '2', '3', '4', '5']);
    expect(asked).toEqual(['2', '4']);
    expect(first.closed).toBe(true);
    expect(s.ex).toBe(EX);
  });

  it('follows a stream ended after every two messages as long as it moves on, past the reconnects in a row it allows', async () => {
    let n = 2;
    const s = followStream(connection([ev(1), ev(2)]), async () => {
      n += 2;
      return connection([ev(n - 1), ev(n)]);
    });
    // 60 connections of two: three times the reconnects in a row allowed without news.
    const events = await s.readUntil((e) => e.some((x) => x.id === '120'), 5000);
    expect(events).toHaveLength(120);
    let empty = 0;
    const dry = followStream(connection([ev(1)]), async () => {
      empty++;
      return connection([]);
    });
    await dry.readUntil(() => false, 5000);
    expect(empty).toBe(MAX_RECONNECTS);
  });

  it('stops at a reconnect that is no stream, and when the time is up', async () => {
    const s = followStream(connection([ev(1)]), async () => connection([], false));
    expect((await s.readUntil(() => false, 2000)).map((e) => e.id)).toEqual(['1']);
    let opened = 0;
    const slow = followStream(connection([]), async () => {
      opened++;
      return connection([]);
    });
    await slow.readUntil(() => false, 50);
    expect(opened).toBe(0);
  });

  it('does not follow a read that already holds more text than the kit keeps (bounded in bytes, not only in count)', async () => {
    let opened = 0;
    const big = followStream(connection([{ id: '1', data: 'x'.repeat(MAX_FOLLOWED_CHARS + 1) }]), async () => {
      opened++;
      return connection([]);
    });
    await big.readUntil(() => false, 2000);
    expect(opened).toBe(0);
  });
});
