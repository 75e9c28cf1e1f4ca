import { auth, CONNECTION, fault, type Reply, type UnnamedClient2 } from './unnamed-kit.ts';
import type { FaultyClient } from './unnamed-misbehaving.ts';
import { seeded } from './unnamed4-kit.ts';
import { sleeper } from './unnamed6-kit.ts';
import { get, ok } from './unnamed8-kit.ts';
import { createWith, loop } from './unnamed11-kit.ts';
import { failsafeBackoff, readsOn } from './unnamed25-kit.ts';

/**
 * Round 25 probes at the edges of retry recognition: server-set waits inside a client's own growing ones, a
 * failed create taken over by a sibling pod, a load script whose next create looks like a retry (and one
 * whose retry looks like the next create), polling through a 429, a tight loop of 20 ms sleeps, a token
 * cache cleared on every error.
 */
export const PROBES_WELL_BEHAVED_25: UnnamedClient2[] = [
  // "A wait the server set is not judged": 500 (own 1 s), 429 with Retry-After 1 (1 s, the server's), 500
  // (own 2 s): its own waits grow, the server's sits between them; on three reads.
  {
    does: 'waits its own 1 s after a 500, a 429’s Retry-After of 1 s, then its own 2 s after another 500, on three reads',
    pass: ['retry.respects-retry-after', 'retry.attempt-limit'],
    async run(t) {
      const a = auth(t);
      const random = seeded(2541);
      for (const [route, path] of [
        ['listProviders', '/providers'],
        ['listConnectors', '/connectors'],
        ['listCapabilities', '/capabilities'],
      ] as const) {
        fault(t, { kind: 'internal', route, count: 1 });
        let own = 0;
        const wait = (_n: number, r: Reply) =>
          r.status === 429 ? r.retryAfterMs : 1_000 * 2 ** own++ + Math.round(random() * 200);
        const send = async (n: number) => {
          if (n === 1) fault(t, { kind: 'rate_limited', route, retryAfterSeconds: 1, count: 1 });
          if (n === 2) fault(t, { kind: 'internal', route, count: 1 });
          return get(t, a, path);
        };
        ok(path, await loop(sleeper(t), send, wait, 3));
        await sleeper(t)(5_000);
      }
    },
  },
  // "a failed create sent again by a sibling is its retry, key and all": pod A's create is refused 500 (not
  // committed) and the pod dies; pod B (its own token) takes the job from the queue 20 s later, with its key.
  {
    does: 'has a create refused 500 on a pod that then dies; a sibling pod (its own token) takes the job 20 s later and sends it under the job’s key',
    pass: ['retry.same-key-and-content'],
    async run(t) {
      fault(t, { kind: 'internal', route: 'createConnection', count: 1 });
      const body = { ...CONNECTION, scopeLabel: 'Sibling Sushi' };
      const first = await createWith(t, auth(t), body, 'queue-job-77120-conn');
      if (first.status !== 500) throw new Error(`answered ${first.status}`);
      await sleeper(t)(20_000);
      ok('sibling', await createWith(t, auth(t), body, 'queue-job-77120-conn'));
    },
  },
  // "use a new key for each new operation": a load script books one identical connection every 2 s, each
  // under its own key; one is refused 500 and the script goes on with the next, a new operation.
  {
    does: 'is a load script booking one identical connection every 2 s under a key each; one refused 500, the script goes on with the next',
    pass: [],
    async run(t) {
      const a = auth(t);
      const body = { ...CONNECTION, scopeLabel: 'Load Lasagne' };
      for (let i = 0; i < 7; i++) {
        if (i === 3) fault(t, { kind: 'internal', route: 'createConnection', count: 1 });
        await createWith(t, a, body, `load-run-7-op-${String(i).padStart(4, '0')}`);
        await sleeper(t)(2_000);
      }
    },
  },
  // "respect the wait time of the response": a poller reading every second pauses for a 429's Retry-After
  // of 3 s, then goes on at its cadence.
  {
    does: 'polls the capabilities every second, pauses for a 429’s Retry-After of 3 s, then goes on at its cadence',
    pass: ['retry.respects-retry-after'],
    async run(t) {
      const a = auth(t);
      for (let i = 0; i < 8; i++) {
        if (i === 4) fault(t, { kind: 'rate_limited', route: 'listCapabilities', retryAfterSeconds: 3, count: 1 });
        const r = await get(t, a, '/capabilities');
        await sleeper(t)(r.status === 429 ? r.retryAfterMs : 1_000);
      }
    },
  },

  // Polling is no retry: a controller polls the connections with client-go's `wait.JitterUntil(10 s, 0.5)`
  // (each gap 10-15 s) and keeps its jittered cadence through four 500s.
  {
    does: 'polls the connections with wait.JitterUntil (10 s, jitter factor 0.5) and keeps its jittered cadence through four 500s',
    pass: [],
    async run(t) {
      const a = auth(t);
      const random = seeded(2545);
      for (let i = 0; i < 14; i++) {
        if (i === 6) fault(t, { kind: 'internal', route: 'listConnections', count: 4 });
        await get(t, a, '/connections');
        await sleeper(t)(Math.round(10_000 * (1 + random() * 0.5)));
      }
    },
  },
];

