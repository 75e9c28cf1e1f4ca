import { api, auth, CONNECTION, fault, READS, type UnnamedClient2 } from './unnamed-kit.ts';
import { seeded } from './unnamed4-kit.ts';
import { sleeper } from './unnamed6-kit.ts';
import { get, ok } from './unnamed8-kit.ts';
import { createWith, loop, replayed } from './unnamed11-kit.ts';
import { readsThrough } from './unnamed13-kit.ts';
import { http4sBackoff, makeFetchHappen } from './unnamed22-kit.ts';

/**
 * Round 22, well-behaved clients whose evidence is less plain: a capped second wait, concurrent reads each
 * retried on its own, a 429 on a keyed create, whole-second draws in a shell loop.
 */
export const WELL_BEHAVED_EXTRA_22: UnnamedClient2[] = [
  // "growing intervals and slight random spread": make-fetch-happen with npm's defaults on three reads each
  // through two 500s: the first waits are drawn (10-20 s), the second ones all hit maxtimeout (60 s).
  {
    does: 'is a Node CLI on make-fetch-happen with npm’s retry defaults, three reads each through two 500s (first waits drawn, second ones capped at 60 s)',
    pass: ['retry.attempt-limit', 'retry.growing-waits'],
    async run(t) {
      await readsThrough(t, auth(t), sleeper(t), {
        schedule: makeFetchHappen(seeded(2221)),
        failures: 2,
        max: 2,
        from: 2,
      });
    },
  },
  // "retry with growing intervals and slight random spread": a Ruby Typhoeus::Hydra (max_concurrency 3) runs
  // three different reads at once; each request's on_complete sleeps `0.5 * 2**n + rand * 0.25` s after a 500
  // and re-queues it. Ruby's `sleep` in a callback blocks the hydra, so the sleeps run one after another.
  // (Sleeps overlapping on the test clock would all end with the first one to move it: the harness, not the
  // client, would make them equal.)
  {
    does: 'is a Ruby Typhoeus::Hydra running three different reads at once, each re-queued after its 500s by an on_complete that sleeps 0.5 s x2 plus rand 0.25 s (blocking the hydra)',
    pass: ['retry.attempt-limit'],
    async run(t) {
      const a = auth(t);
      const random = seeded(2222);
      let hydra: Promise<void> = Promise.resolve();
      const blocking = (ms: number) => {
        const slept = hydra.then(() => sleeper(t)(ms));
        hydra = slept;
        return slept;
      };
      await Promise.all(
        READS.slice(0, 3).map(async ([route, path]) => {
          fault(t, { kind: 'internal', route, count: 2 });
          const wait = (n: number) => Math.round(500 * 2 ** n + random() * 250);
          ok(path, await loop(blocking, () => get(t, a, path), wait, 3));
        }),
      );
    },
  },
  // "respect the wait time of the response" and "the same key": http4s' Retry middleware retries a keyed
  // POST refused 429 after the longer of its backoff (2 s) and Retry-After (5 s), key unchanged.
  {
    does: 'is a Scala http4s client retrying a keyed create refused 429 (Retry-After 5) after max(backoff 2 s, Retry-After), key unchanged',
    pass: ['retry.respects-retry-after', 'retry.same-key-and-content'],
    async run(t) {
      const a = auth(t);
      fault(t, { kind: 'rate_limited', route: 'createConnection', retryAfterSeconds: 5, count: 1 });
      const body = { ...CONNECTION, scopeLabel: 'Http4s Halloumi' };
      ok('create', await loop(sleeper(t), () => createWith(t, a, body, 'http4s-5ee0d2a1-venue'), http4sBackoff, 3));
    },
  },
  // "growing intervals and slight random spread": a GitHub Actions `run:` step looping
  // `curl -fsS ... && break; sleep $(( 2**i + RANDOM % 3 ))`: whole-second draws, 2-4 s, 4-6 s, 8-10 s.
  {
    does: 'is a GitHub Actions run step looping curl with sleep $(( 2**i + RANDOM % 3 )), one read through three 500s',
    pass: ['retry.attempt-limit', 'retry.growing-waits'],
    async run(t) {
      const a = auth(t);
      const random = seeded(2224);
      fault(t, { kind: 'internal', route: 'listConnections', count: 3 });
      const wait = (n: number) => (2 ** (n + 1) + Math.floor(random() * 3)) * 1_000;
      ok('read', await loop(sleeper(t), () => get(t, a, '/connections'), wait, 3));
    },
  },
  // "the same key with the same content": a Magento cron job posts its create with PHP's json_encode defaults
  // (`Caf\u00e9`, `Fish\/Chips`); after a 500 after commit its queue consumer re-sends it under the same key,
  // serialised with JSON_UNESCAPED_UNICODE | JSON_UNESCAPED_SLASHES: the same JSON, other bytes.
  {
    does: 'is a Magento cron job whose create (json_encode escaping é and /) is re-sent after a 500 after commit by its queue consumer, unescaped, under the same key',
    pass: ['retry.same-key-and-content'],
    async run(t) {
      const a = auth(t);
      fault(t, { kind: 'commit_then_fail', route: 'createConnection', failWith: 'internal', count: 1 });
      const key = 'magento-cron-venue-1187';
      const fields = (label: string) =>
        `{"connectorId":"tillcraft-pos-cloud","environment":"sandbox","scopeLabel":"${label}","capabilities":["orders.read","payments.refund"]}`;
      const first = await api(t, a, 'POST', '/connections', { raw: fields('Caf\\u00e9 Fish\\/Chips'), key });
      if (first.status !== 500) throw new Error(`answered ${first.status}`);
      await sleeper(t)(1_500);
      replayed('create', await api(t, a, 'POST', '/connections', { raw: fields('Café Fish/Chips'), key }));
    },
  },
];
