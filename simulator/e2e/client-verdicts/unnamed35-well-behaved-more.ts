import { auth, CONNECTION, fault, publish, readStream, type UnnamedClient2 } from './unnamed-kit.ts';
import { seeded } from './unnamed4-kit.ts';
import { sleeper } from './unnamed6-kit.ts';
import { get, ok } from './unnamed8-kit.ts';
import { createWith, loop } from './unnamed11-kit.ts';
import { readsOn } from './unnamed25-kit.ts';
import { pocoEvery } from './unnamed35-kit.ts';

/**
 * Round 35, more well-behaved clients: Kotlin Fuel's request interceptor renewing after a 401, a Dart
 * Chopper interceptor honouring Retry-After on a create, SWR's error-retry formula (whole seconds) in a
 * Node job, and a second stream consumer with a cursor store of its own beside the first.
 */
export const WELL_BEHAVED_35_MORE: UnnamedClient2[] = [
  // "remedy: request a new access token": Fuel's requestInterceptor fetches a token on a 401 and the
  // call is sent once more with it; the expired token is dropped.
  {
    does: 'is a Kotlin Fuel client whose interceptor, on a 401 for its expired token, fetches a new one and sends the call once more with it',
    pass: ['auth.renewed-after-expiry'],
    async run(t) {
      const old = auth(t, undefined, 60);
      ok('read', await get(t, old, '/connectors'));
      await sleeper(t)(75_000);
      const refused = await get(t, old, '/providers');
      if (refused.status !== 401) throw new Error(`answered ${refused.status}`);
      const fresh = auth(t, undefined, 900);
      ok('again', await get(t, fresh, '/providers'));
      await sleeper(t)(10_000);
      ok('later', await get(t, fresh, '/connections'));
    },
  },
  // "respect the wait time of the response" and "the same key with the same content": Chopper's
  // interceptor re-sends the same Request (headers and body kept) after the 429's Retry-After.
  {
    does: 'is a Dart Chopper client whose retry interceptor re-sends the same Request (key and body kept) after a 429’s Retry-After (3 s)',
    pass: ['retry.respects-retry-after', 'retry.same-key-and-content'],
    async run(t) {
      const a = auth(t);
      fault(t, { kind: 'rate_limited', route: 'createConnection', retryAfterSeconds: 3, count: 1 });
      const body = { ...CONNECTION, scopeLabel: 'Chopped Chermoula' };
      ok('create', await loop(sleeper(t), () => createWith(t, a, body, 'chopper-7'), pocoEvery(seeded(3511)), 3));
    },
  },
  // "growing intervals and slight random spread": SWR's onErrorRetry truncates before it multiplies,
  // `~~((random + 0.5) * (1 << retryCount)) * errorRetryInterval` (retryCount from 1), so every wait is a
  // whole second: 1-2 s, 2-5 s, 4-11 s. errorRetryCount: 3.
  {
    does: 'is a Node job using SWR’s onErrorRetry formula (~~((random + 0.5) * (1 << retryCount)) * 1000 ms, whole seconds) with errorRetryCount 3, four reads through three 500s',
    pass: ['retry.growing-waits', 'retry.attempt-limit'],
    run(t) {
      const random = seeded(3512);
      const swr = (n: number) => Math.floor((random() + 0.5) * (1 << Math.min(n + 1, 8))) * 1_000;
      return readsOn(t, auth(t), sleeper(t), { schedule: swr, failures: 3, max: 3, ops: 4 });
    },
  },
  // "resumes without gaps ... (last number read)": the orders consumer is cut after four and resumes at
  // 4; an analytics job (its own token and its own cursor store, at 2 from its last run) opens between.
  {
    does: 'is an orders consumer cut after four that resumes at 4 two seconds later, while an analytics job with its own token and its own stored cursor (2) opens the stream in between',
    pass: ['stream.resume-from-last-read'],
    async run(t) {
      const orders = auth(t);
      const analytics = auth(t);
      fault(t, { kind: 'stream_cut', afterMessages: 4, count: 1 });
      const ids = await readStream(t, orders, { onOpen: () => publish(t, orders.tenant, 4) });
      if (ids.length !== 4) throw new Error(`read ${ids.join(',')}`);
      await sleeper(t)(1_000);
      const own = ids[1] ?? 0;
      const seen = await readStream(t, analytics, { cursor: own, idleMs: 400 });
      if (seen.at(-1) !== ids.at(-1)) throw new Error(`analytics read ${seen.join(',')}`);
      await sleeper(t)(1_000);
      await readStream(t, orders, { cursor: ids.at(-1) ?? 0, idleMs: 400 });
    },
  },
];
