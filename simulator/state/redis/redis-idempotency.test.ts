import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { NO_REDIS_REASON, REDIS_SERVER, startRedis, type TestRedis } from '../../e2e/redis-server.ts';
import { createClock } from '../../lib/clock.ts';
import type { Begin } from '../idempotency-store.ts';
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

    it('replays the outcome as written (empty arrays stay arrays), conflicts on other content, waits while in flight', async () => {
      const store = createRedisIdempotencyStore(engine, createClock());
      const first = (await store.begin('t1', 'key-00000001', 'fp-a')) as Extract<Begin, { kind: 'new' }>;
      expect(first.kind).toBe('new');
      expect((await store.begin('t1', 'key-00000001', 'fp-a')).kind).toBe('wait');
      expect((await store.begin('t1', 'key-00000001', 'fp-b')).kind).toBe('conflict');
      expect((await store.begin('t2', 'key-00000001', 'fp-b')).kind).toBe('new');
      const outcome = { status: 200, ok: true as const, data: { items: [], nested: { n: 1764000000123, s: 'ä' } } };
      await first.finish(outcome);
      expect(await store.begin('t1', 'key-00000001', 'fp-a')).toEqual({ kind: 'replay', outcome });
    });

    it('frees a key whose operation stored nothing, and judges expiry on sandbox time', async () => {
      const clock = createClock();
      const store = createRedisIdempotencyStore(engine, clock, { ttlMs: 60_000 });
      const b = (await store.begin('t1', 'key-00000002', 'fp')) as Extract<Begin, { kind: 'new' }>;
      await b.finish(undefined);
      const again = (await store.begin('t1', 'key-00000002', 'other')) as Extract<Begin, { kind: 'new' }>;
      expect(again.kind).toBe('new');
      await again.finish({ status: 200, ok: true, data: {} });
      expect((await store.begin('t1', 'key-00000002', 'fp')).kind).toBe('conflict');
      clock.advance(61_000); // Redis still holds the record; the sandbox clock says it expired
      expect((await store.begin('t1', 'key-00000002', 'fp')).kind).toBe('new');
    });

    it('keeps an issued key with its operation until it is used', async () => {
      const store = createRedisIdempotencyStore(engine, createClock());
      const issued = await store.issue('t1', 'connection.create');
      expect(issued.operation).toBe('connection.create');
      expect((await store.begin('t1', issued.idempotencyKey, 'fp')).kind).toBe('new');
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
      const b = (await store.begin('t3', idempotencyKey, 'fp')) as Extract<Begin, { kind: 'new' }>;
      expect(b.kind).toBe('new');
      await b.finish({ status: 201, ok: true, data: { id: 'c1' } });
      now = expiresAt - 1;
      expect((await store.begin('t3', idempotencyKey, 'fp')).kind).toBe('replay');
      now = expiresAt;
      expect((await store.begin('t3', idempotencyKey, 'fp')).kind).toBe('new');
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
