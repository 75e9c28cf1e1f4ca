import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { NO_REDIS_REASON, REDIS_SERVER, startRedis, type TestRedis } from '../../e2e/redis-server.ts';
import { COMMAND_TIMEOUT_MS, connectRedis, StoreUnavailableError } from './redis-engine.ts';

describe.skipIf(!REDIS_SERVER)(`the Redis engine${REDIS_SERVER ? '' : ` (skipped: ${NO_REDIS_REASON})`}`, () => {
  let redis: TestRedis;
  beforeAll(async () => {
    redis = await startRedis();
  });
  afterAll(async () => {
    await redis?.close();
  });

  it('waits 5 s for a reply by default, as node-redis does', () => {
    expect(COMMAND_TIMEOUT_MS).toBe(5000);
  });

  const PAUSE_MS = 2000;
  // The same watchdog with a shorter timeout (the default's 5 s would be an idle wait of the suite).
  it('fails a command Redis does not answer within the timeout with the outage error, and serves again after', async () => {
    const engine = await connectRedis(redis.url, { prefix: 'engine:', outageStatus: 503, commandTimeoutMs: 600 });
    const admin = await connectRedis(redis.url, { prefix: 'engine:' });
    try {
      expect(await engine.command(['SET', 'engine:k', 'v'])).toBe('OK');
      // A Redis that stops answering without closing the connection (paused, cut off without a reset).
      await admin.command(['CLIENT', 'PAUSE', PAUSE_MS, 'ALL']);
      const started = Date.now();
      const err = await engine.command(['GET', 'engine:k']).catch((e: unknown) => e);
      expect(err).toBeInstanceOf(StoreUnavailableError);
      expect((err as StoreUnavailableError).status).toBe(503);
      expect(Date.now() - started).toBeGreaterThanOrEqual(540);
      // Before the pause ends: the watchdog failed it, not Redis's answer.
      expect(Date.now() - started).toBeLessThan(PAUSE_MS - 100);
      // Paused too, the admin's UNPAUSE is answered when the pause ends at the latest.
      await admin.command(['CLIENT', 'UNPAUSE']);
      expect(await engine.command(['GET', 'engine:k'])).toBe('v');
    } finally {
      await Promise.all([engine.close(), admin.close()]);
    }
  }, 20_000);
});
