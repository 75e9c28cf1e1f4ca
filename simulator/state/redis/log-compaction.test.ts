import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { NO_REDIS_REASON, REDIS_SERVER, startRedis, type TestRedis } from '../../e2e/redis-server.ts';
import { compactor, readSnapshot, SNAPSHOT_BYTES_PER_ENTRY } from './log-compaction.ts';
import { connectRedis, type RedisEngine } from './redis-engine.ts';

describe.skipIf(!REDIS_SERVER)(
  `log compaction's interval${REDIS_SERVER ? '' : ` (skipped: ${NO_REDIS_REASON})`}`,
  () => {
    let redis: TestRedis;
    let engine: RedisEngine;
    beforeAll(async () => {
      redis = await startRedis();
      engine = await connectRedis(redis.url, { prefix: 'compact:' });
    });
    afterAll(async () => {
      await engine?.close();
      await redis?.close();
    });

    /** Appends n entries to the log and tells the compactor they were applied; the ids of the snapshots taken. */
    async function drive(prefix: string, grow: boolean, entries: number, stateBytes: number) {
      const key = `${prefix}log`;
      const e = { ...engine, prefix } as RedisEngine;
      const taken: number[] = [];
      let applied = 0;
      const after = compactor(
        e,
        { key, quiet: () => true },
        10,
        () => {
          taken.push(applied);
          return 'x'.repeat(stateBytes);
        },
        grow,
      );
      for (let i = 0; i < entries; i++) {
        const id = await engine.command<string>(['XADD', key, '*', 'e', String(i)]);
        applied++;
        await after(id, 1);
      }
      return taken;
    }

    it('with the default interval, waits for as many entries as the snapshot is large over the byte budget', async () => {
      // A 40-entry budget (bytes / SNAPSHOT_BYTES_PER_ENTRY) above the minimum of 10.
      const taken = await drive('grow:', true, 130, 40 * SNAPSHOT_BYTES_PER_ENTRY);
      expect(taken).toEqual([10, 50, 90, 130]);
      expect((await readSnapshot({ ...engine, prefix: 'grow:' } as RedisEngine))?.state.length).toBe(
        40 * SNAPSHOT_BYTES_PER_ENTRY,
      );
    });

    it('keeps an interval given with ?compact= exactly, however large the state', async () => {
      expect(await drive('fixed:', false, 40, 40 * SNAPSHOT_BYTES_PER_ENTRY)).toEqual([10, 20, 30, 40]);
    });

    it('keeps the minimum interval while the state is small', async () => {
      expect(await drive('small:', true, 30, 100)).toEqual([10, 20, 30]);
    });
  },
);
