import type { Target } from '../harness.ts';
import { held, sleepOn, untilHeld } from '../harness.ts';
import {
  type Auth,
  api,
  auth,
  CONNECTION,
  draws,
  fault,
  type Reply,
  type UnnamedClient2,
  withWaits,
} from './unnamed-kit.ts';
import { forwardProxy, pipeline, upload, viaProxy } from './unnamed3-kit.ts';
import { SCHEDULE_CLIENTS } from './unnamed3-well-behaved-schedules.ts';

/**
 * Round 3 of the well-behaved but unusual clients: other HTTP stacks and habits than rounds 1 and 2.
 * Each must get no `fail`, and `pass` on the rules it exercised. The interface sentence that makes each
 * legal is quoted above it.
 */

/** A read sent twice when the first is slow (hedging): the first answer wins, the other is cancelled. */
async function hedgedRead(t: Target, a: Auth, path: string): Promise<number> {
  const send = (signal: AbortSignal) =>
    t
      .fetch(`${t.baseUrl}/api/public/v1${path}`, {
        headers: { authorization: `Bearer ${a.token}`, 'x-service-tenant': a.tenant, 'service-version': '2026-07-01' },
        signal,
      })
      .then(async (res) => {
        await res.arrayBuffer();
        return res.status;
      });
  const [first, hedge] = [new AbortController(), new AbortController()];
  const before = held(t);
  const one = send(first.signal).catch(() => 0);
  await untilHeld(t, before); // the first is held by the latency before the client's 100 ms pass
  await sleepOn(t, 100);
  const two = send(hedge.signal).catch(() => 0);
  const winner = await Promise.race([one, two]);
  first.abort();
  hedge.abort();
  return winner;
}

