import { randomUUID } from 'node:crypto';
import type { SandboxOptions } from '../../app/sandbox-options.ts';
import { api, auth, CONNECTION, fault, publish, readStream } from './unnamed-kit.ts';
import type { FaultyClient } from './unnamed-misbehaving.ts';
import { seeded } from './unnamed4-kit.ts';
import { sleeper } from './unnamed6-kit.ts';
import { get, ok } from './unnamed8-kit.ts';
import { createWith, loop } from './unnamed11-kit.ts';
import { readsOn } from './unnamed25-kit.ts';
import {
  exconInterval,
  jmeterConstantTimer,
  localTimeRetryAfter,
  nowOf,
  rxjsJitterOnce,
  telegrafInterval,
  unityCoroutine,
} from './unnamed31-kit.ts';

/**
 * Round 31, misbehaving clients whose violation looks correct: a jitter drawn once per process, Excon's
 * fixed retry_interval, a JMeter While Controller without a cap, an HTTP-date Retry-After parsed in local
 * time, a key made inside a Unity coroutine, a label stamped anew by a Swoole retry, a token fetched per
 * Telegraf collection, a cron job taking over a create under its own key, an SSE checkpoint every second
 * message, a UnityWebRequest.Post shortcut without Service-Version, a Unity WebGL build, an RxJS retry
 * with no status filter. Each must fail exactly its rule(s).
 */
