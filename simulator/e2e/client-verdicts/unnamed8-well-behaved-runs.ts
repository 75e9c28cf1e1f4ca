import { sleepOn } from '../harness.ts';
import { api, auth, CONNECTION, fault, publish, readStream, type UnnamedClient2 } from './unnamed-kit.ts';
import { seeded } from './unnamed4-kit.ts';
import { fleet, guidanceWait } from './unnamed5-fleet.ts';
import { sleeper } from './unnamed6-kit.ts';
import { get, ok, retrying } from './unnamed8-kit.ts';

/**
 * Round 8, well-behaved: interleavings and long runs. Several operations of one token at once, a
 * stream and webhooks together, evidence spread over hundreds of calls (more than the 200 calls the
 * observer keeps per client and tenant). Each must get no `fail`.
 */
export const RUNS_8: UnnamedClient2[] = [
  // "respect the wait time of the response": a sync daemon's 230th call meets a 429; it has made more
  // calls than the observer keeps, so the 429 and its retry sit at the ring's edge.
  {
    does: 'is a sync daemon that polls three paths in turn every 2 s for 230 calls, then meets a 429 (Retry-After: 3) and a 500 and waits both out on the guidance schedule',
    pass: ['retry.respects-retry-after', 'retry.only-after-failure'],
    async run(t) {
      const a = auth(t, undefined, 3_600);
      const sleep = sleeper(t);
      const paths = ['/providers', '/connectors', '/capabilities'];
      for (let i = 0; i < 230; i++) {
        ok(`poll ${i}`, await get(t, a, paths[i % 3] ?? '/providers'));
        await sleep(2_000);
      }
      fault(t, { kind: 'rate_limited', route: 'listConnections', retryAfterSeconds: 3, count: 1 });
      fault(t, { kind: 'internal', route: 'listConnections', count: 1 });
      ok('connections', await retrying(sleep, () => get(t, a, '/connections'), guidanceWait(seeded(811))));
    },
  },
  // "Tokens are short-lived and are renewed, not extended": a 40-minute run with 10-minute tokens
  // renewed a minute before expiry, a read every 20 s, a 500 now and then retried once, and its stream
  // cut three times and resumed from the last number read.
  {
    does: 'runs 40 minutes: 10-minute tokens renewed 60 s before expiry, a read every 20 s with a 500 every 25th retried after 500-750 ms, and a stream cut three times, each resumed from the last number read',
    pass: ['stream.resume-from-last-read', 'retry.only-after-failure'],
    async run(t) {
      const sleep = sleeper(t);
      const random = seeded(812);
      let a = auth(t, undefined, 600);
      let issued = t.sandbox.state.clock.now();
      let last: number | undefined;
      for (let i = 0; i < 120; i++) {
        if (t.sandbox.state.clock.now() - issued > 540_000) {
          a = auth(t, undefined, 600);
          issued = t.sandbox.state.clock.now();
        }
        if (i % 40 === 5) {
          // the stream: cut after two messages, resumed 300 ms later from the last number read
          fault(t, { kind: 'stream_cut', afterMessages: 2, count: 1 });
          const opened = a;
          const ids = await readStream(t, a, {
            count: 2,
            ...(last === undefined ? {} : { cursor: last }),
            onOpen: () => publish(t, opened.tenant, 2),
          });
          last = ids.at(-1) ?? last;
          await sleep(300);
          const more = await readStream(t, a, {
            cursor: last ?? 0,
            count: 1,
            onOpen: () => publish(t, opened.tenant, 1),
          });
          last = more.at(-1) ?? last;
        }
        if (i % 25 === 12) fault(t, { kind: 'internal', route: 'listConnections', count: 1 });
        await retrying(
          sleep,
          () => get(t, a, '/connections'),
          () => 500 + Math.floor(random() * 250),
          { max: 1 },
        );
        await sleep(20_000);
      }
    },
  },
  // "Modifying calls are repeat-safe" and "respect the wait time": a webhook registration waits out its
  // 429 with its key while, in the same process and with the same token, a connection is created under
  // its own key and the stream is cut and resumed: three duties interleaved on one token.
  {
    does: 'registers a webhook whose 429 (Retry-After: 2) it waits out with its key, while within that wait it creates a connection (500, retried with its key) and resumes its cut stream from the last number read',
    pass: ['retry.same-key-and-content', 'retry.respects-retry-after', 'stream.resume-from-last-read'],
    async run(t) {
      const a = auth(t);
      const sleep = sleeper(t);
      fault(t, { kind: 'stream_cut', afterMessages: 3, count: 1 });
      const ids = await readStream(t, a, { count: 3, onOpen: () => publish(t, a.tenant, 3) });
      fault(t, { kind: 'rate_limited', route: 'createWebhook', retryAfterSeconds: 2, count: 1 });
      const hook = { url: 'http://127.0.0.1:9/hooks/ncs', events: ['order.created', 'order.paid'] };
      const first = await api(t, a, 'POST', '/webhooks', { body: hook, key: 'hook-reg-5f2d01' });
      if (first.status !== 429) throw new Error(`the registration answered ${first.status}`);
      await sleep(200);
      const resumed = readStream(t, a, { cursor: ids.at(-1) ?? 0, count: 1, onOpen: () => publish(t, a.tenant, 1) });
      fault(t, { kind: 'internal', route: 'createConnection', count: 1 });
      const body = { ...CONNECTION, scopeLabel: 'Signal Box Brasserie' };
      await api(t, a, 'POST', '/connections', { body, key: 'conn-create-5f2d02' });
      await resumed;
      await sleep(600);
      ok('the create', await api(t, a, 'POST', '/connections', { body, key: 'conn-create-5f2d02' }));
      await sleep(1_400);
      ok('the registration', await api(t, a, 'POST', '/webhooks', { body: hook, key: 'hook-reg-5f2d01' }));
    },
  },
  // One token shared by three processes through a Redis cache (one process to the rules): each creates
  // its own venue, all three fail at once, and their retries, each with its own key, interleave.
  {
    does: 'is three processes sharing one cached token, each creating its own venue; all three creates answer 500 and are retried with their own keys, interleaved 100 ms apart on the guidance schedule',
    pass: ['retry.same-key-and-content', 'idempotency.one-key-one-content'],
    async run(t) {
      const shared = auth(t, undefined, 3_600);
      fault(t, { kind: 'internal', route: 'createConnection', count: 5 });
      const venues = ['Ropewalk Diner', 'Tidemill Bakery', 'Saltpan Grill'];
      await fleet(
        t,
        venues.map((venue, i) => async (sleep) => {
          const body = { ...CONNECTION, scopeLabel: venue };
          const wait = guidanceWait(seeded([831, 812, 819][i] ?? 0));
          const r = await retrying(
            sleep,
            () => api(t, shared, 'POST', '/connections', { body, key: `redis-proc${i}-0001` }),
            wait,
          );
          ok(venue, r);
        }),
        [0, 100, 200],
      );
    },
  },
  // A fan-out: eight capability checks of different connectors sent at once over a pool; the three
  // that answer 500 are each retried on their own jittered schedule, interleaved with the others.
  {
    does: 'fans out eight different capability checks at once; the three answered 500 are each retried on their own jittered schedule while the rest complete',
    pass: ['retry.only-after-failure'],
    async run(t) {
      const a = auth(t);
      const random = seeded(817);
      fault(t, { kind: 'internal', route: 'checkCapability', count: 3 });
      const caps = [
        'orders.read',
        'orders.write',
        'payments.refund',
        'menu.read',
        'menu.write',
        'tables.read',
        'staff.read',
        'reports.read',
      ];
      // Each started 20 ms after the last (a pool filling), so which three fail is fixed.
      await fleet(
        t,
        caps.map((capability) => async (sleep) => {
          const body = { connectorId: CONNECTION.connectorId, capability };
          await retrying(
            sleep,
            () => api(t, a, 'POST', '/capabilities', { body }),
            (n) => 400 * 2 ** n + Math.floor(random() * 200),
          );
        }),
        caps.map((_, i) => i * 20),
      );
    },
  },
  // "resumes without gaps by sending Last-Event-ID or the query parameter cursor (last number read)":
  // with no number read yet there is nothing to send. A consumer whose first stream sent nothing (its
  // idle timeout closed it) opens the next without a cursor.
  {
    does: 'opens the stream, hears nothing before its idle timeout, and reopens it without a cursor (no number read yet), then reads on',
    pass: [],
    async run(t) {
      const a = auth(t);
      const first = await readStream(t, a, { idleMs: 300 });
      if (first.length) throw new Error('the first stream read something');
      await sleepOn(t, 1_000);
      const ids = await readStream(t, a, { count: 2, onOpen: () => publish(t, a.tenant, 2) });
      if (ids.length !== 2) throw new Error(`read ${ids.length}`);
    },
  },
];
