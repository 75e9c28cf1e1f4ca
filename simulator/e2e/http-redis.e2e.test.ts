import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe } from 'vitest';
import { behaviourSuite } from './behaviour/index.ts';
import { httpTarget } from './harness.ts';
import { NO_REDIS_REASON, REDIS_SERVER, startRedis, type TestRedis } from './redis-server.ts';

// The same behaviour suite with the state shared through Redis (one replica; every sandbox the suite
// starts gets its own key prefix, so each starts as fresh as an in-memory one).
describe.skipIf(!REDIS_SERVER)(
  `behaviour over node:http with --store redis${REDIS_SERVER ? '' : ` (skipped: ${NO_REDIS_REASON})`}`,
  () => {
    let redis: TestRedis;
    beforeAll(async () => {
      redis = await startRedis();
    });
    afterAll(async () => {
      await redis?.close();
    });
    behaviourSuite((options = {}) =>
      httpTarget({ ...options, store: `${redis.url}?prefix=suite-${randomBytes(6).toString('hex')}` }),
    );
  },
);
