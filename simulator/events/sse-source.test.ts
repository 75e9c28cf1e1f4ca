import { createParser, type EventSourceMessage } from 'eventsource-parser';
import { describe, expect, it } from 'vitest';
import { drainedTo, stopStream } from '../core/stream-stop.ts';
import type { DrainTarget, StreamSink } from '../core/types.ts';
import { createClock } from '../lib/clock.ts';
import { createFeedService } from '../services/feed-service.ts';
import { createFeedStore as createFeedRepository } from '../state/feed-store.ts';
import { memoryFeeds as createFeedStore } from '../test-support/memory-streams.ts';
import { networkLike } from '../test-support/network-like.ts';
import { PUBLIC_FEED } from './feed.ts';
import { createSseSource, type IntervalTimers, type SseSourceOptions, type StreamEndReason } from './sse-source.ts';

/** A sink that records what it is given; `accept` decides what write returns. */
function fakeSink(opts: { drain?: boolean } = {}) {
  const events: EventSourceMessage[] = [];
  const comments: string[] = [];
  let retry: number | undefined;
  const parser = createParser({
    onEvent: (e) => events.push(e),
    onComment: (c) => comments.push(c),
    onRetry: (r) => (retry = r),
  });
  const state = {
    chunks: [] as string[],
    ended: 0,
    accept: true,
    drain: undefined as (() => void) | undefined,
    onWrite: undefined as ((chunk: string) => void) | undefined,
  };
  const sink: StreamSink = {
    write(chunk) {
      state.chunks.push(chunk);
      parser.feed(chunk);
      state.onWrite?.(chunk);
      return state.accept;
    },
    end() {
      state.ended++;
    },
    ...(opts.drain === false
      ? {}
      : {
          onDrain: (target: DrainTarget) => {
            state.drain = () => drainedTo(target);
          },
        }),
  };
  return {
    sink,
    state,
    events,
    comments,
    ids: () => events.filter((e) => e.id).map((e) => Number(e.id)),
    retry: () => retry,
  };
}

function fakeTimers() {
  const live = new Map<number, { fn: () => void; ms: number }>();
  let n = 0;
  const timers: IntervalTimers = {
    setInterval: (fn, ms) => (live.set(++n, { fn, ms }), n),
    clearInterval: (h) => void live.delete(h as number),
  };
  return {
    timers,
    live,
    fire: () =>
      [...live.values()].forEach((t) => {
        t.fn();
      }),
  };
}

function open(feeds: FeedStore, opts: SseSourceOptions = {}, sinkOpts: { drain?: boolean } = {}) {
  const t = fakeTimers();
  const s = fakeSink(sinkOpts);
  const ends: StreamEndReason[] = [];
  const handle = createSseSource(feeds, PUBLIC_FEED, { timers: t.timers, onEnd: (r) => ends.push(r), ...opts }).open(
    s.sink,
  );
  return { ...s, ...t, stop: () => stopStream(handle), ends };
}
const publish = (feeds: FeedStore, n: number) => {
  for (let i = 0; i < n; i++) feeds.publish(PUBLIC_FEED, 'service.status', { n: feeds.lastId(PUBLIC_FEED) + 1 });
};

type FeedStore = ReturnType<typeof createFeedStore>;

