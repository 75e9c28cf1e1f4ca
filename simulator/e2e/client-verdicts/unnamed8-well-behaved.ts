import { api, auth, CONNECTION, fault, READS, type UnnamedClient2 } from './unnamed-kit.ts';
import { seeded } from './unnamed4-kit.ts';
import { sleeper } from './unnamed6-kit.ts';
import {
  get,
  haskellFullJitter,
  kyJitter,
  laravelLinear,
  micronaut,
  ok,
  retryGo,
  retrying,
  rubyRetriable,
  zioJittered,
} from './unnamed8-kit.ts';

/**
 * Round 8, well-behaved: stacks no earlier round used (schedules in unnamed8-kit.ts). Each must get
 * no `fail`; the interface sentence that makes it legal is quoted above it.
 */
export const STACKS_8: UnnamedClient2[] = [
  // "Clients retry with growing intervals and slight random spread.": Haskell's `retry` package,
  // `recovering (fullJitterBackoff 500000 <> limitRetries 3) [transientHandler]`.
  {
    does: 'is a Haskell service using the retry package (fullJitterBackoff 500 ms <> limitRetries 3, only on 429/5xx) over four reads through 500s',
    pass: ['retry.only-after-failure', 'retry.growing-waits', 'retry.attempt-limit'],
    async run(t) {
      const a = auth(t);
      const sleep = sleeper(t);
      const wait = haskellFullJitter(500, seeded(801));
      for (const [route, path] of READS.slice(0, 4)) {
        fault(t, { kind: 'internal', route, count: 2 });
        ok(path, await retrying(sleep, () => get(t, a, path), wait));
        await sleep(4_000);
      }
    },
  },
  // "respect the wait time of the response": ZIO `Schedule.exponential(500.millis).jittered &&
  // Schedule.recurs(3)`, a 429's Retry-After slept first (`Schedule.fromFunction` on the header).
  {
    does: 'is a Scala ZIO client (Schedule.exponential(500 ms).jittered && recurs(3), a 429’s Retry-After as a floor) over three reads through a 429 and 500s',
    pass: ['retry.respects-retry-after', 'retry.growing-waits'],
    async run(t) {
      const a = auth(t);
      const sleep = sleeper(t);
      const wait = zioJittered(500, seeded(802));
      fault(t, { kind: 'rate_limited', route: 'listConnectors', retryAfterSeconds: 2, count: 1 });
      for (const [route, path] of READS.slice(1, 4)) {
        fault(t, { kind: 'internal', route, count: 2 });
        ok(path, await retrying(sleep, () => get(t, a, path), wait));
        await sleep(3_000);
      }
    },
  },
  // Ruby `retriable` on its defaults (tries 3, intervals 0.5 s × 1.5^n randomised ±50 %): a shorter
  // wait after a longer one is what the draw gives, not a shrinking schedule.
  {
    does: 'is a Ruby worker under Retriable.retriable (defaults: tries 3, base 0.5 s, multiplier 1.5, rand_factor 0.5) on 5xx only, over five reads',
    pass: ['retry.only-after-failure', 'retry.attempt-limit'],
    async run(t) {
      const a = auth(t);
      const sleep = sleeper(t);
      const wait = rubyRetriable(seeded(803));
      for (const [route, path] of READS) {
        fault(t, { kind: 'internal', route, count: 2 });
        ok(path, await retrying(sleep, () => get(t, a, path), wait, { max: 2 }));
        await sleep(2_000);
      }
    },
  },
  // "retry with growing intervals and slight random spread": linear growth is growth. Laravel's HTTP
  // client, `Http::retry(3, fn ($attempt) => $attempt * 400 + random_int(0, 200), when: transient)`,
  // with the create's key made before the closure.
  {
    does: 'is a Laravel job using Http::retry(3, attempt·400 ms + random_int(0, 200)) with a when-callback for 429/5xx, creating two connections (key made once per job) through 500s',
    pass: ['retry.same-key-and-content', 'retry.growing-waits'],
    async run(t) {
      const a = auth(t);
      const sleep = sleeper(t);
      const wait = laravelLinear(seeded(804));
      for (const venue of ['Quayside Noodle Bar', 'Lantern Row Cantina']) {
        fault(t, { kind: 'internal', route: 'createConnection', count: 2 });
        const key = `laravel-job-${venue.toLowerCase().replaceAll(' ', '-')}`;
        const body = { ...CONNECTION, scopeLabel: venue };
        ok(venue, await retrying(sleep, () => api(t, a, 'POST', '/connections', { body, key }), wait));
        await sleep(5_000);
      }
    },
  },
  // ky `retry: { limit: 3, jitter: true }` in a Node backend: full jitter on 0.3 s × 2^n, a 429's or
  // 503's Retry-After taken as is; POST is not in ky's retried methods, so the check is not retried.
  {
    does: 'is a Node backend on ky (retry limit 3, jitter: true, Retry-After on 429/503), reading through a 503 with Retry-After: 2, a 429 and 500s; a capability check answered 500 is left failed (POST is not retried)',
    pass: ['retry.respects-retry-after', 'retry.only-after-failure'],
    async run(t) {
      const a = auth(t);
      const sleep = sleeper(t);
      const wait = kyJitter(seeded(805));
      fault(t, { kind: 'unavailable', route: 'listProviders', retryAfterSeconds: 2, count: 1 });
      ok('providers', await retrying(sleep, () => get(t, a, '/providers'), wait, { ignoreRetryAfter: true }));
      fault(t, { kind: 'rate_limited', route: 'listConnectors', retryAfterSeconds: 1, count: 1 });
      fault(t, { kind: 'internal', route: 'listConnectors', count: 1 });
      await sleep(1_000);
      ok('connectors', await retrying(sleep, () => get(t, a, '/connectors'), wait, { ignoreRetryAfter: true }));
      fault(t, { kind: 'internal', route: 'checkCapability', count: 1 });
      await sleep(1_000);
      const check = { connectorId: CONNECTION.connectorId, capability: 'orders.read' };
      await api(t, a, 'POST', '/capabilities', { body: check });
    },
  },
  // avast/retry-go with `Attempts(4), Delay(500ms), MaxJitter(250ms), RetryIf(transient)`: the
  // guidance's schedule written by another library, around a create whose key is a closure variable.
  {
    does: 'is a Go service on avast/retry-go (Attempts(4), Delay 500 ms, MaxJitter 250 ms, RetryIf on 429/5xx/reset) whose create is committed then dropped, then answered 500, then replayed with its key',
    pass: ['retry.same-key-and-content', 'retry.attempt-limit', 'idempotency.one-key-one-content'],
    async run(t) {
      const a = auth(t);
      const sleep = sleeper(t);
      fault(t, { kind: 'commit_then_fail', route: 'createConnection', failWith: 'drop', count: 1 });
      fault(t, { kind: 'internal', route: 'createConnection', count: 1 });
      const body = { ...CONNECTION, scopeLabel: 'Gopher Hole Tavern' };
      const r = ok(
        'the create',
        await retrying(
          sleep,
          () => api(t, a, 'POST', '/connections', { body, key: 'retrygo-7c1e9a2b' }),
          retryGo(seeded(806)),
        ),
      );
      if (r.json?.meta?.replayed !== true) throw new Error('not replayed');
    },
  },
  // Micronaut's `@Retryable(attempts = "4", delay = "500ms", multiplier = "2.0", jitter = 0.25,
  // includes = TransientException)`, the 429's Retry-After read in the exception and slept first.
  {
    does: 'is a Micronaut @Retryable bean (attempts 4, delay 500 ms, multiplier 2, jitter 0.25) over one read through a 429 (Retry-After: 1), a 500 and a 429 (Retry-After: 3): four attempts',
    pass: ['retry.respects-retry-after', 'retry.attempt-limit'],
    async run(t) {
      const a = auth(t);
      const sleep = sleeper(t);
      fault(t, { kind: 'rate_limited', route: 'listCapabilities', retryAfterSeconds: 1, count: 1 });
      fault(t, { kind: 'internal', route: 'listCapabilities', count: 1 });
      fault(t, { kind: 'rate_limited', route: 'listCapabilities', retryAfterSeconds: 3, count: 1 });
      ok('capabilities', await retrying(sleep, () => get(t, a, '/capabilities'), micronaut(seeded(807))));
    },
  },
];
