import { sleepOn } from '../harness.ts';
import { api, auth, CONNECTION, fault, publish, readStream } from './unnamed-kit.ts';
import type { FaultyClient2 } from './unnamed2-misbehaving.ts';
import { fleet, guidanceWait, pod, retried, type Sleep, transient } from './unnamed5-fleet.ts';

/**
 * Round 5 of the misbehaving clients: fleets and lifecycles that break exactly one duty (the sentence
 * it breaks is quoted above it). Pods run on the fleet scheduler of unnamed5-fleet.ts.
 */
export const MISBEHAVING_5: FaultyClient2[] = [
  // "request an access token from the authorization server; send it as bearer token. Tokens are
  // short-lived and are renewed, not extended.": every pod fetches a token for every call.
  {
    does: 'runs three pods that each fetch a new token for every call',
    fails: ['auth.token-reused'],
    async run(t) {
      const paths = ['/connections', '/connectors', '/capabilities'];
      await fleet(
        t,
        paths.map((path) => async (sleep: Sleep) => {
          for (let i = 0; i < 4; i++) {
            await api(t, auth(t), 'GET', path);
            await sleep(500);
          }
        }),
        [0, 100, 200],
      );
    },
  },
  // "Modifying calls are repeat-safe through idempotency keys": the job of a create answered 500 is
  // picked up twice: its pod retries with the key, a second pod that got the job too sends it without one.
  {
    does: 'has two pods retry the same failed create: one with its key, the other (which got the job too) without a key',
    fails: ['retry.same-key-and-content'],
    async run(t) {
      const [a, b] = [pod(t, 'sync-a', 1), pod(t, 'sync-b', 2)];
      const job = { key: a.key(), body: { ...CONNECTION, scopeLabel: 'Twice Picked Venue' } };
      fault(t, { kind: 'internal', route: 'createConnection', count: 1 });
      await fleet(
        t,
        [
          async (sleep) => {
            const wait = guidanceWait(a.random);
            await retried(
              sleep,
              () => api(t, a.auth, 'POST', '/connections', job),
              (n, x) => (transient(x) ? wait(n) : undefined),
            );
          },
          async () => void (await api(t, b.auth, 'POST', '/connections', { body: job.body })),
        ],
        [0, 250],
      );
    },
  },
  // "After an interruption, the client resumes without gaps by sending Last-Event-ID or the query
  // parameter cursor (last number read).": a deploy wipes the cursor store, and every new pod resumes from 0.
  {
    does: 'deploys a version that resets the cursor store, so both stream pods resume from 0 after the restart',
    fails: ['stream.resume-from-last-read'],
    async run(t) {
      const [a, b] = [auth(t), auth(t)];
      fault(t, { kind: 'stream_restart', afterMessages: 3, downMs: 500, count: 2 });
      let opens = 0;
      const both = () => ++opens === 2 && publish(t, a.tenant, 3);
      await Promise.all([readStream(t, a, { count: 3, onOpen: both }), readStream(t, b, { count: 3, onOpen: both })]);
      await sleepOn(t, 1_000); // the deploy
      const [a2, b2] = [auth(t), auth(t)];
      await Promise.all([readStream(t, a2, { cursor: 0, idleMs: 400 }), readStream(t, b2, { cursor: 0, idleMs: 400 })]);
    },
  },
  // "A sample client makes up to 4 attempts": a job whose create failed four times is redelivered to a
  // second pod, which makes its own four attempts with the job's key: eight attempts of one operation.
  {
    does: 'has pods that each retry 4 times: a create job that failed 4 times on one pod is redelivered to another, which tries 4 times more with its key',
    fails: ['retry.attempt-limit'],
    async run(t) {
      const [a, b] = [pod(t, 'jobs-a', 11), pod(t, 'jobs-b', 12)];
      const job = { key: 'job-4411-create', body: { ...CONNECTION, scopeLabel: 'Eight Attempts Bar' } };
      fault(t, { kind: 'internal', route: 'createConnection', count: 7 });
      const attempt = (p: typeof a) => async (sleep: Sleep) => {
        const wait = guidanceWait(p.random);
        await retried(
          sleep,
          () => api(t, p.auth, 'POST', '/connections', job),
          (n, x) => (transient(x) ? wait(n) : undefined),
        );
      };
      // The queue's visibility timeout: the job comes back 5 s after the first pod gave up.
      await fleet(t, [attempt(a), attempt(b)], [0, 9_000]);
    },
  },
  // "The interface is called from servers only. Access credentials stay in the partner's backend and
  // are never sent from a browser.": a front-end bundle shipped with a token taken from a page.
  {
    does: 'leaks a token into a browser bundle: the page calls the interface with it (Origin plus Authorization)',
    fails: ['auth.no-browser-credentials'],
    async run(t) {
      const server = auth(t, undefined, 3600);
      await api(t, server, 'GET', '/connections');
      const headers = { origin: 'https://app.partner.example', referer: 'https://app.partner.example/venues' };
      await api(t, server, 'GET', '/connectors', { headers });
    },
  },
  // "Sample calls send a header Service-Version with the version identifier." (published: 2026-07-01
  // and 2026-06-12): a rollback to an old build sends a version that was never published; each pod
  // reads once, refused with 400.
  {
    does: 'rolls back to a build that sends the unpublished Service-Version 2026-05-20 from its two pods, beside pods still on 2026-07-01',
    fails: ['version.service-version-sent'],
    async run(t) {
      const pods = [pod(t, 'rb-a', 1), pod(t, 'rb-b', 2), pod(t, 'cur-a', 3)];
      await fleet(
        t,
        pods.map((p, i) => async (sleep: Sleep) => {
          const version = i < 2 ? '2026-05-20' : '2026-07-01';
          for (const path of ['/connectors', '/capabilities', '/providers']) {
            await api(t, p.auth, 'GET', path, { version });
            await sleep(1_000);
          }
        }),
        [0, 100, 200],
      );
    },
  },
  // "Clients retry with growing intervals and slight random spread.": every pod retries its 500s at
  // once, three times in a row.
  {
    does: 'runs three pods that each retry their own read at once after every 500 (no backoff)',
    fails: ['retry.growing-waits'],
    async run(t) {
      fault(t, { kind: 'internal', route: 'listConnections', count: 9 });
      const pods = [pod(t, 'hot-a', 1), pod(t, 'hot-b', 2), pod(t, 'hot-c', 3)];
      await fleet(
        t,
        pods.map((p) => async (sleep: Sleep) => {
          await retried(
            sleep,
            () => api(t, p.auth, 'GET', '/connections'),
            (_n, x) => (transient(x) ? 0 : undefined),
          );
          for (let i = 0; i < 2; i++) {
            await sleep(5_000);
            await api(t, p.auth, 'GET', '/providers');
          }
        }),
        [0, 1_000, 2_000],
      );
    },
  },
  // "the same key with the same content returns the same response again": a pod died after its create
  // got a 500; the sibling that takes the job over kept the body but not the key, and stamps a key of
  // its own generator: a second operation.
  {
    does: "takes over a dead pod's failed create on a sibling pod that kept the body but stamps a new key from its own generator",
    fails: ['retry.same-key-and-content'],
    async run(t) {
      const [a, b] = [pod(t, 'pay-a', 1), pod(t, 'pay-b', 2)];
      const body = { ...CONNECTION, scopeLabel: 'Orphaned Job Venue' };
      fault(t, { kind: 'internal', route: 'createConnection', count: 1 });
      await fleet(
        t,
        [
          async () => void (await api(t, a.auth, 'POST', '/connections', { key: a.key(), body })),
          async () => void (await api(t, b.auth, 'POST', '/connections', { key: b.key(), body })),
        ],
        [0, 3_000],
      );
    },
  },
  // "respect the wait time of the response": in a blue/green overlap the green build's new retry code
  // retries a 429 after its own 200 ms, ignoring Retry-After: 2; the blue pods wait it out.
  {
    does: 'deploys a green build whose retry code retries a 429 after 200 ms, ignoring Retry-After: 2, beside blue pods that wait it out',
    fails: ['retry.respects-retry-after'],
    async run(t) {
      const [blue, green] = [pod(t, 'web-blue', 1), pod(t, 'web-green', 2)];
      await fleet(
        t,
        [
          async (sleep) => {
            fault(t, { kind: 'rate_limited', route: 'listProviders', retryAfterSeconds: 2, count: 1 });
            await retried(
              sleep,
              () => api(t, blue.auth, 'GET', '/providers'),
              (_n, x) => (x.status === 429 ? x.retryAfterMs + 100 : undefined),
            );
          },
          async (sleep) => {
            fault(t, { kind: 'rate_limited', route: 'listCapabilities', retryAfterSeconds: 2, count: 1 });
            await retried(
              sleep,
              () => api(t, green.auth, 'GET', '/capabilities'),
              (_n, x) => (x.status === 429 ? 200 : undefined),
            );
          },
        ],
        [0, 5_000],
      );
    },
  },
  // "Clients retry with growing intervals and slight random spread.": every pod seeds its jitter with
  // the deploy's timestamp, so all pods draw the same "random" amounts and retry in lockstep.
  {
    does: 'seeds every pod’s jitter with the deploy timestamp: three pods retry an outage in lockstep',
    fails: ['retry.spread'],
    async run(t) {
      fault(t, { kind: 'internal', route: 'listConnectors', durationSeconds: 2 });
      const deploy = 1_764_000_000;
      const pods = [pod(t, 'lock-a', deploy), pod(t, 'lock-b', deploy), pod(t, 'lock-c', deploy)];
      await fleet(
        t,
        pods.map((p) => async (sleep: Sleep) => {
          const wait = guidanceWait(p.random);
          await retried(
            sleep,
            () => api(t, p.auth, 'GET', '/connectors'),
            (n, x) => (transient(x) ? wait(n) : undefined),
          );
        }),
        [0, 30, 60],
      );
    },
  },
];
