import { held, sleepOn, untilHeld } from '../harness.ts';
import {
  api,
  auth,
  CONNECTION,
  create,
  draws,
  fault,
  http10,
  type Reply,
  type UnnamedClient2,
  withWaits,
} from './unnamed-kit.ts';
import { STREAM_CLIENTS } from './unnamed2-well-behaved-streams.ts';

const wait300 = [300];

/**
 * Round 2 of the well-behaved but unusual clients: legal things none of the first round did. Each must
 * get no `fail`, and `pass` on the rules it exercised.
 */
export const WELL_BEHAVED_2: UnnamedClient2[] = [
  {
    does: 'shares one token between two workers (one on keep-alive, one a socket per call), each creating with its own keys',
    pass: ['idempotency.one-key-one-content', 'retry.same-key-and-content', 'auth.token-reused'],
    async run(t) {
      const a = auth(t);
      fault(t, { kind: 'internal', route: 'createConnection', count: 2 });
      const worker = (name: string, call: typeof api) => async () => {
        for (let i = 0; i < 3; i++) {
          const body = { ...CONNECTION, scopeLabel: `${name} venue ${i}` };
          await withWaits(
            t,
            () => call(t, a, 'POST', '/connections', { body, key: `${name}-create-${i}-01` }),
            wait300,
          );
          await call(t, a, 'GET', `/connections`);
        }
      };
      await Promise.all([worker('keepalive', api)(), worker('socket', http10)()]);
    },
  },
  {
    does: 'restarts after a dropped create (a new process, a new token) and retries over HTTP/1.0 with the key it persisted',
    pass: ['retry.same-key-and-content', 'retry.only-after-failure'],
    async run(t) {
      fault(t, { kind: 'commit_then_fail', route: 'createConnection', failWith: 'drop' });
      const first = await create(t, auth(t), 'persisted-key-0001');
      if (first.status !== 0) throw new Error(`the dropped create answered ${first.status}`);
      await sleepOn(t, 300);
      const again = await http10(t, auth(t), 'POST', '/connections', { body: CONNECTION, key: 'persisted-key-0001' });
      if (again.json?.meta?.replayed !== true) throw new Error('the retry was not replayed');
    },
  },
  {
    does: 'retries reads with their query parameters in another order (after a 500, and after a 429 waited out)',
    pass: ['retry.only-after-failure', 'retry.respects-retry-after'],
    async run(t) {
      const a = auth(t);
      fault(t, { kind: 'internal', route: 'listConnectors', count: 1 });
      const paths = [
        '/connectors?capability=orders.read&providerId=tillcraft',
        '/connectors?providerId=tillcraft&capability=orders.read',
      ];
      await withWaits(t, (n) => api(t, a, 'GET', paths[n % 2] ?? ''), wait300);
      fault(t, { kind: 'rate_limited', route: 'listProviders', retryAfterSeconds: 1, count: 1 });
      const q = ['/providers?category=pos&x-trace=1', '/providers?x-trace=1&category=pos'];
      await withWaits(t, (n) => api(t, a, 'GET', q[n % 2] ?? ''), [(r: Reply) => r.retryAfterMs + 120]);
    },
  },
  {
    does: 'learns Service-Version from the public self-description and sends the cached value (header name in capitals)',
    pass: ['version.service-version-sent'],
    async run(t) {
      const self = await (await t.fetch(`${t.baseUrl}/api/public/v1`)).json();
      const version = String(self?.data?.version ?? self?.meta?.version);
      const a = auth(t);
      for (const path of ['/providers', '/connectors', '/capabilities'])
        await api(t, a, 'GET', path, { version: null, headers: { 'SERVICE-VERSION': version } });
      await api(t, a, 'POST', '/connections', {
        body: CONNECTION,
        key: 'cached-version-01',
        version: null,
        headers: { 'SERVICE-VERSION': version },
      });
    },
  },
  {
    does: 'takes a new key per operation, and 25 h later reuses a key the service has let expire for a new create',
    pass: ['idempotency.one-key-one-content'],
    async run(t) {
      const first = await create(t, auth(t), 'nightly-run-0001');
      if (first.status !== 200) throw new Error(`create answered ${first.status}`);
      await create(t, auth(t), 'nightly-run-0002', { ...CONNECTION, scopeLabel: 'Second venue' });
      await t.sandbox.control.advanceClock(25 * 3600);
      // A day later the job starts again (a new token) and its key counter starts again too.
      const again = await create(t, auth(t), 'nightly-run-0001', { ...CONNECTION, scopeLabel: 'Next day venue' });
      if (again.status !== 200 || again.json?.meta?.replayed) throw new Error(`reuse answered ${again.status}`);
    },
  },
  {
    does: 'waits out a 30 s Retry-After (its sleep is the sandbox clock advanced by 30 s)',
    pass: ['retry.respects-retry-after', 'retry.only-after-failure'],
    async run(t) {
      const a = auth(t, undefined, 3600);
      fault(t, { kind: 'rate_limited', route: 'listProviders', retryAfterSeconds: 30, count: 1 });
      await withWaits(t, () => api(t, a, 'GET', '/providers'), [
        (r: Reply) => {
          void t.sandbox.control.advanceClock(r.retryAfterMs / 1000);
          return 0;
        },
      ]);
    },
  },
  {
    does: 'polls the newest audit-log page every 250 ms, pages back with before=, and waits out a 429 in between',
    pass: ['retry.respects-retry-after'],
    async run(t) {
      const a = auth(t);
      for (let i = 0; i < 3; i++) await create(t, a, `audit-poll-000${i}`, { ...CONNECTION, scopeLabel: `Poll ${i}` });
      for (let i = 0; i < 4; i++) {
        if (i === 2) fault(t, { kind: 'rate_limited', route: 'getAuditLog', retryAfterSeconds: 1, count: 1 });
        const r = await withWaits(t, () => api(t, a, 'GET', '/audit-log?limit=2'), [(x: Reply) => x.retryAfterMs + 50]);
        const before = r.json?.data?.proof?.fromSeq;
        if (i === 3 && before) await api(t, a, 'GET', `/audit-log?limit=2&before=${before}`);
        await sleepOn(t, 250);
      }
    },
  },
  {
    does: 'retries a read at once, then after about 400 ms (an immediate first retry, then a growing wait)',
    pass: ['retry.growing-waits', 'retry.only-after-failure'],
    async run(t) {
      const a = auth(t);
      const r = draws([0.3, 0.8]);
      for (const route of ['listProviders', 'listCapabilities'] as const) {
        fault(t, { kind: 'internal', route, count: 2 });
        const path = route === 'listProviders' ? '/providers' : '/capabilities';
        await withWaits(t, () => api(t, a, 'GET', path), [() => 0, () => 400 + Math.floor(r() * 150)]);
      }
    },
  },
  {
    does: 'creates with a key issued by POST /idempotency-keys and retries the create after a gateway 503 with it',
    pass: ['retry.same-key-and-content', 'idempotency.one-key-one-content'],
    async run(t) {
      const a = auth(t);
      const issued = await api(t, a, 'POST', '/idempotency-keys', { body: { operation: 'connection.create' } });
      const key = String(issued.json?.data?.idempotencyKey);
      fault(t, { kind: 'unavailable', route: 'createConnection', retryAfterSeconds: 1, count: 1 });
      await withWaits(t, () => create(t, a, key), [(r: Reply) => r.retryAfterMs + 100]);
    },
  },
  {
    does: 'renews its token after a 401 (it expired) and makes the call again with the new one',
    pass: ['auth.token-reused'],
    async run(t) {
      const a = auth(t, undefined, 120);
      await api(t, a, 'GET', '/connections');
      await api(t, a, 'GET', '/providers');
      await t.sandbox.control.advanceClock(180);
      const refused = await api(t, a, 'GET', '/connections');
      if (refused.status !== 401) throw new Error(`the expired token got ${refused.status}`);
      const b = auth(t, undefined, 120);
      await api(t, b, 'GET', '/connections');
      await api(t, b, 'GET', '/providers');
    },
  },
  {
    does: 'looks up its connections after a dropped create before retrying it with its key',
    pass: ['retry.same-key-and-content'],
    async run(t) {
      const a = auth(t);
      fault(t, { kind: 'commit_then_fail', route: 'createConnection', failWith: 'drop' });
      await create(t, a, 'lookup-first-0001');
      await api(t, a, 'GET', '/connections');
      await sleepOn(t, 200);
      await create(t, a, 'lookup-first-0001');
    },
  },
  {
    does: 'registers two webhook receivers at once under two keys, one retried with its key after its 429',
    pass: ['retry.same-key-and-content', 'retry.respects-retry-after'],
    async run(t) {
      const a = auth(t);
      fault(t, { kind: 'rate_limited', route: 'createWebhook', retryAfterSeconds: 1, count: 1 });
      const hook = (n: number) =>
        withWaits(
          t,
          () =>
            api(t, a, 'POST', '/webhooks', {
              body: { url: `http://127.0.0.1:9/hooks/${n}`, events: ['order.created'] },
              key: `two-hooks-${n}-0001`,
            }),
          [(r: Reply) => r.retryAfterMs + 80],
        );
      await Promise.all([hook(1), hook(2)]);
    },
  },
  {
    does: 'gives up on slow reads after 250 ms and retries them with growing waits',
    pass: ['retry.only-after-failure', 'retry.growing-waits'],
    async run(t) {
      const a = auth(t);
      fault(t, { kind: 'latency', route: 'listConnections', latencyMs: 700, count: 2 });
      await withWaits(t, () => api(t, a, 'GET', '/connections', { timeoutMs: 250 }), [() => 200, () => 500]);
      await sleepOn(t, 500); // the held answers leave when their latency is over
    },
  },
  {
    does: 'waits each Retry-After of two gateway 503s in a row (equal waits, the server set them)',
    pass: ['retry.only-after-failure', 'retry.attempt-limit'],
    async run(t) {
      const a = auth(t);
      fault(t, { kind: 'unavailable', route: 'listCapabilities', retryAfterSeconds: 1, count: 2 });
      const ra = (r: Reply) => r.retryAfterMs;
      await withWaits(t, () => api(t, a, 'GET', '/capabilities'), [ra, ra]);
    },
  },
  {
    does: 'fails over to the second address after a gateway 503, retrying the create there with its key',
    pass: ['retry.same-key-and-content', 'retry.only-after-failure'],
    async run(t) {
      const a = auth(t);
      fault(t, { kind: 'unavailable', route: 'createConnection', retryAfterSeconds: 1, count: 1 });
      const alt = { ...t, baseUrl: t.altBaseUrl };
      const r = await withWaits(t, (n) => create(n ? alt : t, a, 'failover-create-01'), [(x: Reply) => x.retryAfterMs]);
      if (r.status !== 200) throw new Error(`the failover answered ${r.status}`);
    },
  },
  {
    does: 'sends its session Idempotency-Key on every read and capability check (polled), a fresh one per create',
    pass: ['idempotency.one-key-one-content', 'retry.same-key-and-content'],
    async run(t) {
      const a = auth(t);
      const session = 'session-key-7f3a9c';
      fault(t, { kind: 'internal', route: 'createConnection', count: 1 });
      await withWaits(t, () => create(t, a, 'fresh-create-0001'), wait300);
      for (const capability of ['orders.read', 'payments.refund', 'orders.read']) {
        await api(t, a, 'GET', '/connections', { key: session });
        await api(t, a, 'POST', '/capabilities', {
          body: { connectorId: 'tillcraft-pos-cloud', capability },
          key: session,
        });
        await sleepOn(t, 200);
      }
    },
  },
  {
    does: 'hedges a slow create: a second copy with the same key after 200 ms while the first is still awaited',
    pass: ['retry.same-key-and-content', 'idempotency.one-key-one-content'],
    async run(t) {
      const a = auth(t);
      fault(t, { kind: 'latency', route: 'createConnection', latencyMs: 600, count: 1 });
      const before = held(t);
      const first = create(t, a, 'hedged-create-0001');
      await untilHeld(t, before); // the first is held by the latency before the client's 200 ms pass
      await sleepOn(t, 200);
      const y = await create(t, a, 'hedged-create-0001');
      await sleepOn(t, 400); // still awaiting the first: its 600 ms pass on the sandbox clock
      const x = await first;
      if (x.json?.data?.id !== y.json?.data?.id) throw new Error('the hedged copies made two connections');
    },
  },
  {
    does: 'sends two identical reads at once for a tenant it is not released for (both 403), and stops',
    pass: [],
    async run(t) {
      const a = { ...auth(t), tenant: 'alpine-bistro' };
      const [x, y] = await Promise.all([api(t, a, 'GET', '/connections'), api(t, a, 'GET', '/connections')]);
      if (x.status !== 403 || y.status !== 403) throw new Error(`answered ${x.status}, ${y.status}`);
    },
  },

  ...STREAM_CLIENTS,
];
