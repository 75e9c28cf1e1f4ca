import { api, auth, CONNECTION, fault, type UnnamedClient2 } from './unnamed-kit.ts';
import { seeded } from './unnamed4-kit.ts';
import { sleeper } from './unnamed6-kit.ts';
import { get, ok } from './unnamed8-kit.ts';
import { createWith, loop } from './unnamed11-kit.ts';
import { readsOn } from './unnamed25-kit.ts';
import {
  bufferedConsumer,
  encoreTuned,
  jobBackoff,
  matlabPause,
  netlifyBackground,
  rebusDeferred,
} from './unnamed30-kit.ts';

/**
 * Round 30, well-behaved clients of stacks no earlier round used. Each must get no `fail`; the interface
 * sentence that makes it legal is quoted above it.
 */
export const WELL_BEHAVED_30: UnnamedClient2[] = [
  // "growing intervals and slight random spread": a MATLAB script's pause(0.5 * 2^k + 0.25 * rand), with
  // the generator left alone (each call draws anew).
  {
    does: 'is a MATLAB script retrying webread with pause(0.5 * 2^k + 0.25 * rand), three reads each through two 500s',
    pass: ['retry.growing-waits', 'retry.attempt-limit'],
    async run(t) {
      const m = matlabPause(seeded(3001));
      await readsOn(t, auth(t), sleeper(t), { schedule: m.wait, failures: 2, max: 3 });
    },
  },
  // "the same key with the same content": a Netlify background function keyed by the event id it was
  // invoked for; Netlify runs it again one minute after it threw.
  {
    does: 'is a Netlify background function keyed by its event id, its create refused 500 and run again by Netlify a minute later',
    pass: ['retry.same-key-and-content'],
    async run(t) {
      const a = auth(t);
      fault(t, { kind: 'internal', route: 'createConnection', count: 1 });
      const body = { ...CONNECTION, scopeLabel: 'Background Bao' };
      ok('create', await loop(sleeper(t), () => createWith(t, a, body, 'evt_01JD8Q3NETLIFY'), netlifyBackground, 2));
    },
  },
  // "respect the wait time of the response": an Encore subscription whose MinBackoff (5 s) is above the
  // 429's Retry-After (2 s), keyed by the Pub/Sub message id.
  {
    does: 'is an Encore Pub/Sub subscription (RetryPolicy MinBackoff 5 s, x2, MaxRetries 3) creating under the message id through a 429 (Retry-After 2 s) and a 500',
    pass: ['retry.same-key-and-content', 'retry.respects-retry-after'],
    async run(t) {
      const a = auth(t);
      fault(t, { kind: 'rate_limited', route: 'createConnection', retryAfterSeconds: 2, count: 1 });
      fault(t, { kind: 'internal', route: 'createConnection', count: 1 });
      const body = { ...CONNECTION, scopeLabel: 'Encore Enchiladas' };
      ok('create', await loop(sleeper(t), () => createWith(t, a, body, 'msg-7f3a-encore'), encoreTuned, 3));
    },
  },
  // "Idempotency keys reused on retries": Rebus keeps the message id header across deferred deliveries.
  {
    does: 'is a Rebus handler deferring its message 2^n s (+ up to 400 ms) on failure, four deliveries, the key from the rbs2-msg-id header, through two 500s',
    pass: ['retry.same-key-and-content', 'retry.attempt-limit'],
    async run(t) {
      const a = auth(t);
      fault(t, { kind: 'internal', route: 'createConnection', count: 2 });
      const body = { ...CONNECTION, scopeLabel: 'Rebus Rendang' };
      ok('create', await loop(sleeper(t), () => createWith(t, a, body, 'rbs2-4c1d9e'), rebusDeferred(seeded(3004)), 3));
    },
  },
  // "The same key with the same content": a Kubernetes Job (backoffLimit 2) whose pods each fetch a token
  // at start and key the create with the Job's name; a pod starts 2 s after its backoff.
  {
    does: 'is a Kubernetes Job (backoffLimit 2, pod backoff 10 s then 20 s, 2 s pod start) whose pods each take a token and key the create with the Job name, through two 500s',
    pass: ['retry.same-key-and-content', 'retry.attempt-limit'],
    async run(t) {
      fault(t, { kind: 'internal', route: 'createConnection', count: 2 });
      const body = { ...CONNECTION, scopeLabel: 'Pod Poke' };
      const pod = () => createWith(t, auth(t), body, 'job-onboard-venue-88');
      ok('create', await loop(sleeper(t), pod, (n) => jobBackoff(n) + 2_000, 2));
    },
  },
  // "A read polled at a steady cadence is polling": Locust's constant_pacing(2) runs its task every 2 s
  // whatever the answer.
  {
    does: 'is a Locust user with wait_time = constant_pacing(2) polling the connections every 2 s, through two 500s',
    pass: [],
    async run(t) {
      const a = auth(t);
      for (let i = 0; i < 8; i++) {
        if (i === 4) fault(t, { kind: 'internal', route: 'listConnections', count: 2 });
        await get(t, a, '/connections');
        await sleeper(t)(2_000);
      }
    },
  },
  // "use a new key for each new operation": Vegeta at -rate=1/s from a targets generator that gives each
  // create its own key; the one after a 500 is the next target, not a retry.
  {
    does: 'is a Vegeta attack at -rate=1/s of creates, each target with its own key, one answered 500 mid-run',
    pass: [],
    async run(t) {
      const a = auth(t);
      for (let i = 0; i < 6; i++) {
        if (i === 3) fault(t, { kind: 'internal', route: 'createConnection', count: 1 });
        await createWith(t, a, { ...CONNECTION, scopeLabel: 'Vegeta Venue' }, `vegeta-${i}-b3e1`);
        await sleeper(t)(1_000);
      }
    },
  },
  // Remedy: "invalid_request ... correct the request": the corrected create is a new operation, new key.
  {
    does: 'fixes a create refused 400 (a one-character scopeLabel) and sends the corrected body under a new key',
    pass: [],
    async run(t) {
      const a = auth(t);
      const bad = await createWith(t, a, { ...CONNECTION, scopeLabel: 'B' }, 'fix-1-a9d0');
      if (bad.status !== 400) throw new Error(`answered ${bad.status}`);
      await sleeper(t)(3_000);
      ok('fixed', await createWith(t, a, { ...CONNECTION, scopeLabel: 'Bistro Bravo' }, 'fix-2-c4e1'));
      ok('read', await api(t, a, 'GET', '/connections'));
    },
  },
  // "(last number read)": a consumer with a bounded buffer drains it before it reconnects, so the last
  // processed is the last received, and it resumes from that.
  {
    does: 'is a consumer with a bounded buffer that drains it before reconnecting after a cut, resuming from the last message processed (= received)',
    pass: ['stream.resume-from-last-read'],
    run: (t) => bufferedConsumer(t, { received: 3, processed: 3, cursorOf: (_r, p) => p }),
  },
];
