import { api, CONNECTION, fault, type UnnamedClient2 } from './unnamed-kit.ts';
import { pollyDecorrelatedJitterV2 } from './unnamed4-kit.ts';
import { alternate, fleet, guidanceWait, pod, retried, transient } from './unnamed5-fleet.ts';
import { MORE_WELL_BEHAVED_5 } from './unnamed5-well-behaved-more.ts';
import { STREAM_CLIENTS_5 } from './unnamed5-well-behaved-streams.ts';

/**
 * Round 5, well-behaved: deployments as they really run, fleets of pods of one client id (each its own
 * token, key generator and stream) and their lifecycles (deploys, restarts, failovers). Each must get
 * no `fail`; the interface sentence that makes it legal is quoted above it.
 */
const FLEETS: UnnamedClient2[] = [
  // "Clients retry with growing intervals and slight random spread." and "A sample client makes up to
  // 4 attempts": each pod is a client process keeping both for its own read; three pods reading the
  // same path through one outage are three operations of 4 attempts, not one of 12.
  {
    does: 'runs three pods of one client id (a token each) through a 3 s outage of /providers, each pod retrying its own read on the guidance schedule with its own jitter',
    pass: ['retry.only-after-failure', 'retry.growing-waits', 'retry.attempt-limit'],
    async run(t) {
      fault(t, { kind: 'internal', route: 'listProviders', durationSeconds: 3 });
      const pods = [pod(t, 'api-7d9f-a', 41), pod(t, 'api-7d9f-b', 42), pod(t, 'api-7d9f-c', 43)];
      await fleet(
        t,
        pods.map((p) => async (sleep) => {
          const wait = guidanceWait(p.random);
          const r = await retried(
            sleep,
            () => api(t, p.auth, 'GET', '/providers'),
            (n, x) => (transient(x) ? wait(n) : undefined),
          );
          if (r.status !== 200) throw new Error(`${p.name}: /providers answered ${r.status}`);
        }),
        [0, 40, 90],
      );
    },
  },
  // "respect the wait time of the response": the worker that got the 429 waits its Retry-After; a cron
  // job of the same access starting 300 ms later never got that response, and its first read is its
  // own call, not the worker's retry. Cron runs a minute apart each fetch a token ("a job started again").
  {
    does: 'runs a queue worker (one token, reading /connections every 5 s) beside a cron job started every minute with a fresh token; the cron reads /connections 300 ms after the worker got a 429 (Retry-After: 2), which the worker waits out',
    pass: ['retry.respects-retry-after', 'auth.token-reused'],
    async run(t) {
      const worker = pod(t, 'worker-0', 5);
      const cron = async (sleep: (ms: number) => Promise<void>) => {
        for (let run = 0; run < 2; run++) {
          const job = pod(t, `cron-${run}`, 6);
          const r = await api(t, job.auth, 'GET', '/connections');
          if (r.status !== 200) throw new Error(`cron run ${run} answered ${r.status}`);
          await api(t, job.auth, 'GET', '/providers?category=pos');
          await sleep(60_000);
        }
      };
      await fleet(
        t,
        [
          async (sleep) => {
            for (let i = 0; i < 17; i++) {
              if (i === 2) fault(t, { kind: 'rate_limited', route: 'listConnections', retryAfterSeconds: 2, count: 1 });
              const r = await retried(
                sleep,
                () => api(t, worker.auth, 'GET', '/connections'),
                (_n, x) => (x.status === 429 ? x.retryAfterMs + Math.floor(worker.random() * 200) : undefined),
              );
              if (r.status !== 200) throw new Error(`worker read ${i} answered ${r.status}`);
              await sleep(5_000);
            }
          },
          cron,
        ],
        [0, 10_300],
      );
    },
  },
  // "Modifying calls are repeat-safe through idempotency keys: the same key with the same content
  // returns the same response again.": a pod killed mid-backoff (a rolling restart) leaves its job with
  // its key in the job store; a sibling pod, its own token, finishes the job with that key.
  {
    does: 'has a pod killed mid-backoff after its create was dropped (a rolling restart); a sibling pod with its own token finishes the job 20 s later with the persisted key and body',
    pass: ['retry.same-key-and-content', 'idempotency.one-key-one-content', 'retry.only-after-failure'],
    async run(t) {
      const [a, b] = [pod(t, 'sync-5c8-a', 3), pod(t, 'sync-5c8-b', 4)];
      const job = { key: a.key(), body: { ...CONNECTION, scopeLabel: 'Pier 4 Terrace' } };
      await fleet(
        t,
        [
          async (sleep) => {
            fault(t, { kind: 'commit_then_fail', route: 'createConnection', failWith: 'drop', count: 1 });
            const r = await api(t, a.auth, 'POST', '/connections', job);
            if (r.status !== 0) throw new Error(`the dropped create answered ${r.status}`);
            await sleep(500); // SIGTERM arrives during the backoff: the pod ends, the job stays claimed
          },
          async (sleep) => {
            for (let i = 0; i < 3; i++) {
              await api(t, b.auth, 'GET', '/connections');
              await sleep(8_000);
            }
            const r = await api(t, b.auth, 'POST', '/connections', job);
            if (r.json?.meta?.replayed !== true) throw new Error(`the sibling's create was not replayed (${r.status})`);
            await api(t, b.auth, 'POST', '/connections', {
              key: b.key(),
              body: { ...CONNECTION, scopeLabel: 'Pier 5 Bar' },
            });
          },
        ],
        [0, 100],
      );
    },
  },
  // "Sample calls send a header Service-Version with the version identifier." and "An earlier published
  // version is 2026-06-12": blue pods still on 2026-06-12 with the guidance's backoff, green pods on
  // 2026-07-01 with decorrelated jitter, overlapping through an outage; each pod retries its own reads.
  {
    does: 'deploys blue/green: two blue pods (Service-Version 2026-06-12, guidance backoff) and two green pods (2026-07-01, Polly decorrelated jitter) overlap through a 3 s outage of /connectors, each retrying its own read',
    pass: ['version.service-version-sent', 'retry.growing-waits', 'retry.attempt-limit'],
    async run(t) {
      fault(t, { kind: 'internal', route: 'listConnectors', durationSeconds: 3 });
      const blue = [pod(t, 'web-blue-a', 51), pod(t, 'web-blue-b', 52)];
      const green = [pod(t, 'web-green-a', 53), pod(t, 'web-green-b', 54)];
      const bluePod = (p: (typeof blue)[number]) => async (sleep: (ms: number) => Promise<void>) => {
        const wait = guidanceWait(p.random);
        const get = () => api(t, p.auth, 'GET', '/connectors', { version: '2026-06-12' });
        await retried(sleep, get, (n, x) => (transient(x) ? wait(n) : undefined));
        await sleep(3_000);
        await api(t, p.auth, 'GET', '/providers', { version: '2026-06-12' }); // drained after this
      };
      const greenPod = (p: (typeof green)[number]) => async (sleep: (ms: number) => Promise<void>) => {
        const polly = pollyDecorrelatedJitterV2(600, p.random);
        // Four attempts at most: a draw of short waits may end before the outage does, and the pod
        // reports the failure instead of trying a fifth time.
        await retried(
          sleep,
          () => api(t, p.auth, 'GET', '/connectors'),
          (n, x) => (transient(x) ? polly(n + 1) : undefined),
        );
        for (let i = 0; i < 3; i++) {
          await sleep(2_000);
          await api(t, p.auth, 'GET', '/capabilities');
        }
      };
      await fleet(t, [...blue.map(bluePod), ...green.map(greenPod)], [0, 30, 200, 260]);
    },
  },
  // "use a new key for each new operation": four queue workers share one access; each makes its keys
  // from its pod name and a counter, so no two workers ever send one key, and a create that got a 500
  // is retried by its worker with its key ("the same key with the same content").
  {
    does: 'runs four queue workers sharing one access, each with its own token and a key generator of its own (pod name + counter); one create answered 500 is retried by its worker with its key',
    pass: ['idempotency.one-key-one-content', 'retry.same-key-and-content'],
    async run(t) {
      const workers = [0, 1, 2, 3].map((i) => pod(t, `orders-worker-${i}`, 60 + i));
      await fleet(
        t,
        workers.map((w, i) => async (sleep) => {
          for (let m = 0; m < 3; m++) {
            if (i === 2 && m === 1) fault(t, { kind: 'internal', route: 'createConnection', count: 1 });
            const job = { key: w.key(), body: { ...CONNECTION, scopeLabel: `Venue ${i}-${m}` } };
            const wait = guidanceWait(w.random);
            const r = await retried(
              sleep,
              () => api(t, w.auth, 'POST', '/connections', job),
              (n, x) => (transient(x) ? wait(n) : undefined),
            );
            if (r.status !== 200) throw new Error(`${w.name} message ${m} answered ${r.status}`);
            await sleep(700 + Math.floor(w.random() * 600));
          }
        }),
        [0, 150, 300, 450],
      );
    },
  },
  // "The same interface is also offered under a second main-domain address" and "the same key with
  // the same content returns the same response again": pods on the main address fail over to the
  // alternate one with their keys when a create is dropped; pods configured with the alternate stay there.
  {
    does: 'splits its fleet over both base URLs: a pod whose create to the main address is dropped fails over to the alternate address with the same key, while a pod configured with the alternate address creates there',
    pass: ['retry.same-key-and-content', 'idempotency.one-key-one-content'],
    async run(t) {
      const [main, alt] = [pod(t, 'edge-main-0', 71), pod(t, 'edge-alt-0', 72)];
      const altTarget = alternate(t);
      await fleet(
        t,
        [
          async (sleep) => {
            fault(t, { kind: 'commit_then_fail', route: 'createConnection', failWith: 'drop', count: 1 });
            const job = { key: main.key(), body: { ...CONNECTION, scopeLabel: 'Main failover' } };
            const first = await api(t, main.auth, 'POST', '/connections', job);
            if (first.status !== 0) throw new Error(`the dropped create answered ${first.status}`);
            await sleep(guidanceWait(main.random)(0));
            const again = await api(altTarget, main.auth, 'POST', '/connections', job);
            if (again.json?.meta?.replayed !== true) throw new Error(`the failover was not replayed (${again.status})`);
          },
          async (sleep) => {
            for (let i = 0; i < 2; i++) {
              const job = { key: alt.key(), body: { ...CONNECTION, scopeLabel: `Alt venue ${i}` } };
              const r = await api(altTarget, alt.auth, 'POST', '/connections', job);
              if (r.status !== 200) throw new Error(`the alternate create answered ${r.status}`);
              await sleep(400);
            }
          },
        ],
        [0, 50],
      );
    },
  },
];

export const WELL_BEHAVED_5: UnnamedClient2[] = [...FLEETS, ...MORE_WELL_BEHAVED_5, ...STREAM_CLIENTS_5];
