// Webhook deliveries of a shared sandbox: every attempt made once across replicas, and the retries of a
// replica killed mid-sequence made by the one that survives (leases on the attempts, README "Shared sandbox").
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WEBHOOK_DEFAULTS } from '../../contract/simulator-defaults.ts';
import { NO_REDIS_REASON, REDIS_SERVER, startRedis, type TestRedis } from '../redis-server.ts';
import { startTestReceiver } from '../test-receiver.ts';
import { call, control, type Replica, startReplica } from './replicas.ts';

const TENANT = 'harbour-kitchens';
const attemptOf = (c: { headers: Record<string, string> }) =>
  Number(c.headers[WEBHOOK_DEFAULTS.attemptHeader.toLowerCase()]);
const eventOf = (c: { body: string }) => (JSON.parse(c.body) as { id: string }).id;

describe.skipIf(!REDIS_SERVER)(
  `webhooks across replicas${REDIS_SERVER ? '' : ` (skipped: ${NO_REDIS_REASON})`}`,
  () => {
    let redis: TestRedis;
    const replicas: Replica[] = [];
    let rx: Awaited<ReturnType<typeof startTestReceiver>>;

    beforeAll(async () => {
      redis = await startRedis();
      rx = await startTestReceiver();
    }, 30_000);
    afterAll(async () => {
      await Promise.all(replicas.map((r) => r.stop()));
      await rx?.close();
      await redis?.close();
    });

    async function register(r: Replica, path: string): Promise<string> {
      const res = await call(r.info.baseUrl, r.info.token, TENANT, '/webhooks', {
        body: { url: rx.url(path), events: ['order.paid'] },
        key: `wh-${path.replace(/\W/g, '')}-${Date.now()}`,
      });
      expect(res.status).toBe(200);
      return res.json.data.id;
    }

    it('makes each attempt once with both replicas running', async () => {
      const [a, b] = await Promise.all([startReplica(redis.url), startReplica(redis.url)]);
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
      await new Promise((r) => setTimeout(r, 500)); // a duplicate would come now
      expect(mine().map(eventOf).sort()).toEqual([...events].sort());
      // A replica joining later replays the log, deliveries included, and sends none of them again.
      const late = await startReplica(redis.url);
      replicas.push(late);
      await new Promise((r) => setTimeout(r, 1500));
      expect(mine()).toHaveLength(10);
      await Promise.all([a.stop(), b.stop(), late.stop()]);
      replicas.length = 0;
    }, 60_000);

    it('goes on with the retries of a replica killed mid-sequence: one success, no attempt twice', async () => {
      const first = await startReplica(redis.url);
      replicas.push(first);
      const webhookId = await register(first, '/flaky/4');
      const t = await control(first.info.baseUrl, '/trigger', { event: 'order.paid', tenant: TENANT });
      const eventId: string = t.json.data.eventId;
      const mine = () => rx.calls.filter((c) => c.path === '/flaky/4');
      await rx.waitFor(() => mine().length >= 1, 10_000);
      // A second replica joins (it reads the whole log), then the first one dies mid-sequence.
      const second = await startReplica(redis.url);
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
      const log = await call(second.info.baseUrl, second.info.token, TENANT, `/webhooks/${webhookId}/deliveries`);
      expect(log.json.data.deliveries).toHaveLength(1);
      expect(log.json.data.deliveries[0]).toMatchObject({ status: 'succeeded', eventId });
      expect(log.json.data.deliveries[0].attempts.map((x: { n: number }) => x.n)).toEqual([1, 2, 3, 4, 5]);
    }, 90_000);
  },
);
