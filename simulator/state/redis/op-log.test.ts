import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { NO_REDIS_REASON, REDIS_SERVER, startRedis, type TestRedis } from '../../e2e/redis-server.ts';
import { createOpLog } from './op-log.ts';
import { connectRedis, type RedisEngine } from './redis-engine.ts';

describe.skipIf(!REDIS_SERVER)(`the operation log${REDIS_SERVER ? '' : ` (skipped: ${NO_REDIS_REASON})`}`, () => {
  let redis: TestRedis;
  const engines: RedisEngine[] = [];
  const engine = async () => {
    const e = await connectRedis(redis.url, { prefix: 'oplog:' });
    engines.push(e);
    return e;
  };
  beforeAll(async () => {
    redis = await startRedis();
  });
  afterAll(async () => {
    await Promise.all(engines.map((e) => e.close()));
    await redis?.close();
  });

  it('catches up with a write of another replica before sync resolves, with one tail read shared by concurrent calls', async () => {
    const [ea, eb] = [await engine(), await engine()];
    let tailReads = 0;
    const counted: RedisEngine = {
      ...eb,
      command: (args) => {
        if (args[0] === 'XREVRANGE') tailReads++;
        return eb.command(args);
      },
    };
    const a = createOpLog(ea);
    const b = createOpLog(counted);
    const seenByB: unknown[] = [];
    await a.start(() => undefined);
    await b.start((e) => seenByB.push(e.args[0]));
    tailReads = 0;
    expect(await a.submit('x', ['first'], 1)).toBeUndefined();
    // Acknowledged on A: any call on B that starts now sees it.
    await Promise.all(Array.from({ length: 50 }, () => b.sync()));
    expect(seenByB).toContain('first');
    expect(tailReads).toBeLessThanOrEqual(2);
    await Promise.all([a.close(), b.close()]);
  });

  it('applies its own plain entries from the object it wrote (no parse), others and non-plain ones from the JSON', async () => {
    const [ea, eb] = [await engine(), await engine()];
    const a = createOpLog(ea, 'oplog:plain');
    const b = createOpLog(eb, 'oplog:plain');
    const seenByA: unknown[] = [];
    const seenByB: unknown[] = [];
    await a.start((e) => seenByA.push(e.args[0]));
    await b.start((e) => seenByB.push(e.args[0]));
    const plain = { n: 1, list: ['x'] };
    const other = { n: 2 };
    await a.submit('x', [plain], 1, { plain: true });
    await a.submit('x', [other], 2);
    await b.sync();
    expect(seenByA[0]).toBe(plain);
    expect(seenByA[1]).not.toBe(other);
    expect(seenByA[1]).toEqual(other);
    expect(seenByB).toEqual([plain, other]);
    expect(seenByB[0]).not.toBe(plain);
    // Each entry still carries its own fresh seed (the ids derived from it differ).
    const seeds: string[] = [];
    const c = createOpLog(await engine(), 'oplog:plain');
    await c.start((e) => seeds.push(e.seed));
    expect(seeds).toHaveLength(2);
    expect(seeds[0]).toMatch(/^[A-Za-z0-9_-]{22}$/);
    expect(seeds[0]).not.toBe(seeds[1]);
    await Promise.all([a.close(), b.close(), c.close()]);
  });

  it('starts after a snapshot: entries up to its id are not applied again', async () => {
    const e = await engine();
    const writer = createOpLog(e, 'oplog:from');
    await writer.start(() => undefined);
    await writer.submit('x', ['old'], 1);
    const covered = writer.applied();
    await writer.submit('x', ['new'], 2);
    const seen: unknown[] = [];
    const late = createOpLog(e, 'oplog:from');
    await late.start((entry) => seen.push(entry.args[0]), { from: covered });
    expect(seen).toEqual(['new']);
    await Promise.all([writer.close(), late.close()]);
  });
});
