import type { Target } from '../harness.ts';
import {
  type Auth,
  auth,
  CONNECTION,
  fault,
  publish,
  type Reply,
  readStream,
  type UnnamedClient2,
} from './unnamed-kit.ts';
import type { FaultyClient } from './unnamed-misbehaving.ts';
import { sleeper } from './unnamed6-kit.ts';
import { get, ok } from './unnamed8-kit.ts';
import { createWith, loop } from './unnamed11-kit.ts';

/**
 * Round 28 probes: one process whose token is renewed (5 s before its 60 s expiry) in the middle of a retry
 * sequence. Its calls before and after the renewal carry two tokens that are never in use at the same
 * time: one process, whose duties (Retry-After, the key, four attempts) run on across the renewal.
 */
function renewingProcess(t: Target) {
  let a: Auth = auth(t, undefined, 60);
  let issuedMs = 0;
  let nowMs = 0;
  const sleep = sleeper(t);
  return {
    /** The token the cache hands out now: a new one once the current is within 5 s of expiry. */
    token(): Auth {
      if (nowMs - issuedMs >= 55_000) [a, issuedMs] = [auth(t, undefined, 60), nowMs];
      return a;
    },
    async sleep(ms: number) {
      nowMs += ms;
      await sleep(ms);
    },
  };
}

/** Polls /connections at 0 s and 30 s, then waits until `atS` (the retry sequence starts there). */
async function warmUp(t: Target, p: ReturnType<typeof renewingProcess>, atS: number) {
  ok('poll', await get(t, p.token(), '/connections'));
  await p.sleep(30_000);
  ok('poll', await get(t, p.token(), '/connections'));
  await p.sleep((atS - 30) * 1_000);
}

export const PROBES_WELL_BEHAVED_28: UnnamedClient2[] = [
  {
    does: 'renews its token 5 s before expiry while waiting out a 429 (Retry-After 5 s), and retries with the new token after the full wait',
    pass: ['retry.respects-retry-after'],
    async run(t) {
      const p = renewingProcess(t);
      await warmUp(t, p, 52);
      fault(t, { kind: 'rate_limited', route: 'listProviders', retryAfterSeconds: 5, count: 1 });
      const wait = (_n: number, r: Reply) => r.retryAfterMs;
      ok(
        'read',
        await loop(
          (ms) => p.sleep(ms),
          () => get(t, p.token(), '/providers'),
          wait,
          3,
        ),
      );
    },
  },
];

export const PROBES_MISBEHAVING_28: FaultyClient[] = [
  // The SDK is rebuilt around the renewed token and its retry state (the Retry-After it read) is lost.
  {
    does: 'renews its token 5 s before expiry during a 429’s wait (Retry-After 5 s), rebuilds its SDK and retries with the new token after 500 ms',
    fails: ['retry.respects-retry-after'],
    async run(t) {
      const p = renewingProcess(t);
      await warmUp(t, p, 52);
      fault(t, { kind: 'rate_limited', route: 'listProviders', retryAfterSeconds: 5, count: 1 });
      const first = await get(t, p.token(), '/providers');
      if (first.status !== 429) throw new Error(`answered ${first.status}`);
      await p.sleep(3_500);
      ok('retry', await get(t, p.token(), '/providers'));
    },
  },
  // Five attempts of one read, the token renewed between the third and the fourth.
  {
    does: 'makes five attempts of one read (waits 1, 2, 4, 8 s), its token renewed 5 s before expiry between the third and the fourth',
    fails: ['retry.attempt-limit'],
    async run(t) {
      const p = renewingProcess(t);
      await warmUp(t, p, 50);
      fault(t, { kind: 'internal', route: 'listConnectors', count: 4 });
      const wait = (n: number) => 1_000 * 2 ** n + 37 * n;
      ok(
        'read',
        await loop(
          (ms) => p.sleep(ms),
          () => get(t, p.token(), '/connectors'),
          wait,
          4,
        ),
      );
    },
  },
  // The SDK rebuilt around the renewed token stamps its own key on the retry of the create.
  {
    does: 'retries a create refused 500 with the token renewed 5 s before expiry, through an SDK rebuilt around it that stamps a new key',
    fails: ['retry.same-key-and-content'],
    async run(t) {
      const p = renewingProcess(t);
      await warmUp(t, p, 54);
      fault(t, { kind: 'internal', route: 'createConnection', count: 1 });
      const body = { ...CONNECTION, scopeLabel: 'Renewed Ramen' };
      const first = await createWith(t, p.token(), body, 'sdk-a-0001-71f2');
      if (first.status !== 500) throw new Error(`answered ${first.status}`);
      await p.sleep(1_300);
      ok('retry', await createWith(t, p.token(), body, 'sdk-b-0001-0c9d'));
    },
  },
  // pester's DefaultBackoff (1 s, 1 s, 1 s) on one read, the token renewed between the second and third retry.
  {
    does: 'waits 1 s before each of three retries of one read (pester DefaultBackoff), its token renewed 5 s before expiry between the second and the third',
    fails: ['retry.growing-waits'],
    async run(t) {
      const p = renewingProcess(t);
      await warmUp(t, p, 52);
      fault(t, { kind: 'internal', route: 'listCapabilities', count: 3 });
      ok(
        'read',
        await loop(
          (ms) => p.sleep(ms),
          () => get(t, p.token(), '/capabilities'),
          () => 1_000,
          3,
        ),
      );
    },
  },
  // The stream reader is rebuilt around the renewed token and starts without the last id it read.
  {
    does: 'reconnects its cut stream with the token renewed 5 s before expiry, through a reader rebuilt around it that sends no Last-Event-ID',
    fails: ['stream.resume-from-last-read'],
    async run(t) {
      const p = renewingProcess(t);
      await warmUp(t, p, 54);
      const a = p.token();
      fault(t, { kind: 'stream_cut', afterMessages: 2, count: 1 });
      const ids = await readStream(t, a, { onOpen: () => publish(t, a.tenant, 2) });
      if (ids.length !== 2) throw new Error(`read ${ids.join()}`);
      await p.sleep(1_500);
      const b = p.token();
      if (b.token === a.token) throw new Error('not renewed');
      await readStream(t, b, { idleMs: 500, onOpen: () => publish(t, b.tenant, 1) });
    },
  },
];
