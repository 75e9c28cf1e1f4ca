import { sleepOn } from '../harness.ts';
import { auth, CONNECTION, fault, publish, readStream, type UnnamedClient2 } from './unnamed-kit.ts';
import { seeded } from './unnamed4-kit.ts';
import { sleeper } from './unnamed6-kit.ts';
import { get, ok } from './unnamed8-kit.ts';
import { createWith, loop, replayed } from './unnamed11-kit.ts';
import { beamFluent } from './unnamed13-kit.ts';

/**
 * Round 13, more well-behaved clients: streams, tokens and schedulers of other platforms. Each must get
 * no `fail`; the sentence that makes it legal is quoted above it.
 */
export const WELL_BEHAVED_MORE_13: UnnamedClient2[] = [
  // "resumes without gaps by sending Last-Event-ID ... (last number read)": a consumer under systemd
  // (Restart=on-failure, RestartSec=5) that writes each id to a state file after handling it; it crashes
  // right after a message, and the new process (own token) resumes from the file.
  {
    does: 'is a stream consumer under systemd (Restart=on-failure, RestartSec=5) writing each id to a state file, crashing twice right after a message and resuming from the file',
    pass: ['stream.resume-from-last-read'],
    async run(t) {
      let stateFile: number | undefined;
      for (let run = 0; run < 3; run++) {
        const a = auth(t);
        const ids = await readStream(t, a, {
          ...(stateFile === undefined ? {} : { cursor: stateFile }),
          count: 3,
          idleMs: 800,
          onOpen: () => publish(t, a.tenant, 3),
        });
        if (ids.length !== 3 || (stateFile !== undefined && ids[0] !== stateFile + 1)) throw new Error(`read ${ids}`);
        stateFile = ids.at(-1);
        await sleepOn(t, 5_000);
      }
    },
  },
  // "resumes without gaps": a Rust reqwest-eventsource consumer through three server cuts, each
  // reconnect after its ExponentialBackoff (300 ms doubling) with Last-Event-ID set from the last event.
  {
    does: 'is a Rust reqwest-eventsource consumer through three server cuts, reconnecting after 300, 600, 1200 ms with the Last-Event-ID of the last event',
    pass: ['stream.resume-from-last-read'],
    async run(t) {
      const a = auth(t);
      let last: number | undefined;
      for (let n = 0; n < 4; n++) {
        if (n < 3) fault(t, { kind: 'stream_cut', afterMessages: 2, count: 1 });
        const ids = await readStream(t, a, {
          ...(last === undefined ? {} : { cursor: last }),
          idleMs: 800,
          onOpen: () => publish(t, a.tenant, 2),
        });
        last = ids.at(-1) ?? last;
        await sleepOn(t, 300 * 2 ** n);
      }
    },
  },
  // "Tokens are short-lived and are renewed, not extended": a Vault agent sidecar renews the 300 s token
  // at two thirds of its lifetime and writes it to a file the application reads before every call.
  {
    does: 'reads its token from a file a Vault agent sidecar renews at two thirds of a 300 s lifetime, calling every 10 s for 15 minutes',
    pass: [],
    async run(t) {
      const sleep = sleeper(t);
      let a = auth(t, undefined, 300);
      let issued = t.sandbox.state.clock.now();
      for (let i = 0; i < 90; i++) {
        if (t.sandbox.state.clock.now() - issued >= 200_000) {
          a = auth(t, undefined, 300);
          issued = t.sandbox.state.clock.now();
        }
        ok('read', await get(t, a, i % 3 ? '/connections' : '/capabilities'));
        await sleep(10_000);
      }
    },
  },
  // "respect the wait time of the response": a Salesforce Apex Queueable that, on a 429, enqueues itself
  // again with AsyncOptions.minimumQueueableDelayInMinutes = 1 (Retry-After: 30 is within it).
  {
    does: 'is a Salesforce Apex Queueable that re-enqueues itself with minimumQueueableDelayInMinutes 1 after a 429 (Retry-After: 30)',
    pass: ['retry.respects-retry-after'],
    async run(t) {
      const a = auth(t);
      fault(t, { kind: 'rate_limited', route: 'listConnectors', retryAfterSeconds: 30, count: 1 });
      const first = await get(t, a, '/connectors?category=pos');
      if (first.status !== 429) throw new Error(`answered ${first.status}`);
      await sleeper(t)(60_000 + 1_700);
      ok('requeued job', await get(t, a, '/connectors?category=pos'));
    },
  },
  // "the same key with the same content": an Apache Beam DoFn creating a connection per element, keyed by
  // the element's id, FluentBackoff.DEFAULT with maxRetries 3; two elements each through a committed 500.
  {
    does: 'is an Apache Beam DoFn (FluentBackoff default, maxRetries 3) creating one connection per element keyed by the element id, two elements each through a committed 500',
    pass: ['retry.same-key-and-content'],
    async run(t) {
      const a = auth(t);
      const sleep = sleeper(t);
      const wait = beamFluent(seeded(1315));
      for (const id of ['venue-00417', 'venue-00418']) {
        fault(t, { kind: 'commit_then_fail', route: 'createConnection', failWith: 'internal', count: 1 });
        replayed(
          id,
          await loop(sleep, () => createWith(t, a, { ...CONNECTION, scopeLabel: `Beam ${id}` }, `beam.${id}`), wait, 3),
        );
        await sleep(1_000);
      }
    },
  },
  // "respect the wait time of the response, retry with growing intervals": a .NET DelegatingHandler reading
  // RetryConditionHeaderValue.Delta and adding a draw of up to 250 ms, through two 429s (Retry-After 1, 4).
  {
    does: 'is a .NET DelegatingHandler that waits RetryConditionHeaderValue.Delta plus up to 250 ms, through 429s with Retry-After 1 and then 4 on one create',
    pass: ['retry.respects-retry-after', 'retry.same-key-and-content'],
    async run(t) {
      const a = auth(t);
      const random = seeded(1316);
      fault(t, { kind: 'rate_limited', route: 'createConnection', retryAfterSeconds: 1, count: 1 });
      const body = { ...CONNECTION, scopeLabel: 'Delegating Deli' };
      const key = 'dotnet-handler-c41f0e2a';
      const send = async (n: number) => {
        const r = await createWith(t, a, body, key);
        // The second 429 is armed once the first is answered: Retry-After 1, then 4.
        if (n === 0) fault(t, { kind: 'rate_limited', route: 'createConnection', retryAfterSeconds: 4, count: 1 });
        return r;
      };
      const wait = (_: number, r: { retryAfterMs: number }) => r.retryAfterMs + Math.floor(random() * 250);
      ok('create', await loop(sleeper(t), send, wait, 3));
    },
  },
  // "growing intervals and slight random spread": a wretch retry middleware with delayTimer 500 and a
  // delayRamp of `delay * attempt + draw(250)` (linear growth), maxAttempts 3, three reads through two 500s.
  {
    does: 'is a wretch client with the retry middleware (delayTimer 500, delayRamp delay * attempt + up to 250 ms) reading three paths each through two 500s',
    pass: ['retry.growing-waits', 'retry.attempt-limit'],
    async run(t) {
      const a = auth(t);
      const sleep = sleeper(t);
      const random = seeded(1317);
      for (const path of ['/providers?category=pos', '/connectors?category=pos', '/capabilities']) {
        const route = path.startsWith('/providers')
          ? 'listProviders'
          : path.startsWith('/connectors')
            ? 'listConnectors'
            : 'listCapabilities';
        fault(t, { kind: 'internal', route, count: 2 });
        ok(
          path,
          await loop(
            sleep,
            () => get(t, a, path),
            (n) => 500 * (n + 1) + Math.floor(random() * 250),
            3,
          ),
        );
        await sleep(4_000);
      }
    },
  },
  // "Every message ... arrives exactly once. After an interruption, the client resumes": a consumer whose
  // stream is stalled by a proxy; its 45 s read timeout closes it and it resumes with ?cursor= at once.
  {
    does: 'is a stream consumer whose 45 s read timeout ends a stalled stream, resuming at once with ?cursor= of the last number read',
    pass: ['stream.resume-from-last-read'],
    async run(t) {
      const a = auth(t);
      fault(t, { kind: 'stream_stall', afterMessages: 2, stallMs: 120_000, count: 1 });
      const ids = await readStream(t, a, {
        idleMs: 600,
        onOpen: () => {
          publish(t, a.tenant, 2);
          void sleepOn(t, 45_000);
        },
      });
      if (ids.length !== 2) throw new Error(`read ${ids}`);
      const more = await readStream(t, a, {
        cursor: ids[1],
        asQuery: true,
        idleMs: 600,
        onOpen: () => publish(t, a.tenant, 1),
      });
      if (more[0] !== 3) throw new Error(`resumed at ${more[0]}`);
    },
  },
];