export const WELL_BEHAVED_3: UnnamedClient2[] = [
  // "Retry guidance: retry only after rate_limited and internal." Pipelined calls are calls sent at once.
  {
    does: 'pipelines reads on one HTTP/1.1 connection (two of them identical) and retries the one refused with 500 there',
    pass: ['retry.only-after-failure'],
    async run(t) {
      const a = auth(t);
      const pipe = await pipeline(t);
      try {
        fault(t, { kind: 'internal', route: 'listConnectors', count: 1 });
        const r = await pipe.send(a, [
          ['GET', '/providers'],
          ['GET', '/connectors'],
          ['GET', '/connections'],
          ['GET', '/connections'],
        ]);
        if (r[1]?.status !== 500 || r[3]?.status !== 200) throw new Error(`answered ${r.map((x) => x.status)}`);
        await sleepOn(t, 350);
        await pipe.send(a, [
          ['GET', '/connectors'],
          ['POST', '/connections', { body: CONNECTION, key: 'pipelined-create-01' }],
        ]);
      } finally {
        pipe.close();
      }
    },
  },
  // "Modifying calls are repeat-safe through idempotency keys" — a proxy's own headers change nothing.
  {
    does: 'calls through a forward proxy that adds Via, Forwarded and X-Forwarded-For over one upstream connection, retrying a create with its key',
    pass: ['retry.same-key-and-content', 'version.service-version-sent'],
    async run(t) {
      const proxy = await forwardProxy({ add: { via: '1.1 squid-edge', forwarded: 'for=10.20.0.7;proto=http' } });
      try {
        const a = auth(t);
        // Two reads at once: the proxy sends them one after the other on its one connection.
        await Promise.all([viaProxy(t, proxy, a, 'GET', '/providers'), viaProxy(t, proxy, a, 'GET', '/connectors')]);
        fault(t, { kind: 'internal', route: 'createConnection', count: 1 });
        const body = { body: CONNECTION, key: 'proxied-create-0001' };
        const r = await withWaits(t, () => viaProxy(t, proxy, a, 'POST', '/connections', body), [400]);
        if (r.status !== 200) throw new Error(`the proxied create answered ${r.status}`);
      } finally {
        await proxy.close();
      }
    },
  },
  // "the same key with the same content returns the same response again": a body cut off mid-upload
  // never reached the service, so sending it whole under its key is the same operation.
  {
    does: 'has its connection reset mid-upload of a create and sends the body again whole, with the same key',
    pass: ['idempotency.one-key-one-content'],
    async run(t) {
      const a = auth(t);
      const cut = await upload(t, a, '/connections', { body: CONNECTION, key: 'cut-upload-0001', cutAfterBytes: 40 });
      if (cut.status !== 0) throw new Error(`the cut upload answered ${cut.status}`);
      await sleepOn(t, 300);
      const whole = await upload(t, a, '/connections', { body: CONNECTION, key: 'cut-upload-0001' });
      if (whole.status !== 200) throw new Error(`the whole upload answered ${whole.status}`);
    },
  },
  // The same duty over a streaming stack: chunked bodies sent after `100 Continue`.
  {
    does: 'uploads creates chunked after Expect: 100-continue and retries one after a 500 with its key',
    pass: ['retry.same-key-and-content', 'idempotency.one-key-one-content'],
    async run(t) {
      const a = auth(t);
      fault(t, { kind: 'internal', route: 'createConnection', count: 1 });
      const send = (key: string, scopeLabel: string) => () =>
        upload(t, a, '/connections', { body: { ...CONNECTION, scopeLabel }, key, expectContinue: true });
      await withWaits(t, send('continue-create-01', 'Chunked Deck'), [350]);
      await withWaits(t, send('continue-create-02', 'Chunked Bar'), [350]);
    },
  },
  // "Retry guidance: retry only after rate_limited and internal." A hedge is sent while the first is
  // slow and still awaited; nothing was refused, so nothing is repeated against a refusal.
  {
    does: 'hedges slow reads: a second copy after 100 ms, the first answer wins and the other is cancelled',
    pass: ['retry.only-after-failure'],
    async run(t) {
      const a = auth(t);
      for (const path of ['/connectors', '/capabilities']) {
        fault(t, {
          kind: 'latency',
          route: path === '/connectors' ? 'listConnectors' : 'listCapabilities',
          latencyMs: 600,
        });
        const status = await hedgedRead(t, a, path);
        if (status !== 200) throw new Error(`hedged ${path} answered ${status}`);
        await sleepOn(t, 600); // the cancelled copy's latency ends and its record is written
        await sleepOn(t, 2_000);
        await api(t, a, 'GET', path); // read again later: polling, not a retry
      }
    },
  },
  // "Tokens are short-lived and are renewed, not extended."
  {
    does: 'refreshes its token proactively at 80 % of a 600 s lifetime while calling every 20 s',
    pass: ['auth.token-reused'],
    async run(t) {
      let a = auth(t, undefined, 600);
      let age = 0;
      for (let i = 0; i < 70; i++) {
        if (age >= 480) {
          a = auth(t, undefined, 600);
          age = 0;
        }
        await api(t, a, 'GET', i % 2 ? '/connections' : '/providers');
        await t.sandbox.control.advanceClock(20);
        age += 20;
      }
    },
  },
  // "Sample calls send a header Service-Version with the version identifier." Both are published.
  {
    does: 'sends Service-Version 2026-06-12 from its older write module and 2026-07-01 on reads, also across one retry',
    pass: ['version.service-version-sent', 'retry.same-key-and-content'],
    async run(t) {
      const a = auth(t);
      await api(t, a, 'GET', '/connectors', { version: '2026-07-01' });
      fault(t, { kind: 'internal', route: 'createConnection', count: 1 });
      const attempt = (n: number) =>
        api(t, a, 'POST', '/connections', {
          body: CONNECTION,
          key: 'mixed-version-0001',
          version: n ? '2026-07-01' : '2026-06-12',
        });
      await withWaits(t, attempt, [300]);
      await api(t, a, 'GET', '/connections', { version: '2026-07-01' });
    },
  },
  // "use a new key for each new operation": one generator shared by the workers of a pool.
  {
    does: 'runs four workers sharing one Idempotency-Key generator; two creates get a 500 and are retried with their keys',
    pass: ['retry.same-key-and-content', 'idempotency.one-key-one-content'],
    async run(t) {
      const a = auth(t);
      let n = 0;
      const nextKey = () => `pool-7c1e-${String(++n).padStart(4, '0')}`;
      const r = draws([0.2, 0.9, 0.5, 0.7]);
      fault(t, { kind: 'internal', route: 'createConnection', count: 2 });
      await Promise.all(
        [0, 1, 2, 3].map(async (w) => {
          const key = nextKey();
          const body = { ...CONNECTION, scopeLabel: `Pool venue ${w}` };
          await withWaits(t, () => api(t, a, 'POST', '/connections', { body, key }), [
            () => 300 + Math.floor(r() * 200),
          ]);
        }),
      );
    },
  },
  // Keys from "POST /api/public/v1/idempotency-keys | generate an idempotency key", prefetched.
  {
    does: 'prefetches three keys from POST /idempotency-keys (one fetch retried after a 500) and retries a 429ed create with its issued key',
    pass: ['retry.same-key-and-content', 'retry.respects-retry-after', 'idempotency.one-key-one-content'],
    async run(t) {
      const a = auth(t);
      const keys: string[] = [];
      for (let i = 0; i < 3; i++) {
        if (i === 1) fault(t, { kind: 'internal', route: 'createIdempotencyKey', count: 1 });
        const op = { body: { operation: 'connection.create' } };
        const r = await withWaits(t, () => api(t, a, 'POST', '/idempotency-keys', op), [200]);
        keys.push(String(r.json?.data?.idempotencyKey));
      }
      fault(t, { kind: 'rate_limited', route: 'createConnection', retryAfterSeconds: 1, count: 1 });
      for (const [i, key] of keys.entries()) {
        const body = { ...CONNECTION, scopeLabel: `Prefetched ${i}` };
        await withWaits(t, () => api(t, a, 'POST', '/connections', { body, key }), [(x: Reply) => x.retryAfterMs + 60]);
      }
    },
  },

  ...SCHEDULE_CLIENTS,
];
