import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { NO_REDIS_REASON, REDIS_SERVER, startRedis, type TestRedis } from '../../e2e/redis-server.ts';
import { createClock } from '../../lib/clock.ts';
import type { StoredOutcome } from '../idempotency-store.ts';
import { connectRedis, type RedisEngine } from './redis-engine.ts';
import { createRedisIdempotencyStore } from './redis-idempotency.ts';

const outcome: StoredOutcome = { status: 201, ok: true, data: { id: 'c1' } };

describe.skipIf(!REDIS_SERVER)(`Redis idempotency store${REDIS_SERVER ? '' : ` (skipped: ${NO_REDIS_REASON})`}`, () => {
  let redis: TestRedis;
  let engine: RedisEngine;
  beforeAll(async () => {
    redis = await startRedis();
    engine = await connectRedis(redis.url, { prefix: 'idem-test:' });
  });
  afterAll(async () => {
    await engine?.close();
    await redis?.close();
  });

  // The memory store's rule (issue 23 item 13), kept by the shared store too.
  it('an issued key expires at the expiresAt it was issued with, however late its first use', async () => {
    let now = 0;
    const store = createRedisIdempotencyStore(
      engine,
      createClock(() => now),
      { ttlMs: 1000 },
    );
    const { idempotencyKey, expiresAt } = await store.issue('t', 'connection.create');
    expect(expiresAt).toBe(1000);
    now = 600; // first used well after issue
    const b = await store.begin('t', idempotencyKey, 'fp');
    expect(b.kind).toBe('new');
    if (b.kind === 'new') await b.finish(outcome);
    now = expiresAt - 1;
    expect((await store.begin('t', idempotencyKey, 'fp')).kind).toBe('replay');
    now = expiresAt;
    expect((await store.begin('t', idempotencyKey, 'fp')).kind).toBe('new');
  });
});
