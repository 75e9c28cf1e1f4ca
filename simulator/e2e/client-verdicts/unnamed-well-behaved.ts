import { clientTimer, held, sleepOn, untilHeld } from '../harness.ts';
import {
  api,
  auth,
  CONNECTION,
  create,
  draws,
  fault,
  guidance,
  http10,
  publish,
  type Reply,
  readStream,
  type UnnamedClient,
  withWaits,
} from './unnamed-kit.ts';
import { WAITING_CLIENTS } from './unnamed-well-behaved-waits.ts';

export const WELL_BEHAVED: UnnamedClient[] = [
  {
    does: 'speaks HTTP/1.0, one connection per call, and retries a 500 with the same key',
    pass: ['retry.same-key-and-content', 'version.service-version-sent'],
    async run(t) {
      const a = auth(t);
      await http10(t, a, 'GET', '/providers');
      fault(t, { kind: 'internal', route: 'createConnection', count: 1 });
      await withWaits(
        t,
        () => http10(t, a, 'POST', '/connections', { body: CONNECTION, key: 'http10-create-0001' }),
        [400],
      );
    },
  },
  {
    does: 'runs two creates and two reads (other queries) at once, their retries interleaving',
    pass: ['retry.same-key-and-content', 'retry.only-after-failure', 'retry.growing-waits'],
    async run(t) {
      const a = auth(t);
      fault(t, { kind: 'internal', route: 'createConnection', count: 2 });
      fault(t, { kind: 'internal', route: 'listConnectors', count: 4 });
      const r1 = draws([0.9, 0.1, 0.6]);
      const r2 = draws([0.2, 0.7, 0.4]);
      const g1 = guidance(r1);
      const g2 = guidance(r2);
      await Promise.all([
        withWaits(t, () => create(t, a, 'parallel-create-a1', { ...CONNECTION, scopeLabel: 'Deck A' }), [g1(0), g1(1)]),
        withWaits(t, () => create(t, a, 'parallel-create-b1', { ...CONNECTION, scopeLabel: 'Deck B' }), [g2(0), g2(1)]),
        withWaits(t, () => api(t, a, 'GET', '/connectors?capability=orders.read'), [g1(0), g1(1), g1(2)]),
        withWaits(t, () => api(t, a, 'GET', '/connectors?capability=payments.refund'), [g2(0), g2(1), g2(2)]),
      ]);
    },
  },
  {
    does: 'retries with the same key after a dropped connection and after its own timeout',
    pass: ['retry.same-key-and-content', 'retry.only-after-failure'],
    async run(t) {
      const a = auth(t);
      fault(t, { kind: 'commit_then_fail', route: 'createConnection', failWith: 'drop' });
      await withWaits(t, () => create(t, a, 'dropped-create-0001'), [300]);
      fault(t, { kind: 'commit_then_fail', route: 'createConnection', failWith: 'timeout', holdMs: 900 });
      const body = { ...CONNECTION, scopeLabel: 'Timed out' };
      await withWaits(
        t,
        () => api(t, a, 'POST', '/connections', { body, key: 'timeout-create-0001', timeoutMs: 300 }),
        [300],
      );
      await sleepOn(t, 700); // the held original is observed when its connection drops
    },
  },
  {
    does: 'polls GET /connections every 250 ms (polling is not retrying), keeping its cadence through three 500s',
    pass: ['version.service-version-sent', 'auth.token-reused', 'retry.only-after-failure'],
    async run(t) {
      const a = auth(t);
      for (let i = 0; i < 9; i++) {
        if (i === 3) fault(t, { kind: 'internal', route: 'listConnections', count: 3 });
        await api(t, a, 'GET', '/connections');
        await sleepOn(t, 250);
      }
    },
  },
  {
    does: 'pages through the audit log (limit and before), retrying one page after a 500',
    pass: ['retry.only-after-failure'],
    async run(t) {
      const a = auth(t);
      for (let i = 0; i < 3; i++)
        await create(t, a, `audit-create-000${i}`, { ...CONNECTION, scopeLabel: `Venue ${i}` });
      let before: number | undefined;
      for (let page = 0; page < 4; page++) {
        if (page === 1) fault(t, { kind: 'internal', route: 'getAuditLog', count: 1 });
        const q = `/audit-log?limit=1${before === undefined ? '' : `&before=${before}`}`;
        const r: Reply = await withWaits(t, () => api(t, a, 'GET', q), [300]);
        before = r.json?.data?.proof?.fromSeq;
        if (!before) break;
      }
    },
  },
  {
    does: 'serves two tenants with one token, the same key text in each for its own content',
    pass: ['idempotency.one-key-one-content', 'version.service-version-sent'],
    async run(t) {
      const token = t.sandbox.issueToken('network-integrator').token;
      for (const tenant of ['harbour-kitchens', 'alpine-bistro']) {
        const a = { token, tenant };
        await create(t, a, 'tenant-key-00001', { ...CONNECTION, scopeLabel: `Venue of ${tenant}` });
        await api(t, a, 'GET', '/connections');
      }
    },
  },
  {
    does: 'reads two streams at once, each cut at another point and resumed from its own last number',
    pass: ['stream.resume-from-last-read'],
    async run(t) {
      const a = auth(t);
      const opened = () => {
        let open: () => void = () => {};
        return { wait: new Promise<void>((r) => (open = r)), onOpen: () => open() };
      };
      // Both open before anything is published: the second runs beside the first, it resumes nothing.
      const [o1, o2] = [opened(), opened()];
      fault(t, { kind: 'stream_cut', afterMessages: 1, count: 1 });
      const first = readStream(t, a, { count: 1, onOpen: o1.onOpen });
      await o1.wait;
      fault(t, { kind: 'stream_cut', afterMessages: 3, count: 1 });
      const second = readStream(t, a, { count: 3, onOpen: o2.onOpen });
      await o2.wait;
      publish(t, a.tenant, 1);
      const [one] = await first;
      const o3 = opened();
      const resumedFirst = readStream(t, a, { cursor: one ?? 0, count: 2, idleMs: 1_200, onOpen: o3.onOpen });
      await o3.wait;
      publish(t, a.tenant, 2);
      const three = (await second).at(-1) ?? 0;
      const o4 = opened();
      const resumedSecond = readStream(t, a, {
        cursor: three,
        asQuery: true,
        count: 1,
        idleMs: 800,
        onOpen: o4.onOpen,
      });
      await o4.wait;
      publish(t, a.tenant, 1);
      await Promise.all([resumedFirst, resumedSecond]);
    },
  },
  {
    does: 'renews its token 280 s before a 900 s token expires (sparse calls), and at 30 s left',
    pass: ['auth.token-reused'],
    async run(t) {
      for (let i = 0; i < 3; i++) {
        await api(t, auth(t, undefined, 900), 'GET', '/providers');
        await t.sandbox.control.advanceClock(620);
      }
      for (let i = 0; i < 3; i++) {
        await api(t, auth(t, undefined, 120), 'GET', '/connectors');
        await t.sandbox.control.advanceClock(90);
      }
    },
  },
  {
    does: 'sends the earlier published Service-Version 2026-06-12',
    pass: ['version.service-version-sent'],
    async run(t) {
      const a = auth(t);
      await api(t, a, 'GET', '/providers', { version: '2026-06-12' });
      await create(t, a, 'old-version-0001');
    },
  },
  {
    does: 'retries with the same key and content serialised anew (other key order, indented)',
    pass: ['retry.same-key-and-content', 'idempotency.one-key-one-content'],
    async run(t) {
      const a = auth(t);
      fault(t, { kind: 'internal', route: 'createConnection', count: 1 });
      const reordered = JSON.stringify(Object.fromEntries(Object.entries(CONNECTION).reverse()), null, 2);
      await withWaits(
        t,
        (n) =>
          api(
            t,
            a,
            'POST',
            '/connections',
            n ? { raw: reordered, key: 'reserialised-01' } : { body: CONNECTION, key: 'reserialised-01' },
          ),
        [300],
      );
    },
  },
  {
    does: 'creates two connections with equal content under two keys at once while the service is slow',
    pass: ['idempotency.one-key-one-content'],
    async run(t) {
      const a = auth(t);
      fault(t, { kind: 'latency', route: 'createConnection', latencyMs: 400, count: 2 });
      const before = held(t);
      const twins = Promise.all([create(t, a, 'twin-create-0001'), create(t, a, 'twin-create-0002')]);
      // While both are awaited (held by the latency), 400 ms pass on the sandbox clock.
      await untilHeld(t, before, 2);
      await sleepOn(t, 400);
      await twins;
    },
  },
  {
    does: 'times a create out with a timer raced against it (the request stays open) and retries with its key',
    pass: ['retry.same-key-and-content', 'retry.only-after-failure'],
    async run(t) {
      const a = auth(t);
      fault(t, { kind: 'latency', route: 'createConnection', latencyMs: 700, count: 1 });
      const raced = (n: number) => {
        const call = create(t, a, 'raced-create-0001');
        // The client's own timer, on the sandbox clock (clientTimer): it wins only over a held call.
        const timer = clientTimer(t, n ? 5_000 : 250, call).then((timedOut) =>
          timedOut ? ({ status: 0, json: undefined, retryAfterMs: 0 } as Reply) : call,
        );
        return Promise.race([call, timer]);
      };
      await withWaits(t, raced, [100]);
      await sleepOn(t, 600); // the first answer leaves 700 ms (sandbox clock) after it arrived
    },
  },
  {
    does: 'makes the same reads and capability checks in parallel',
    pass: ['auth.token-reused'],
    async run(t) {
      const a = auth(t);
      const check = { connectorId: 'tillcraft-pos-cloud', capability: 'orders.read' };
      await Promise.all([
        ...Array.from({ length: 6 }, () => api(t, a, 'GET', '/providers')),
        ...Array.from({ length: 3 }, () => api(t, a, 'POST', '/capabilities', { body: check })),
      ]);
    },
  },
  {
    does: 'retries a capability check (not a modifying call) after a 500 without a key',
    pass: ['retry.only-after-failure'],
    async run(t) {
      const a = auth(t);
      fault(t, { kind: 'internal', route: 'checkCapability', count: 1 });
      const body = { connectorId: 'tillcraft-pos-cloud', capability: 'orders.read' };
      await withWaits(t, () => api(t, a, 'POST', '/capabilities', { body }), [300]);
    },
  },

  ...WAITING_CLIENTS,
];