export const PROBES_MISBEHAVING_25: FaultyClient[] = [
  // "Idempotency keys reused on retries": a load script books a numbered connection every 2 s; after a 500
  // it sends the failed one's body again at the next tick under that tick's new key.
  {
    does: 'is a load script booking numbered connections every 2 s that re-sends a create refused 500 at the next tick under that tick’s new key',
    fails: ['retry.same-key-and-content'],
    async run(t) {
      const a = auth(t);
      const queue = [0, 1, 2, 3, 4, 5];
      for (let tick = 0; queue.length > 0; tick++) {
        const i = queue[0] ?? 0;
        if (tick === 2) fault(t, { kind: 'internal', route: 'createConnection', count: 1 });
        const r = await createWith(t, a, { ...CONNECTION, scopeLabel: `Load Venue ${i}` }, `load-tick-${tick}-0000`);
        if (r.status === 200) queue.shift();
        await sleeper(t)(2_000);
      }
    },
  },
  // "respect the wait time of the response": a poller reading every second keeps its cadence through a
  // 429 with Retry-After 3.
  {
    does: 'polls the capabilities every second and keeps its cadence through a 429 with Retry-After 3',
    fails: ['retry.respects-retry-after'],
    async run(t) {
      const a = auth(t);
      for (let i = 0; i < 8; i++) {
        if (i === 4) fault(t, { kind: 'rate_limited', route: 'listCapabilities', retryAfterSeconds: 3, count: 1 });
        await get(t, a, '/capabilities');
        await sleeper(t)(1_000);
      }
    },
  },
  // "Clients retry with growing intervals": a tight loop sleeping 20 ms between attempts ("just enough to
  // yield"), three reads each through three 500s.
  {
    does: 'retries in a tight loop sleeping 20 ms between attempts, three reads each through three 500s',
    fails: ['retry.growing-waits'],
    async run(t) {
      await readsOn(t, auth(t), sleeper(t), { schedule: () => 20, failures: 3, max: 3 });
    },
  },
  // "Tokens are short-lived and are renewed, not extended": a client clears its token cache on every error,
  // so each retry after a 500 fetches a new 1 h token.
  {
    does: 'clears its token cache on every error, fetching a new 1 h token for each retry after a 500 (Failsafe waits), three reads each through two 500s',
    fails: ['auth.token-reused'],
    async run(t) {
      let a = auth(t, undefined, 3_600);
      const wait = failsafeBackoff(seeded(2548));
      for (const [route, path] of [
        ['listProviders', '/providers'],
        ['listConnectors', '/connectors'],
        ['listCapabilities', '/capabilities'],
      ] as const) {
        fault(t, { kind: 'internal', route, count: 2 });
        const send = async () => {
          const r = await get(t, a, path);
          if (r.status !== 200) a = auth(t, undefined, 3_600);
          return r;
        };
        ok(path, await loop(sleeper(t), send, wait, 3));
        await sleeper(t)(5_000);
      }
    },
  },
  // "retry only after rate_limited and internal ... respect the wait time": Retry-After honoured on the first
  // 429 of a read only (a `respectRetryAfter` flag reset after use); the second 429 is retried after 200 ms.
  {
    does: 'honours Retry-After (2 s) on the first 429 of a read but retries the second 429 after its own 200 ms, on three reads',
    fails: ['retry.respects-retry-after'],
    async run(t) {
      const a = auth(t);
      for (const [route, path] of [
        ['listProviders', '/providers'],
        ['listConnectors', '/connectors'],
        ['listCapabilities', '/capabilities'],
      ] as const) {
        fault(t, { kind: 'rate_limited', route, retryAfterSeconds: 2, count: 2 });
        ok(
          path,
          await loop(
            sleeper(t),
            () => get(t, a, path),
            (n, r) => (n === 0 ? r.retryAfterMs : 200),
            3,
          ),
        );
        await sleeper(t)(5_000);
      }
    },
  },
];
