import { describe, expect, it } from 'vitest';
import { createClock } from '../lib/clock.ts';
import { createFeedStore, messageDataJson, PUBLIC_FEED, tenantFeed, type FeedMessage } from './feed.ts';

describe('feed store', () => {
  it('numbers each feed on its own from 1 and stamps messages', () => {
    const feeds = createFeedStore({ clock: createClock(() => Date.UTC(2026, 6, 1)) });
    const a = feeds.publish(PUBLIC_FEED, 'service.status', { status: 'operational' });
    const b = feeds.publish(tenantFeed('harbour-kitchens'), 'connection.created', { id: 'con_1' });
    const c = feeds.publish(PUBLIC_FEED, 'service.status', { status: 'degraded' });
    expect([a.id, b.id, c.id]).toEqual([1, 1, 2]);
    expect(a).toEqual({
      id: 1,
      event: 'service.status',
      data: { status: 'operational' },
      at: '2026-07-01T00:00:00.000Z',
    });
    expect(Object.isFrozen(a)).toBe(true);
    expect(feeds.lastId(PUBLIC_FEED)).toBe(2);
    expect(feeds.lastId('tenant:nobody')).toBe(0);
    expect(feeds.get(PUBLIC_FEED, 2)).toBe(c);
    expect(feeds.get(PUBLIC_FEED, 3)).toBeUndefined();
  });

  it('answers after(cursor) with everything later, with no gap and no duplicate', () => {
    const feeds = createFeedStore();
    for (let i = 0; i < 5; i++) feeds.publish(PUBLIC_FEED, 'service.status', { i });
    expect(feeds.after(PUBLIC_FEED, 0)).toEqual({ messages: expect.any(Array) });
    const ids = (r: ReturnType<typeof feeds.after>) => ('messages' in r ? r.messages.map((m) => m.id) : r);
    expect(ids(feeds.after(PUBLIC_FEED, 0))).toEqual([1, 2, 3, 4, 5]);
    expect(ids(feeds.after(PUBLIC_FEED, 3))).toEqual([4, 5]);
    expect(ids(feeds.after(PUBLIC_FEED, 5))).toEqual([]);
    expect(ids(feeds.after('tenant:empty', 0))).toEqual([]);
  });

  it('a cursor beyond the last id is answered as ahead, not as "wait"', () => {
    const feeds = createFeedStore();
    feeds.publish(PUBLIC_FEED, 'service.status', {});
    expect(feeds.after(PUBLIC_FEED, 2)).toEqual({ ahead: { cursor: 2, lastId: 1 } });
    expect(feeds.after('tenant:empty', 1)).toEqual({ ahead: { cursor: 1, lastId: 0 } });
  });

  it('keeps only the retention window; an older cursor gets an explicit expired answer', () => {
    const feeds = createFeedStore({ retention: 100 });
    for (let i = 1; i <= 1_000_000; i++) feeds.publish(PUBLIC_FEED, 'tick', i);
    expect(feeds.lastId(PUBLIC_FEED)).toBe(1_000_000);
    expect(feeds.oldestRetained(PUBLIC_FEED)).toBe(999_901);
    expect(feeds.get(PUBLIC_FEED, 999_900)).toBeUndefined();
    expect(feeds.get(PUBLIC_FEED, 999_901)?.data).toBe(999_901);
    const edge = feeds.after(PUBLIC_FEED, 999_900);
    expect('messages' in edge && edge.messages.length).toBe(100);
    expect(feeds.after(PUBLIC_FEED, 999_899)).toEqual({
      expired: { cursor: 999_899, oldestRetained: 999_901, lastId: 1_000_000 },
    });
    expect(feeds.after(PUBLIC_FEED, 0)).toMatchObject({ expired: { oldestRetained: 999_901 } });
  });

  it('defaults to a 10,000 message window', () => {
    const feeds = createFeedStore();
    expect(feeds.retention).toBe(10_000);
    for (let i = 0; i < 10_001; i++) feeds.publish(PUBLIC_FEED, 'tick', i);
    expect(feeds.oldestRetained(PUBLIC_FEED)).toBe(2);
  });

  it('tells subscribers of their feed only, survives a throwing one, and unsubscribes', () => {
    const feeds = createFeedStore();
    const got: FeedMessage[] = [];
    feeds.subscribe(tenantFeed('a'), () => {
      throw new Error('broken reader');
    });
    const off = feeds.subscribe(tenantFeed('a'), (m) => got.push(m));
    feeds.subscribe(tenantFeed('b'), () => got.push({ id: -1, event: 'wrong', data: null, at: '' }));
    feeds.publish(tenantFeed('a'), 'connection.created', { id: 'con_1' });
    expect(feeds.subscriberCount(tenantFeed('a'))).toBe(2);
    off();
    feeds.publish(tenantFeed('a'), 'connection.created', { id: 'con_2' });
    expect(got.map((m) => m.id)).toEqual([1]);
    expect(feeds.subscriberCount(tenantFeed('a'))).toBe(1);
  });

  it('refuses event names that could break the SSE framing, and data that is not JSON', () => {
    const feeds = createFeedStore();
    expect(() => feeds.publish(PUBLIC_FEED, 'a\nid: 99', {})).toThrow(TypeError);
    expect(() => feeds.publish(PUBLIC_FEED, '', {})).toThrow(TypeError);
    expect(() => feeds.publish(PUBLIC_FEED, 'x', () => 1)).toThrow(TypeError);
    expect(feeds.publish(PUBLIC_FEED, 'x', undefined).data).toBeNull();
    expect(() => createFeedStore({ retention: 0 })).toThrow(RangeError);
  });
});

describe('feed message JSON', () => {
  it('refuses data JSON cannot carry and serialises each message once, when first read', () => {
    const feeds = createFeedStore({ retention: 5 });
    expect(() => feeds.publish(PUBLIC_FEED, 'x.y', () => 1)).toThrow(TypeError);
    expect(() => feeds.publish(PUBLIC_FEED, 'x.y', 1n)).toThrow(TypeError);
    let calls = 0;
    const m = feeds.publish(PUBLIC_FEED, 'x.y', { toJSON: () => (calls++, { a: 1 }) });
    expect(calls).toBe(0);
    expect(messageDataJson(m)).toBe('{"a":1}');
    expect(messageDataJson(m)).toBe('{"a":1}');
    expect(calls).toBe(1);
    expect(feeds.publish(PUBLIC_FEED, 'x.y', undefined).data).toBeNull();
  });
});