describe('SSE source', () => {
  it('starts with the retry hint and, without a cursor, carries live messages only', () => {
    const feeds = createFeedStore();
    publish(feeds, 3);
    const s = open(feeds);
    expect(s.state.chunks[0]).toBe('retry: 3000\n\n');
    expect(s.retry()).toBe(3000);
    publish(feeds, 2);
    expect(s.ids()).toEqual([4, 5]);
    expect(s.events[0]).toEqual({ id: '4', event: 'service.status', data: '{"n":4}' });
  });

  it('replays everything after the cursor, then continues live, each message exactly once', () => {
    const feeds = createFeedStore();
    publish(feeds, 5);
    const s = open(feeds, { cursor: 2, retryMs: 1500 });
    expect(s.retry()).toBe(1500);
    expect(s.ids()).toEqual([3, 4, 5]);
    publish(feeds, 2);
    expect(s.ids()).toEqual([3, 4, 5, 6, 7]);
    const fromZero = open(feeds, { cursor: 0 });
    expect(fromZero.ids()).toEqual([1, 2, 3, 4, 5, 6, 7]);
  });

  it('has no race between replay and live: messages published while replaying arrive once, in order', () => {
    const feeds = createFeedStore();
    publish(feeds, 5);
    const s = fakeSink();
    s.state.onWrite = (chunk) => {
      if (chunk.startsWith('id: 3\n') || chunk.startsWith('id: 6\n')) publish(feeds, 1);
    };
    createSseSource(feeds, PUBLIC_FEED, { cursor: 1, timers: fakeTimers().timers }).open(s.sink);
    expect(s.ids()).toEqual([2, 3, 4, 5, 6, 7]);
    publish(feeds, 1);
    expect(s.ids()).toEqual([2, 3, 4, 5, 6, 7, 8]);
  });

  it('answers an expired cursor with stream.reset, then everything retained', () => {
    const feeds = createFeedStore({ retention: 3 });
    publish(feeds, 10);
    const s = open(feeds, { cursor: 4 });
    expect(s.events[0]).toEqual({
      id: undefined,
      event: 'stream.reset',
      data: JSON.stringify({ reason: 'cursor_expired', cursor: 4, oldestRetained: 8, lastId: 10 }),
    });
    expect(s.ids()).toEqual([8, 9, 10]);
    const ok = open(feeds, { cursor: 7 });
    expect(ok.events.map((e) => e.event)).not.toContain('stream.reset');
    expect(ok.ids()).toEqual([8, 9, 10]);
    const ahead = open(feeds, { cursor: 11 });
    expect(JSON.parse(ahead.events[0]!.data)).toEqual({
      reason: 'cursor_ahead',
      cursor: 11,
      oldestRetained: 8,
      lastId: 10,
    });
    expect(ahead.ids()).toEqual([8, 9, 10]);
  });

  it('sends heartbeat comments on its interval and stops them with the stream', () => {
    const feeds = createFeedStore();
    const s = open(feeds, { heartbeatMs: 15_000 });
    expect([...s.live.values()].map((t) => t.ms)).toEqual([15_000]);
    s.fire();
    s.fire();
    expect(s.comments).toEqual(['heartbeat', 'heartbeat']);
    s.stop();
    s.stop();
    expect(s.live.size).toBe(0);
    expect(s.ends).toEqual(['stopped']);
    expect(s.state.ended).toBe(0);
    expect(feeds.subscriberCount(PUBLIC_FEED)).toBe(0);
    publish(feeds, 1);
    expect(s.ids()).toEqual([]);
  });

  it('beats every open stream from one shared timer per interval, started by the first and stopped by the last', () => {
    const feeds = createFeedStore();
    const t = fakeTimers();
    const sinks = [fakeSink(), fakeSink(), fakeSink()];
    const stops = sinks.map((s) =>
      createSseSource(feeds, PUBLIC_FEED, { timers: t.timers, heartbeatMs: 15_000 }).open(s.sink),
    );
    expect(t.live.size).toBe(1);
    sinks[1]!.state.accept = false;
    publish(feeds, 1); // the second stream is now blocked: no heartbeat for it until it drains
    t.fire();
    expect(sinks.map((s) => s.comments.length)).toEqual([1, 0, 1]);
    stopStream(stops[0]);
    t.fire();
    expect(sinks.map((s) => s.comments.length)).toEqual([1, 0, 2]);
    stopStream(stops[1]);
    stopStream(stops[2]);
    expect(t.live.size).toBe(0);
    const again = createSseSource(feeds, PUBLIC_FEED, { timers: t.timers, heartbeatMs: 15_000 }).open(fakeSink().sink);
    expect(t.live.size).toBe(1);
    stopStream(again);
    expect(t.live.size).toBe(0);
  });

  it('closes every stream that joined a shared watch, each with a final stream.closed', () => {
    const feeds = createFeedStore();
    const members = new Set<{ close(reason: string, message: string): void }>();
    const watch = { add: (m: never) => void members.add(m), delete: (m: never) => void members.delete(m) };
    const a = open(feeds, { watch });
    const b = open(feeds, { watch });
    expect(members.size).toBe(2);
    for (const m of [...members]) m.close('token_revoked', 'gone');
    for (const s of [a, b]) {
      expect(s.events.at(-1)).toEqual({
        id: undefined,
        event: 'stream.closed',
        data: JSON.stringify({ reason: 'token_revoked', message: 'gone' }),
      });
      expect(s.ends).toEqual(['closed']);
      expect(s.state.ended).toBe(1);
    }
    expect(members.size).toBe(0);
    expect(feeds.subscriberCount(PUBLIC_FEED)).toBe(0);
  });

  it('pauses for a client that is not keeping up and catches up on drain, without copying messages', () => {
    const feeds = createFeedStore();
    const s = open(feeds, { maxLagMessages: 10 });
    s.state.accept = false;
    publish(feeds, 1);
    expect(s.ids()).toEqual([1]);
    publish(feeds, 10);
    s.fire();
    expect(s.ids()).toEqual([1]);
    expect(s.comments).toEqual([]);
    s.state.accept = true;
    s.state.drain!();
    expect(s.ids()).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11]);
    expect(s.ends).toEqual([]);
  });

  it('disconnects a blocked client that falls more than maxLagMessages behind', () => {
    const feeds = createFeedStore();
    const s = open(feeds, { maxLagMessages: 10 });
    s.state.accept = false;
    publish(feeds, 11);
    expect(s.ends).toEqual([]);
    publish(feeds, 1);
    expect(s.ends).toEqual(['slow_consumer']);
    expect(s.state.ended).toBe(1);
    expect(feeds.subscriberCount(PUBLIC_FEED)).toBe(0);
    expect(s.live.size).toBe(0);
    s.state.drain!();
    s.stop();
    expect(s.ids()).toEqual([1]);
    expect(s.ends).toEqual(['slow_consumer']);
  });

  it('disconnects a blocked client whose position left the retention window', () => {
    const feeds = createFeedStore({ retention: 5 });
    const s = open(feeds, { maxLagMessages: 1_000 });
    s.state.accept = false;
    publish(feeds, 6); // wrote 1; 2..6 retained, so the client could still catch up
    expect(s.ends).toEqual([]);
    publish(feeds, 1); // 2 is gone
    expect(s.ends).toEqual(['slow_consumer']);
  });

  it('without a drain signal, ends after maxRefusedWrites refused writes in a row', () => {
    const feeds = createFeedStore();
    const s = open(feeds, { maxRefusedWrites: 5 }, { drain: false });
    s.state.accept = false;
    publish(feeds, 5);
    expect(s.ends).toEqual([]);
    publish(feeds, 1);
    expect(s.ends).toEqual(['slow_consumer']);
    expect(s.state.ended).toBe(1);
    const t = open(feeds, { maxRefusedWrites: 2 }, { drain: false });
    t.state.accept = false;
    publish(feeds, 2);
    t.state.accept = true;
    publish(feeds, 5);
    expect(t.ends).toEqual([]);
    expect(t.ids()).toEqual([7, 8, 9, 10, 11, 12, 13]);
  });
});

