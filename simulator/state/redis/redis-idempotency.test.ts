import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { NO_REDIS_REASON, REDIS_SERVER, startRedis, type TestRedis } from '../../e2e/redis-server.ts';
import { createClock } from '../../lib/clock.ts';
import { connectRedis, type RedisEngine } from './redis-engine.ts';
import { createRedisIdempotencyStore } from './redis-idempotency.ts';
import { createRedisRateLimits } from './redis-rate-limit.ts';

describe.skipIf(!REDIS_SERVER)(
  `idempotency records and rate limits in Redis${REDIS_SERVER ? '' : ` (skipped: ${NO_REDIS_REASON})`}`,
  () => {
    let redis: TestRedis;
    let engine: RedisEngine;
    beforeAll(async () => {
      redis = await startRedis();
      engine = await connectRedis(redis.url, { prefix: 'unit:' });
    });
    afterAll(async () => {
      await engine?.close();
      await redis?.close();
    });

    // The claim and the log entry are one script: the record names the entry that holds the key.
    const LOG = 'unit:log';
    const entries = async () => engine.command<number>(['XLEN', LOG]);

    it('claims a free key and appends the entry in one step; the same content replays that entry, other content conflicts', async () => {
      const store = createRedisIdempotencyStore(engine, createClock());
      const before = await entries();
      const [kind, id] = await store.claim('t1', 'key-00000001', 'fp-a', '{"op":"x"}', LOG);
      expect(kind).toBe('new');
      expect(await entries()).toBe(before + 1);
      expect(await store.claim('t1', 'key-00000001', 'fp-a', '{"op":"y"}', LOG)).toEqual(['replay', id]);
      expect(await store.claim('t1', 'key-00000001', 'fp-b', '{"op":"y"}', LOG)).toEqual(['conflict', id]);
      expect(await entries()).toBe(before + 1);
      expect((await store.claim('t2', 'key-00000001', 'fp-b', '{"op":"z"}', LOG))[0]).toBe('new');
      // A key whose entry kept no outcome is claimed afresh by whoever names that entry as freed.
      const [again, next] = await store.claim('t1', 'key-00000001', 'fp-b', '{"op":"w"}', LOG, id);
      expect(again).toBe('new');
      expect(await store.claim('t1', 'key-00000001', 'fp-b', '{}', LOG, id)).toEqual(['replay', next]);
      // The idempotency step itself lets every call through: the claim is the writing route's.
      expect((await store.begin('t1', 'key-00000001', 'fp-a')).kind).toBe('new');
    });

    it('judges expiry on sandbox time', async () => {
      const clock = createClock();
      const store = createRedisIdempotencyStore(engine, clock, { ttlMs: 60_000 });
      expect((await store.claim('t1', 'key-00000002', 'fp', '{}', LOG))[0]).toBe('new');
      expect((await store.claim('t1', 'key-00000002', 'other', '{}', LOG))[0]).toBe('conflict');
      clock.advance(61_000); // Redis still holds the record; the sandbox clock says it expired
      expect((await store.claim('t1', 'key-00000002', 'other', '{}', LOG))[0]).toBe('new');
    });

    it('keeps an issued key with its operation until it is used', async () => {
      const store = createRedisIdempotencyStore(engine, createClock());
      const issued = await store.issue('t1', 'connection.create');
      expect(issued.operation).toBe('connection.create');
      expect((await store.claim('t1', issued.idempotencyKey, 'fp', '{}', LOG))[0]).toBe('new');
    });

    // The memory store's rule (issue 23 item 13), kept by the shared store too.
    it('an issued key expires at the expiresAt it was issued with, however late its first use', async () => {
      let now = 0;
      const store = createRedisIdempotencyStore(
        engine,
        createClock(() => now),
        { ttlMs: 1000 },
      );
      const { idempotencyKey, expiresAt } = await store.issue('t3', 'connection.create');
      expect(expiresAt).toBe(1000);
      now = 600; // first used well after issue
      expect((await store.claim('t3', idempotencyKey, 'fp', '{}', LOG))[0]).toBe('new');
      now = expiresAt - 1;
      expect((await store.claim('t3', idempotencyKey, 'fp', '{}', LOG))[0]).toBe('replay');
      now = expiresAt;
      expect((await store.claim('t3', idempotencyKey, 'fp', '{}', LOG))[0]).toBe('new');
    });

    it('counts a fixed window exactly and starts it afresh with new settings', async () => {
      const limits = createRedisRateLimits(engine, createClock(), { limit: 3, windowSeconds: 60 });
      const hits = await Promise.all(Array.from({ length: 5 }, () => limits.hit('c|t|sandbox')));
      expect(hits.map((h) => h?.allowed)).toEqual([true, true, true, false, false]);
      expect(hits[3]).toMatchObject({ remaining: 0, limit: 3 });
      limits.configure({ limit: 3, windowSeconds: 60 });
      expect((await limits.hit('c|t|sandbox'))?.allowed).toBe(true);
      limits.configure(false);
      expect(limits.hit('c|t|sandbox')).toBeUndefined();
    });
  },
);
