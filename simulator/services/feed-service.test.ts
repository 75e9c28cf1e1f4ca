import { describe, expect, it } from 'vitest';
import { PUBLIC_FEED, tenantFeed } from '../events/feed.ts';
import { createClock } from '../lib/clock.ts';
import { createFeedStore } from '../state/feed-store.ts';
import type { FeedMessage } from '../state/ports/feeds.ts';
import { type AfterResult, createFeedService } from './feed-service.ts';
import { networkLike } from '../test-support/network-like.ts';

const at = Date.UTC(2026, 6, 1);
const setup = (async: boolean, retention = 10_000) => {
  const memory = createFeedStore();
  const feeds = createFeedService({
    repository: async ? networkLike(memory) : memory,
    clock: createClock(() => at),
    retention,
  });
  return { feeds, memory };
};
const ids = (r: AfterResult) => ('messages' in r ? r.messages.map((m) => m.id) : r);

describe.each([
  ['memory (answers at once)', false],
  ['promise-answering repository', true],
])('feed service over %s', (_name, async) => {
  it('numbers each feed on its own from 1, stamps messages and answers at once only from memory', async () => {
    const { feeds } = setup(async);
    const first = feeds.publish(PUBLIC_FEED, 'service.status', { status: 'operational' });
    expect(first instanceof Promise).toBe(async);
    const a = await first;
    const b = await feeds.publish(tenantFeed('harbour-kitchens'), 'connection.created', { id: 'con_1' });
    const c = await feeds.publish(PUBLIC_FEED, 'service.status', { status: 'degraded' });
    expect([a.id, b.id, c.id]).toEqual([1, 1, 2]);
    expect(a).toEqual({
      id: 1,
      event: 'service.status',
      data: { status: 'operational' },
      at: '2026-07-01T00:00:00.000Z',
    });
    expect(Object.isFrozen(a)).toBe(true);
    expect(await feeds.lastId(PUBLIC_FEED)).toBe(2);
    expect(await feeds.lastId('tenant:nobody')).toBe(0);
    expect(await feeds.get(PUBLIC_FEED, 2)).toBe(c);
    expect(await feeds.get(PUBLIC_FEED, 3)).toBeUndefined();
    expect((await feeds.keys()).sort()).toEqual([PUBLIC_FEED, tenantFeed('harbour-kitchens')]);
  });

  it('answers after(cursor) with everything later, no gap, no duplicate; a cursor beyond the last id is ahead', async () => {
    const { feeds } = setup(async);
    for (let i = 0; i < 5; i++) await feeds.publish(PUBLIC_FEED, 'service.status', { i });
    expect(ids(await feeds.after(PUBLIC_FEED, 0))).toEqual([1, 2, 3, 4, 5]);
    expect(ids(await feeds.after(PUBLIC_FEED, 3))).toEqual([4, 5]);
    expect(ids(await feeds.after(PUBLIC_FEED, 5))).toEqual([]);
    expect(ids(await feeds.after('tenant:empty', 0))).toEqual([]);
    expect(await feeds.after(PUBLIC_FEED, 6)).toEqual({ ahead: { cursor: 6, lastId: 5 } });
    expect(await feeds.after('tenant:empty', 1)).toEqual({ ahead: { cursor: 1, lastId: 0 } });
  });

  it('keeps only the retention window: older cursors are expired, a reader behind it reads null', async () => {
    const { feeds } = setup(async, 100);
    for (let i = 1; i <= 1000; i++) await feeds.publish(PUBLIC_FEED, 'tick', i);
    expect(await feeds.lastId(PUBLIC_FEED)).toBe(1000);
    expect(await feeds.oldestRetained(PUBLIC_FEED)).toBe(901);
    expect(await feeds.get(PUBLIC_FEED, 900)).toBeUndefined();
    expect((await feeds.get(PUBLIC_FEED, 901))?.data).toBe(901);
    const edge = await feeds.after(PUBLIC_FEED, 900);
    expect('messages' in edge && edge.messages.length).toBe(100);
    expect(await feeds.after(PUBLIC_FEED, 899)).toEqual({
      expired: { cursor: 899, oldestRetained: 901, lastId: 1000 },
    });
    expect(await feeds.next(PUBLIC_FEED, 899)).toBeNull();
    expect((await feeds.next(PUBLIC_FEED, 900))?.id).toBe(901);
    expect(await feeds.next(PUBLIC_FEED, 1000)).toBeUndefined();
  });

  it('plans a resumption: live without a cursor, after it when retained, a reset when expired or ahead', async () => {
    const { feeds } = setup(async, 3);
    for (let i = 0; i < 6; i++) await feeds.publish(PUBLIC_FEED, 'tick', i);
    expect(await feeds.resume(PUBLIC_FEED, undefined)).toEqual({ after: 6 });
    expect(await feeds.resume(PUBLIC_FEED, 3)).toEqual({ after: 3 });
    expect(await feeds.resume(PUBLIC_FEED, 6)).toEqual({ after: 6 });
    expect(await feeds.resume(PUBLIC_FEED, 2)).toEqual({
      after: 3,
      reset: { reason: 'cursor_expired', cursor: 2, oldestRetained: 4, lastId: 6 },
    });
    expect(await feeds.resume(PUBLIC_FEED, 9)).toEqual({
      after: 3,
      reset: { reason: 'cursor_ahead', cursor: 9, oldestRetained: 4, lastId: 6 },
    });
    expect(await feeds.resume('tenant:x', 0)).toEqual({ after: 0 });
  });

  it('tells subscribers of their feed only, after the message is kept, survives a throwing one, and unsubscribes', async () => {
    const { feeds, memory } = setup(async);
    const got: FeedMessage[] = [];
    const keptWhenTold: number[] = [];
    feeds.subscribe(tenantFeed('a'), () => {
      throw new Error('broken reader');
    });
    const off = feeds.subscribe(tenantFeed('a'), (m) => {
      got.push(m);
      keptWhenTold.push(memory.lastId(tenantFeed('a')));
    });
    feeds.subscribe(tenantFeed('b'), () => got.push({ id: -1, event: 'wrong', data: null, at: '' }));
    await feeds.publish(tenantFeed('a'), 'connection.created', { id: 'con_1' });
    expect(feeds.subscriberCount(tenantFeed('a'))).toBe(2);
    off();
    await feeds.publish(tenantFeed('a'), 'connection.created', { id: 'con_2' });
    expect(got.map((m) => m.id)).toEqual([1]);
    expect(keptWhenTold).toEqual([1]);
    expect(feeds.subscriberCount(tenantFeed('a'))).toBe(1);
    const reader = { deliver: (m: FeedMessage) => got.push(m) };
    feeds.attach(PUBLIC_FEED, reader);
    await feeds.publish(PUBLIC_FEED, 'x', null);
    feeds.detach(PUBLIC_FEED, reader);
    await feeds.publish(PUBLIC_FEED, 'x', null);
    expect(got.map((m) => m.id)).toEqual([1, 1]);
  });

  it('publishers racing for one id each get their own: consecutive, none twice', async () => {
    const { feeds } = setup(async);
    const sent = await Promise.all(Array.from({ length: 5 }, (_, i) => feeds.publish(PUBLIC_FEED, 'x', i)));
    expect(sent.map((m) => m.id).sort()).toEqual([1, 2, 3, 4, 5]);
    expect(ids(await feeds.after(PUBLIC_FEED, 0))).toEqual([1, 2, 3, 4, 5]);
  });

  it('clear drops retained messages but numbering goes on', async () => {
    const { feeds } = setup(async);
    await feeds.publish(PUBLIC_FEED, 'x', 1);
    await feeds.publish(PUBLIC_FEED, 'x', 2);
    await feeds.clear();
    expect(await feeds.after(PUBLIC_FEED, 0)).toEqual({ expired: { cursor: 0, oldestRetained: 3, lastId: 2 } });
    expect((await feeds.publish(PUBLIC_FEED, 'x', 3)).id).toBe(3);
  });

  it('refuses event names that could break the SSE framing, and data that is not JSON, before any write', async () => {
    const { feeds } = setup(async);
    expect(() => feeds.publish(PUBLIC_FEED, 'a\nid: 99', {})).toThrow(TypeError);
    expect(() => feeds.publish(PUBLIC_FEED, '', {})).toThrow(TypeError);
    expect(() => feeds.publish(PUBLIC_FEED, 'x', () => 1)).toThrow(TypeError);
    expect(() => feeds.publish(PUBLIC_FEED, 'x.y', 1n)).toThrow(TypeError);
    expect(await feeds.lastId(PUBLIC_FEED)).toBe(0);
    expect((await feeds.publish(PUBLIC_FEED, 'x', undefined)).data).toBeNull();
  });
});

describe('feed service settings', () => {
  it('refuses a retention that is not a positive integer', () => {
    const repository = createFeedStore();
    const clock = createClock();
    expect(() => createFeedService({ repository, clock, retention: 0 })).toThrow(RangeError);
    expect(() => createFeedService({ repository, clock, retention: 1.5 })).toThrow(RangeError);
  });

  it('keeps the given window in the repository (10,000 by default in the sandbox)', () => {
    const memory = createFeedStore();
    const feeds = createFeedService({ repository: memory, clock: createClock(), retention: 10_000 });
    for (let i = 0; i < 10_001; i++) feeds.publish(PUBLIC_FEED, 'tick', i);
    expect(memory.oldestId(PUBLIC_FEED)).toBe(2);
    expect(memory.since(PUBLIC_FEED, 0)).toHaveLength(10_000);
  });
});
