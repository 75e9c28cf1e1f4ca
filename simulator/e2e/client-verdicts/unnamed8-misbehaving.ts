import { api, auth, CONNECTION, fault, READS } from './unnamed-kit.ts';
import type { FaultyClient } from './unnamed-misbehaving.ts';
import { seeded } from './unnamed4-kit.ts';
import { guidanceWait } from './unnamed5-fleet.ts';
import { sleeper } from './unnamed6-kit.ts';
import { dioSmartRetry, get, kotlinLinear, ok, retrying, staminaWait, zioJittered } from './unnamed8-kit.ts';

/**
 * Round 8, misbehaving stacks: each breaks one duty (or the ones named) and must fail exactly those
 * rules, with evidence. The sentence broken is quoted above each.
 */
export const MISBEHAVING_8: FaultyClient[] = [
  // "A sample client makes up to 4 attempts": Python stamina's default is attempts=10.
  {
    does: 'is a Python service under @stamina.retry(on=TransientError) with the defaults (attempts=10, 0.1 s·2^n + up to 1 s jitter), six attempts of one read through an outage',
    fails: ['retry.attempt-limit'],
    async run(t) {
      const a = auth(t);
      fault(t, { kind: 'internal', route: 'listProviders', count: 5 });
      await retrying(sleeper(t), () => get(t, a, '/providers'), staminaWait(seeded(821)), { max: 9 });
    },
  },
  // ZIO `Schedule.exponential(500.millis).jittered` without `&& Schedule.recurs(n)`: it never stops.
  {
    does: 'is a Scala ZIO client whose schedule is Schedule.exponential(500 ms).jittered with no recurs bound, retrying one read seven times through an outage',
    fails: ['retry.attempt-limit'],
    async run(t) {
      const a = auth(t);
      fault(t, { kind: 'internal', route: 'listConnectors', count: 6 });
      await retrying(sleeper(t), () => get(t, a, '/connectors'), zioJittered(500, seeded(822)), { max: 6 });
    },
  },
  // "Clients retry with growing intervals and slight random spread.": Dart dio_smart_retry's default
  // retryDelays (1 s, 2 s, 3 s) grow, but never spread.
  {
    does: 'is a Dart server (shelf) on dio with dio_smart_retry’s default retryDelays [1 s, 2 s, 3 s], five reads each through three 500s',
    fails: ['retry.spread'],
    async run(t) {
      const a = auth(t);
      const sleep = sleeper(t);
      for (const [route, path] of READS) {
        fault(t, { kind: 'internal', route, count: 3 });
        ok(path, await retrying(sleep, () => get(t, a, path), dioSmartRetry));
        await sleep(5_000);
      }
    },
  },
  // The same sentence: Kotlin `retryWhen { delay(1000 * (attempt + 1)) }`, linear and the same every time.
  {
    does: 'is a Kotlin coroutine flow with retryWhen { delay(1000·(attempt+1)) } (linear, no jitter), four reads each through two 500s',
    fails: ['retry.spread'],
    async run(t) {
      const a = auth(t);
      const sleep = sleeper(t);
      for (const [route, path] of READS.slice(0, 4)) {
        fault(t, { kind: 'internal', route, count: 2 });
        ok(path, await retrying(sleep, () => get(t, a, path), kotlinLinear));
        await sleep(6_000);
      }
    },
  },
  // "retry only after rate_limited and internal": p-retry around a fetch wrapper that throws on any
  // non-2xx, so a 404 (another tenant's connector) is tried again, same content.
  {
    does: 'is a Node service wrapping fetch in p-retry (retries 2 here, factor 2, minTimeout 1 s) that throws on any non-2xx, so a capability check answered 404 is sent twice more',
    fails: ['retry.only-after-failure'],
    async run(t) {
      const a = auth(t);
      const body = { connectorId: 'no-such-connector-xyz', capability: 'orders.read' };
      const r = await retrying(
        sleeper(t),
        () => api(t, a, 'POST', '/capabilities', { body }),
        (n) => 1_000 * 2 ** n,
        {
          max: 2,
          retryIf: (x) => x.status !== 200,
        },
      );
      if (r.status === 200) throw new Error('the unknown connector was found');
    },
  },
  // "respect the wait time of the response": a client that counts Retry-After from when the call left
  // its client-side queue, 800 ms before the 429 arrived, so it waits 800 ms too little.
  {
    does: 'counts each 429’s Retry-After (2 s) from when the call left its client-side queue, 800 ms before the answer, over three reads',
    // Its waits (Retry-After minus 800 ms) are its own and the same every time, but three retry sequences are
    // too few to tell "no spread" from unlucky draws (retry.spread needs four: NO_SPREAD_MIN_DIFFS).
    fails: ['retry.respects-retry-after'],
    async run(t) {
      const a = auth(t);
      const sleep = sleeper(t);
      for (const [route, path] of READS.slice(0, 3)) {
        fault(t, { kind: 'rate_limited', route, retryAfterSeconds: 2, count: 1 });
        await retrying(
          sleep,
          () => get(t, a, path),
          (_n, r) => r.retryAfterMs - 800,
          { ignoreRetryAfter: true },
        );
        await sleep(3_000);
      }
    },
  },
  // A long run whose evidence is spread: a poller every 2 s for ten minutes that keeps its cadence
  // through 429s (Retry-After: 5) instead of waiting them out. "(a 429 in it still must be waited out)"
  {
    does: 'polls /connections every 2 s for ten minutes and keeps that cadence through four 429s with Retry-After: 5',
    fails: ['retry.respects-retry-after'],
    async run(t) {
      const a = auth(t, undefined, 3_600);
      const sleep = sleeper(t);
      for (let i = 0; i < 300; i++) {
        if (i % 70 === 60) fault(t, { kind: 'rate_limited', route: 'listConnections', retryAfterSeconds: 5, count: 1 });
        await get(t, a, '/connections');
        await sleep(2_000);
      }
    },
  },
  // "use a new key for each new operation": two creates in flight, both answered 500; the retry
  // closure reads a shared `lastKey` variable, so each body goes out again under the other's key.
  {
    does: 'sends two creates at once, both answered 500, and retries them through a shared lastKey variable so each body goes out under the other’s key',
    fails: ['idempotency.one-key-one-content'],
    async run(t) {
      const a = auth(t);
      const sleep = sleeper(t);
      fault(t, { kind: 'internal', route: 'createConnection', count: 2 });
      const one = { ...CONNECTION, scopeLabel: 'Crossed Wires Café' };
      const two = { ...CONNECTION, scopeLabel: 'Swapped Keys Kitchen' };
      await Promise.all([
        api(t, a, 'POST', '/connections', { body: one, key: 'swap-key-aaaa-0001' }),
        api(t, a, 'POST', '/connections', { body: two, key: 'swap-key-bbbb-0002' }),
      ]);
      await sleep(700);
      await api(t, a, 'POST', '/connections', { body: one, key: 'swap-key-bbbb-0002' });
      await sleep(100);
      await api(t, a, 'POST', '/connections', { body: two, key: 'swap-key-aaaa-0001' });
    },
  },
  // "at most 4 attempts", across addresses: four attempts at the main address, then the failover
  // client takes the second address and starts its count again.
  {
    does: 'makes the guidance’s four attempts of one read at the main address, then fails over to the second address and makes four more',
    fails: ['retry.attempt-limit'],
    async run(t) {
      const a = auth(t);
      const sleep = sleeper(t);
      fault(t, { kind: 'internal', route: 'listProviders', count: 7 });
      await retrying(sleep, () => get(t, a, '/providers'), guidanceWait(seeded(823)));
      await sleep(3_000);
      const alt = { ...t, baseUrl: t.altBaseUrl };
      await retrying(sleep, () => get(alt, a, '/providers'), guidanceWait(seeded(824)));
    },
  },
];
