import { api, auth, CONNECTION, fault, type UnnamedClient2 } from './unnamed-kit.ts';
import type { FaultyClient } from './unnamed-misbehaving.ts';
import { fleet } from './unnamed5-fleet.ts';
import { sleeper } from './unnamed6-kit.ts';
import { get, ok } from './unnamed8-kit.ts';

/**
 * Round 8 probes at the observer's bounds: a 429 whose retry comes after more calls than the observer
 * keeps per client (200), a cadence equal to the Retry-After, two pollers sharing one token.
 */

/** A 429 (Retry-After: 30) on /providers, then `lookups` other reads 100 ms apart, then the retry `retryAtMs` after the 429. */
async function batchBetween(t: Parameters<UnnamedClient2['run']>[0], retryAtMs: number, lookups = 250) {
  const a = auth(t, undefined, 3_600);
  const sleep = sleeper(t);
  fault(t, { kind: 'rate_limited', route: 'listProviders', retryAfterSeconds: 30, count: 1 });
  const limited = await get(t, a, '/providers');
  if (limited.status !== 429) throw new Error(`answered ${limited.status}`);
  // A batch of lookups of other resources (each its own query) while the 429 is pending.
  for (let i = 0; i < lookups; i++) {
    await sleep(100);
    await get(t, a, `/connectors?providerId=prov-${i}`);
  }
  await sleep(retryAtMs - lookups * 100);
  return get(t, a, '/providers');
}

export const PROBES_WELL_BEHAVED_8: UnnamedClient2[] = [
  {
    does: 'waits out a 429 (Retry-After: 30) on one read while it makes 250 other lookups, and retries that read 30.2 s after the 429',
    pass: [],
    async run(t) {
      ok('the retry', await batchBetween(t, 30_200));
    },
  },
  // "respect the wait time of the response": a poller whose tick (3 s after each answer) equals the
  // 429's Retry-After of 3 s: it waited exactly what it was told, by its own cadence.
  {
    does: 'polls /connections 3 s after each answer and meets a 429 with Retry-After: 3, so its next tick is exactly the wait asked for',
    pass: ['retry.respects-retry-after'],
    async run(t) {
      const a = auth(t, undefined, 3_600);
      const sleep = sleeper(t);
      for (let i = 0; i < 12; i++) {
        if (i === 6) fault(t, { kind: 'rate_limited', route: 'listConnections', retryAfterSeconds: 3, count: 1 });
        await get(t, a, '/connections');
        await sleep(3_000);
      }
    },
  },
  // One token shared by two poller threads (one process to the rules): each reads /connections every
  // 10 s, the second 300 ms after the first; one poll of the first answers 500 and that thread retries
  // it after 700 ms, so the second thread's ordinary poll falls in between.
  {
    does: 'is two poller threads sharing one token, each reading /connections every 10 s 300 ms apart; one poll answers 500 and its thread retries it after 700 ms, the other thread’s poll falling in between',
    pass: [],
    async run(t) {
      const shared = auth(t, undefined, 3_600);
      await fleet(
        t,
        [0, 1].map((thread) => async (sleep) => {
          for (let i = 0; i < 8; i++) {
            if (thread === 0 && i === 4) fault(t, { kind: 'internal', route: 'listConnections', count: 1 });
            const r = await get(t, shared, '/connections');
            if (r.status === 500) {
              await sleep(700);
              ok('the retry', await get(t, shared, '/connections'));
              await sleep(9_300);
            } else await sleep(10_000);
          }
        }),
        [0, 300],
      );
    },
  },
];

export const PROBES_MISBEHAVING_8: FaultyClient[] = [
  {
    does: 'retries a read 26 s after a 429 that said Retry-After: 30, having made 250 other lookups in between (its 429 has left the 200 calls kept)',
    fails: ['retry.respects-retry-after'],
    async run(t) {
      await batchBetween(t, 26_000);
    },
  },
  // The same client with 150 lookups in between: its 429 is still among the calls kept.
  {
    does: 'retries a read 26 s after a 429 that said Retry-After: 30, having made 150 other lookups in between',
    fails: ['retry.respects-retry-after'],
    async run(t) {
      await batchBetween(t, 26_000, 150);
    },
  },
  // "use a new key for each new operation" read backwards: a failed create re-queued behind `others`
  // creates (500 ms apart, each its own key) and sent again under a newly minted key. Round 7 caught it
  // 75 creates later; past the 200 calls kept, nothing finds the original.
  ...[150, 210].map(
    (others): FaultyClient => ({
      does: `is a bulk importer whose fifth create answers 500 and is re-queued behind ${others} other creates (500 ms apart), then sent again under a newly minted key`,
      fails: ['retry.same-key-and-content'],
      async run(t) {
        const a = auth(t, undefined, 3_600);
        const sleep = sleeper(t);
        const row = (i: number) => ({ ...CONNECTION, scopeLabel: `Import Row ${String(i).padStart(4, '0')}` });
        for (let i = 0; i < 4; i++) {
          await api(t, a, 'POST', '/connections', { body: row(i), key: `import-${others}-${i}-first` });
          await sleep(500);
        }
        fault(t, { kind: 'internal', route: 'createConnection', count: 1 });
        await api(t, a, 'POST', '/connections', { body: row(4), key: `import-${others}-4-first` });
        for (let i = 5; i < 5 + others; i++) {
          await sleep(500);
          await api(t, a, 'POST', '/connections', { body: row(i), key: `import-${others}-${i}-first` });
        }
        await sleep(500);
        await api(t, a, 'POST', '/connections', { body: row(4), key: `import-${others}-4-requeued` });
      },
    }),
  ),
];