// Enough turns of the event loop for a repository answering each call on a later turn (networkLike), counted in
// turns rather than milliseconds: a busy machine gave 20 ms fewer turns than a replay needs (a CI run failed).
const settle = async () => {
  for (let i = 0; i < 200; i++) await new Promise((resolve) => setImmediate(resolve));
  await new Promise((resolve) => setTimeout(resolve, 20));
};

describe('SSE source over a promise-answering feed repository', () => {
  const setup = (retention = 100) =>
    createFeedService({ repository: networkLike(createFeedRepository()), clock: createClock(), retention });

  it('replays after the cursor, then carries live messages, each once and in order', async () => {
    const feeds = setup();
    for (let i = 0; i < 5; i++) await feeds.publish(PUBLIC_FEED, 'tick', i);
    const s = fakeSink();
    const ends: StreamEndReason[] = [];
    const stop = createSseSource(feeds, PUBLIC_FEED, {
      cursor: 2,
      timers: fakeTimers().timers,
      onEnd: (r) => ends.push(r),
    }).open(s.sink);
    await settle();
    expect(s.ids()).toEqual([3, 4, 5]);
    await Promise.all([feeds.publish(PUBLIC_FEED, 'tick', 5), feeds.publish(PUBLIC_FEED, 'tick', 6)]);
    await settle();
    expect(s.ids()).toEqual([3, 4, 5, 6, 7]);
    stopStream(stop);
    expect(ends).toEqual(['stopped']);
  });

  it('a stream stopped before its position is known ends once and never starts', async () => {
    const feeds = setup();
    const s = fakeSink();
    const ends: StreamEndReason[] = [];
    const stop = createSseSource(feeds, PUBLIC_FEED, {
      cursor: 0,
      timers: fakeTimers().timers,
      onEnd: (r) => ends.push(r),
    }).open(s.sink);
    stopStream(stop);
    stopStream(stop);
    await settle();
    expect(ends).toEqual(['stopped']);
    expect(s.state.chunks).toEqual([]);
    expect(feeds.subscriberCount(PUBLIC_FEED)).toBe(0);
  });

  it('a blocked reader that falls out of the retention window is disconnected as a slow consumer', async () => {
    const feeds = setup(3);
    const s = fakeSink();
    const ends: StreamEndReason[] = [];
    createSseSource(feeds, PUBLIC_FEED, { cursor: 0, timers: fakeTimers().timers, onEnd: (r) => ends.push(r) }).open(
      s.sink,
    );
    await settle();
    s.state.accept = false;
    await feeds.publish(PUBLIC_FEED, 'tick', 1);
    await settle();
    for (let i = 0; i < 4; i++) await feeds.publish(PUBLIC_FEED, 'tick', i);
    await settle();
    expect(ends).toEqual(['slow_consumer']);
  });
});