export const MISBEHAVING_31: (FaultyClient & { options?: SandboxOptions })[] = [
  // "slight random spread": the jitter is drawn where the pipe is built, once for the process.
  {
    does: 'is an RxJS pipe whose jitter is drawn once at module scope (500 * 2^n + the same 0-250 ms draw), three reads each through two 500s',
    fails: ['retry.spread'],
    run: (t) => readsOn(t, auth(t), sleeper(t), { schedule: rxjsJitterOnce(seeded(3151)), failures: 2, max: 2 }),
  },
  // "growing intervals": Excon's retry_interval is a fixed pause between its retry_limit attempts.
  {
    does: 'is a Ruby Excon client (idempotent: true, retry_limit: 4, retry_interval: 1) reading through three 500s, 1 s between the four attempts',
    fails: ['retry.growing-waits'],
    async run(t) {
      const a = auth(t);
      fault(t, { kind: 'internal', route: 'listProviders', count: 3 });
      const { intervalMs, retries } = exconInterval;
      ok(
        'read',
        await loop(
          sleeper(t),
          () => get(t, a, '/providers'),
          () => intervalMs,
          retries,
        ),
      );
    },
  },
  // "up to 4 attempts", "growing intervals": a While Controller looping until a 200, its counter cap at 6.
  {
    does: 'is a JMeter While Controller (until a 200, counter up to 6) around a read with a Constant Timer of 1,000 ms, through five 500s',
    fails: ['retry.attempt-limit', 'retry.growing-waits'],
    async run(t) {
      const a = auth(t);
      fault(t, { kind: 'internal', route: 'listConnectors', count: 5 });
      ok('read', await loop(sleeper(t), () => get(t, a, '/connectors'), jmeterConstantTimer, 5));
    },
  },
  // "respect the wait time of the response": the date the client waits for is read in its own zone (UTC+1).
  {
    does: 'parses Retry-After as an HTTP-date without its zone in a UTC+1 process (new Date() on the text minus "GMT"), so after a 429 (Retry-After 3 s) it waits nothing',
    fails: ['retry.respects-retry-after'],
    async run(t) {
      const a = auth(t);
      fault(t, { kind: 'rate_limited', route: 'listConnections', retryAfterSeconds: 3, count: 1 });
      const wait = (_n: number, r: Parameters<typeof localTimeRetryAfter>[1]) => localTimeRetryAfter(nowOf(t), r);
      ok('read', await loop(sleeper(t), () => get(t, a, '/connections'), wait, 2));
    },
  },
  // "Idempotency keys reused on retries": the Guid is made inside the IEnumerator, which runs again per attempt.
  {
    does: 'is a Unity headless server whose create coroutine makes its Guid key inside the IEnumerator, so the attempt after a 500 carries a new key',
    fails: ['retry.same-key-and-content'],
    async run(t) {
      const a = auth(t);
      fault(t, { kind: 'internal', route: 'createConnection', count: 1 });
      const body = { ...CONNECTION, scopeLabel: 'Coroutine Congee' };
      const wait = unityCoroutine(seeded(3155));
      ok(
        'create',
        await loop(
          sleeper(t),
          () => createWith(t, a, body, randomUUID()),
          (n) => wait(n),
          3,
        ),
      );
    },
  },
  // "same key with different content": the retry builds the body again, its label stamped with the time.
  {
    does: 'is a Swoole task that builds the body again on each attempt, its scopeLabel stamped with date("H:i:s"), retrying a create refused 500 under the same key',
    fails: ['idempotency.one-key-one-content'],
    async run(t) {
      const a = auth(t);
      fault(t, { kind: 'internal', route: 'createConnection', count: 1 });
      const stamp = () => new Date(nowOf(t)).toISOString().slice(11, 19);
      const send = () => createWith(t, a, { ...CONNECTION, scopeLabel: `Venue ${stamp()}` }, 'swoole-task-9a1e');
      await loop(sleeper(t), send, (n) => 1_500 * 2 ** n, 2);
    },
  },
  // "renewed, not extended": the agent's input plugin fetches a token in its Gather(), every collection.
  {
    does: 'is a Telegraf-style input whose Gather() fetches a new 15 min token every collection (interval 10s, collection_jitter 2s)',
    fails: ['auth.token-reused'],
    async run(t) {
      const next = telegrafInterval(seeded(3157));
      for (let i = 0; i < 10; i++) {
        ok('collect', await get(t, auth(t, undefined, 900), '/connections'));
        await sleeper(t)(next());
      }
    },
  },
  // "A sibling process sending a dead pod's failed create again is a retry of it, and must carry its key".
  {
    does: 'is a cron job beside a worker (each its own token) that takes over a create the worker got a 500 for and sends it under a key of its own',
    fails: ['retry.same-key-and-content'],
    async run(t) {
      fault(t, { kind: 'internal', route: 'createConnection', count: 1 });
      const body = { ...CONNECTION, scopeLabel: 'Cron Croquette' };
      const worker = await createWith(t, auth(t), body, 'worker-7731');
      if (worker.status !== 500) throw new Error(`answered ${worker.status}`);
      await sleeper(t)(3_000);
      ok('cron', await createWith(t, auth(t), body, 'cron-sweep-7731'));
    },
  },
  // "(last number read)": the cursor is checkpointed every second message; the server cut after the third.
  {
    does: 'is an SSE reader checkpointing its cursor every second message (at-least-once), resuming after a server cut from the checkpoint, one read message behind',
    fails: ['stream.resume-from-last-read'],
    async run(t) {
      const a = auth(t);
      fault(t, { kind: 'stream_cut', afterMessages: 3, count: 1 });
      const ids = await readStream(t, a, { onOpen: () => publish(t, a.tenant, 3) });
      const checkpoint = ids[1];
      if (ids.length !== 3 || checkpoint === undefined) throw new Error(`read ${ids.join(',')}`);
      await sleeper(t)(1_000);
      await readStream(t, a, { cursor: checkpoint, idleMs: 500 });
    },
  },
  // "Sample calls send a header Service-Version": UnityWebRequest.Post(url, json) sends only what it builds.
  {
    does: 'is a Unity headless server setting Service-Version on its GET requests, its creates sent with the UnityWebRequest.Post(url, json, contentType) shortcut without it',
    fails: ['version.service-version-sent'],
    async run(t) {
      const a = auth(t);
      ok('read', await get(t, a, '/connections'));
      const body = { ...CONNECTION, scopeLabel: 'Shortcut Shawarma' };
      ok('create', await api(t, a, 'POST', '/connections', { body, key: 'unity-post-1', version: null }));
    },
  },
  // "never sent from a browser": the same Unity code built for WebGL runs in the player's browser.
  {
    does: 'is a Unity project built for WebGL whose UnityWebRequest (the browser’s fetch) sends the token from the page',
    fails: ['auth.no-browser-credentials'],
    async run(t) {
      const a = auth(t);
      await api(t, a, 'GET', '/connections', { headers: { origin: 'https://play.partner.example' } });
    },
  },
  // "retry only after rate_limited and internal": retry({ count: 1, delay: 1000 }) retries every error.
  {
    does: 'is an RxJS pipe with retry({ count: 1, delay: 1000 }) and no status filter, repeating a capability check for an unknown connector (refused 4xx) unchanged',
    fails: ['retry.only-after-failure'],
    async run(t) {
      const a = auth(t);
      const body = { connectorId: 'x', capability: 'orders.read' };
      const first = await api(t, a, 'POST', '/capabilities', { body });
      if (first.status < 400 || first.status === 429) throw new Error(`answered ${first.status}`);
      await sleeper(t)(1_000);
      await api(t, a, 'POST', '/capabilities', { body });
    },
  },
  // "respect the wait time of the response": the agent keeps its 10 s interval through a 429 asking 30 s.
  {
    does: 'is a Telegraf-style agent (interval 10s, collection_jitter 2s) that keeps its interval after a 429 whose Retry-After says 30 s',
    fails: ['retry.respects-retry-after'],
    async run(t) {
      const a = auth(t);
      const next = telegrafInterval(seeded(3163));
      for (let i = 0; i < 8; i++) {
        if (i === 3) fault(t, { kind: 'rate_limited', route: 'listConnections', retryAfterSeconds: 30, count: 1 });
        await get(t, a, '/connections');
        await sleeper(t)(next());
      }
    },
  },
  // "growing intervals": between collections the agent retries a failed one every 2 s (+ up to 200 ms),
  // until it succeeds: flat waits behind a jitter, seen over three bursts of three 500s.
  {
    does: 'is a polling agent (every 10 s) retrying a failed poll every 2 s plus up to 200 ms until it succeeds, through three bursts of three 500s',
    fails: ['retry.growing-waits'],
    async run(t) {
      const a = auth(t);
      const draw = seeded(3164);
      for (let i = 0; i < 12; i++) {
        if (i === 2 || i === 5 || i === 8) fault(t, { kind: 'internal', route: 'listConnections', count: 3 });
        let r = await get(t, a, '/connections');
        for (let n = 0; n < 3 && r.status >= 500; n++) {
          await sleeper(t)(2_000 + Math.round(draw() * 200));
          r = await get(t, a, '/connections');
        }
        await sleeper(t)(10_000);
      }
    },
  },
  // "remedy: request a new access token": the worker takes the 401 for a stale key and sends the create
  // again under a new key with the same expired token.
  {
    does: 'is a Swoole worker that answers a 401 on a create by making a new Idempotency-Key (the wrong remedy), sending the create again 1 s later with the same expired token',
    fails: ['retry.only-after-failure'],
    async run(t) {
      const old = auth(t, undefined, 60);
      ok('first', await get(t, old, '/connections'));
      await sleeper(t)(120_000);
      const body = { ...CONNECTION, scopeLabel: 'Stale Strudel' };
      const refused = await createWith(t, old, body, 'swoole-stale-1');
      if (refused.status !== 401) throw new Error(`answered ${refused.status}`);
      await sleeper(t)(1_000);
      await createWith(t, old, body, 'swoole-stale-2');
    },
  },
];
