// Webhook deliveries of a shared sandbox: every attempt made once across replicas, and the retries of a
// replica killed mid-sequence made by the one that survives (leases on the attempts, README "Shared sandbox").
import { afterAll, beforeAll, describe, expect, it, type TestContext } from 'vitest';
import { WEBHOOK_DEFAULTS } from '../../contract/simulator-defaults.ts';
import { NO_REDIS_REASON, REDIS_SERVER, startRedis, type TestRedis } from '../redis-server.ts';
import { startTestReceiver } from '../test-receiver.ts';
import { call, control, type PlainReplica, startLocalReplica, startReplica } from './replicas.ts';

const TENANT = 'harbour-kitchens';
const attemptOf = (c: { headers: Record<string, string> }) =>
  Number(c.headers[WEBHOOK_DEFAULTS.attemptHeader.toLowerCase()]);
const eventOf = (c: { body: string }) => (JSON.parse(c.body) as { id: string }).id;
/** Polls every 10 ms until `done` (at most 10 s). */
async function until(done: () => Promise<boolean>): Promise<void> {
  for (const end = Date.now() + 10_000; !(await done()); await new Promise((r) => setTimeout(r, 10)))
    if (Date.now() > end) throw new Error('not reached within 10 s');
}
/** `ncs serve --webhook-retry-base`: the retry schedule of the default (1+2+4+8 s) at 0.3 of its length. */
const FAST_RETRIES = ['--webhook-retry-base', '300'];
/** The same for a replica in this process. */
const FAST_RETRIES_LOCAL = { webhooks: { baseDelayMs: 300 } };

// The two tests run at once (their time is replicas starting and real delivery waits), each with a
// Redis of its own: one shared sandbox per test, so neither sees the other's webhooks, events or leases.
// The receiver is shared: each test's webhook has its own path.
describe
  .skipIf(!REDIS_SERVER)
  .concurrent(`webhooks across replicas${REDIS_SERVER ? '' : ` (skipped: ${NO_REDIS_REASON})`}`, () => {
    let rx: Awaited<ReturnType<typeof startTestReceiver>>;

    beforeAll(async () => {
      rx = await startTestReceiver();
    }, 30_000);
    afterAll(async () => {
      await rx?.close();
    });

    /** A Redis for the test of `ctx`, and its replicas: all stopped when the test ends, the replicas first. */
    async function sharedStore(ctx: TestContext): Promise<{ redis: TestRedis; replicas: PlainReplica[] }> {
      const redis = await startRedis();
      const replicas: PlainReplica[] = [];
      ctx.onTestFinished(async () => {
        await Promise.all(replicas.map((r) => r.stop()));
        await redis.close();
      });
      return { redis, replicas };
    }

    /** The one delivery of a receiver, as a replica's delivery log shows it. */
    async function deliveryLog(r: PlainReplica, webhookId: string) {
      const log = await call(r.info.baseUrl, r.info.token, TENANT, `/webhooks/${webhookId}/deliveries`);
      expect(log.json.data.deliveries).toHaveLength(1);
      return log.json.data.deliveries[0];
    }

    async function register(r: PlainReplica, path: string): Promise<string> {
      const res = await call(r.info.baseUrl, r.info.token, TENANT, '/webhooks', {
        body: { url: rx.url(path), events: ['order.paid'] },
        key: `wh-${path.replace(/\W/g, '')}-${Date.now()}`,
      });
      expect(res.status).toBe(200);
      return res.json.data.id;
    }

    it('makes each attempt once with both replicas running', async (ctx) => {
      const { redis, replicas } = await sharedStore(ctx);
      // A in a process of its own, B in this one: the attempts are shared across processes.
      const [a, b] = await Promise.all([startReplica(redis.url), startLocalReplica(redis.url)]);
      replicas.push(a, b);
      await register(a, '/ok/both');
      const events: string[] = [];
      for (let i = 0; i < 10; i++) {
        const t = await control(i % 2 ? a.info.baseUrl : b.info.baseUrl, '/trigger', {
          event: 'order.paid',
          tenant: TENANT,
        });
        events.push(t.json.data.eventId);
      }
      const mine = () => rx.calls.filter((c) => c.path === '/ok/both');
      await rx.waitFor(() => mine().length >= 10, 10_000);
      // A replica joining later replays the log, deliveries included, and sends none of them again. It
      // starts while the first two have 500 ms to send a duplicate (any duplicate fails either way).
      // In this process too.
      const joining = startLocalReplica(redis.url).then((r) => {
        replicas.push(r); // stopped when the test ends even if an assertion below fails first
        return r;
      });
      await new Promise((r) => setTimeout(r, 500)); // a duplicate would come now
      expect(mine().map(eventOf).sort()).toEqual([...events].sort());
      const late = await joining;
      await new Promise((r) => setTimeout(r, 1500));
      expect(mine()).toHaveLength(10);
      await Promise.all([a.stop(), b.stop(), late.stop()]);
      replicas.length = 0;
    }, 60_000);

    it('goes on with the retries of a replica killed mid-sequence: one success, no attempt twice', async (ctx) => {
      const { redis, replicas } = await sharedStore(ctx);
      // Short retry waits (0.3, 0.6, 1.2, 2.4 s instead of 1, 2, 4, 8 s): the sequence is over in seconds.
      const first = await startReplica(redis.url, FAST_RETRIES);
      replicas.push(first);
      const webhookId = await register(first, '/flaky/4');
      const t = await control(first.info.baseUrl, '/trigger', { event: 'order.paid', tenant: TENANT });
      const eventId: string = t.json.data.eventId;
      const mine = () => rx.calls.filter((c) => c.path === '/flaky/4');
      await rx.waitFor(() => mine().length >= 1, 10_000);
      // Attempt 1 settled: its outcome is in the shared log (frozen before sharing it, the replica would leave
      // an attempt whose lease runs out and is rightly made again). The next attempt is 0.3 s away.
      await until(async () => (await deliveryLog(first, webhookId)).attempts?.length >= 1);
      // Frozen mid-sequence (its retries are far quicker than a replica's start on a busy machine), while a
      // second replica joins (it reads the whole log); then the first one dies without waking up.
      first.child.kill('SIGSTOP');
      // The survivor, in this process (the frozen and killed one is a process of its own).
      const second = await startLocalReplica(redis.url, FAST_RETRIES_LOCAL);
      replicas.push(second);
      await first.kill();
      const before = mine().length;
      expect(before).toBeLessThan(5); // retries remained for the survivor
      await rx.waitFor(() => mine().length >= 5, 30_000);
      await new Promise((r) => setTimeout(r, 500));
      const calls = mine();
      expect(calls.map(attemptOf)).toEqual([1, 2, 3, 4, 5]);
      expect(calls.every((c) => eventOf(c) === eventId)).toBe(true);
      expect(calls.length - before).toBeGreaterThan(0); // made by the survivor
      // The survivor's delivery log: one delivery, succeeded at the fifth attempt.
      const delivery = await deliveryLog(second, webhookId);
      expect(delivery).toMatchObject({ status: 'succeeded', eventId });
      const attempts: { n: number; at: string }[] = delivery.attempts;
      expect(attempts.map((x) => x.n)).toEqual([1, 2, 3, 4, 5]);
      // The flag took effect: the wait before the fifth attempt is 2.4 s (+ up to 20 %), never the default's 8 s or more.
      const at = attempts.map((x) => Date.parse(x.at));
      expect((at[4] ?? Number.NaN) - (at[3] ?? Number.NaN)).toBeLessThan(8000);
    }, 90_000);
  });
