import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { NO_REDIS_REASON, REDIS_SERVER, startRedis, type TestRedis } from '../../e2e/redis-server.ts';
import { connectRedis, StoreUnavailableError } from './redis-engine.ts';

describe.skipIf(!REDIS_SERVER)(`the Redis engine${REDIS_SERVER ? '' : ` (skipped: ${NO_REDIS_REASON})`}`, () => {
  let redis: TestRedis;
  beforeAll(async () => {
    redis = await startRedis();
  });
  afterAll(async () => {
    await redis?.close();
  });

  it('fails a command Redis does not answer within 5 s with the outage error, and serves again after', async () => {
    const engine = await connectRedis(redis.url, { prefix: 'engine:', outageStatus: 503 });
    const admin = await connectRedis(redis.url, { prefix: 'engine:' });
    try {
      expect(await engine.command(['SET', 'engine:k', 'v'])).toBe('OK');
      // A Redis that stops answering without closing the connection (paused, cut off without a reset).
      await admin.command(['CLIENT', 'PAUSE', 7000, 'ALL']);
      const started = Date.now();
      const err = await engine.command(['GET', 'engine:k']).catch((e: unknown) => e);
      expect(err).toBeInstanceOf(StoreUnavailableError);
      expect((err as StoreUnavailableError).status).toBe(503);
      expect(Date.now() - started).toBeGreaterThanOrEqual(4500);
      expect(Date.now() - started).toBeLessThan(6900);
      await admin.command(['CLIENT', 'UNPAUSE']);
      expect(await engine.command(['GET', 'engine:k'])).toBe('v');
    } finally {
      await Promise.all([engine.close(), admin.close()]);
    }
  }, 20_000);
});
