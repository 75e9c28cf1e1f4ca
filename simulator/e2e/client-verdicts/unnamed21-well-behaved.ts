import { auth, CONNECTION, fault, type UnnamedClient2 } from './unnamed-kit.ts';
import { seeded } from './unnamed4-kit.ts';
import { sleeper } from './unnamed6-kit.ts';
import { get, ok } from './unnamed8-kit.ts';
import { createWith, loop, replayed } from './unnamed11-kit.ts';
import { readsThrough } from './unnamed13-kit.ts';
import {
  beeQueueExponential,
  dramatiqBackoff,
  elixirRetry,
  invlRetry,
  kotlinDecorrelated,
  rican7Deviation,
  softwaremillFull,
  tryhardExponential,
} from './unnamed21-kit.ts';

/**
 * Round 21, well-behaved clients (retry libraries and job queues no earlier round used). Each must get no
 * `fail`; the interface sentence that makes it legal is quoted above it.
 */
export const WELL_BEHAVED_21: UnnamedClient2[] = [
  // "Clients retry with growing intervals and slight random spread": Python's `retry` decorator
  // (`@retry(tries=4, delay=0.5, backoff=2, jitter=(0, 0.25))`): the first sleep is exactly 0.5 s, later ones
  // carry the accumulated draws; one read through three 500s (a single sequence). Three such sequences are in
  // unnamed21-ambiguous.ts: the exact first sleep weighs on `retry.spread`.
  {
    does: 'is a Python job under the `retry` decorator (tries=4, delay=0.5, backoff=2, jitter=(0, 0.25)) reading providers through three 500s',
    pass: ['retry.attempt-limit', 'retry.growing-waits'],
    async run(t) {
      const a = auth(t);
      fault(t, { kind: 'internal', route: 'listProviders', count: 3 });
      const wait = invlRetry({ delayMs: 500, backoff: 2, jitterMs: [0, 250] }, seeded(2101));
      ok('read', await loop(sleeper(t), () => get(t, a, '/providers'), wait, 3));
    },
  },
  // "A sample client makes up to 4 attempts and doubles the wait": Rust tryhard
  // `retry_fn(f).retries(3).exponential_backoff(500ms).max_delay(5s)`, one read through three 500s (a single
  // sequence: its missing spread cannot be seen).
  {
    does: 'is a Rust service on tryhard (retries 3, exponential_backoff 500 ms, max_delay 5 s) reading connections through three 500s',
    pass: ['retry.attempt-limit', 'retry.growing-waits'],
    async run(t) {
      const a = auth(t);
      fault(t, { kind: 'internal', route: 'listConnections', count: 3 });
      ok('read', await loop(sleeper(t), () => get(t, a, '/connections'), tryhardExponential, 3));
    },
  },
  // "the same key with the same content returns the same response again": an Elixir worker wraps its create
  // in ElixirRetry's `retry with: exponential_backoff(500) |> randomize |> cap(5_000) |> Stream.take(3)`, the
  // key generated once and stored in the Ecto row before the first attempt.
  {
    does: 'is an Elixir worker on ElixirRetry (exponential_backoff(500) |> randomize |> Stream.take(3)) re-sending a create after a gateway 503 after commit, key stored in its Ecto row',
    pass: ['retry.same-key-and-content'],
    async run(t) {
      const a = auth(t);
      fault(t, { kind: 'commit_then_fail', route: 'createConnection', failWith: 'unavailable', count: 1 });
      const body = { ...CONNECTION, scopeLabel: 'Elixir Empanadas' };
      const wait = elixirRetry(seeded(2103));
      replayed('create', await loop(sleeper(t), () => createWith(t, a, body, 'ecto-row-7f3e91d2-create'), wait, 3));
    },
  },
  // "growing intervals and slight random spread": softwaremill's Scala `retry.JitterBackoff(max = 3,
  // delay = 500.millis)` with `Jitter.full`, three reads each through two 500s.
  {
    does: 'is a Scala service on softwaremill retry.JitterBackoff(max 3, delay 500 ms) with Jitter.full, three reads each through two 500s',
    pass: ['retry.attempt-limit'],
    async run(t) {
      await readsThrough(t, auth(t), sleeper(t), {
        schedule: softwaremillFull(seeded(2104)),
        failures: 2,
        max: 3,
        from: 1,
      });
    },
  },
  // "Modifying calls are repeat-safe through idempotency keys": a Dramatiq actor (max_retries 3, min_backoff
  // 500, max_backoff 10 000) whose create uses the message's message_id as the key; Dramatiq re-enqueues the
  // same message after the 500.
  {
    does: 'is a Dramatiq actor (max_retries 3, min_backoff 500 ms) keying its create with message.message_id, re-enqueued after a 500 after commit',
    pass: ['retry.same-key-and-content'],
    async run(t) {
      const a = auth(t);
      fault(t, { kind: 'commit_then_fail', route: 'createConnection', failWith: 'internal', count: 1 });
      const body = { ...CONNECTION, scopeLabel: 'Dramatiq Dumplings' };
      const key = 'dramatiq-msg-3c9a2f6e-8d41-4b7a-9e0c-51f2a7d6b8e3';
      const wait = dramatiqBackoff(500, 10_000, seeded(2105));
      replayed('create', await loop(sleeper(t), () => createWith(t, a, body, key), wait, 3));
    },
  },
  // "A sample client makes up to 4 attempts and doubles the wait": a bee-queue job with
  // `.retries(3).backoff('exponential', 1000)`, one read through three 500s.
  {
    does: 'is a bee-queue job (retries 3, backoff exponential 1000) reading capabilities through three 500s',
    pass: ['retry.attempt-limit', 'retry.growing-waits'],
    async run(t) {
      const a = auth(t);
      fault(t, { kind: 'internal', route: 'listCapabilities', count: 3 });
      ok('read', await loop(sleeper(t), () => get(t, a, '/capabilities'), beeQueueExponential, 3));
    },
  },
  // "growing intervals and slight random spread": Rican7/retry with strategy.Limit(4) and
  // BackoffWithJitter(BinaryExponential(500ms), Deviation(0.5)), three reads each through two 500s.
  {
    does: 'is a Go client on Rican7/retry (Limit(4), BackoffWithJitter(BinaryExponential(500ms), Deviation 0.5)), three reads each through two 500s',
    pass: ['retry.attempt-limit', 'retry.growing-waits', 'retry.spread'],
    async run(t) {
      await readsThrough(t, auth(t), sleeper(t), {
        schedule: rican7Deviation(seeded(2107)),
        failures: 2,
        max: 3,
        from: 2,
      });
    },
  },
  // "respect the wait time of the response": @lifeomic/attempt with a calculateDelay that takes the larger of
  // its jittered exponential delay (200 ms x2) and Retry-After, through a 429 (Retry-After 3) then a 500.
  {
    does: 'is a Node service on @lifeomic/attempt (delay 200, factor 2, jitter, calculateDelay honouring Retry-After) through a 429 (Retry-After 3), then a 500',
    pass: ['retry.respects-retry-after'],
    async run(t) {
      const a = auth(t);
      const random = seeded(2108);
      fault(t, { kind: 'rate_limited', route: 'listConnectors', retryAfterSeconds: 3, count: 1 });
      fault(t, { kind: 'internal', route: 'listConnectors', count: 1 });
      const wait = (n: number, r: { retryAfterMs: number }) =>
        Math.max(Math.round(random() * 200 * 2 ** n), r.retryAfterMs);
      ok('read', await loop(sleeper(t), () => get(t, a, '/connectors?providerId=tillcraft'), wait, 3));
    },
  },
  // "the same key with the same content": michaelbull/kotlin-retry `retry(limitAttempts(4) +
  // decorrelatedJitterBackoff(base = 500, max = 10_000))` around a Ktor call whose key is made outside the block.
  {
    does: 'is a Kotlin service on michaelbull/kotlin-retry (limitAttempts(4) + decorrelatedJitterBackoff(500, 10 000)) re-sending a create whose connection dropped after commit',
    pass: ['retry.same-key-and-content'],
    async run(t) {
      const a = auth(t);
      fault(t, { kind: 'commit_then_fail', route: 'createConnection', failWith: 'drop', count: 1 });
      const body = { ...CONNECTION, scopeLabel: 'Kotlin Kofta' };
      const wait = kotlinDecorrelated(seeded(2109));
      replayed('create', await loop(sleeper(t), () => createWith(t, a, body, 'kt-retry-0b5e7c1a-create'), wait, 3));
    },
  },
  // "retry only after rate_limited and internal ... the same key": a Karafka consumer (DLQ max_retries 3,
  // pause_with_exponential_backoff from 1 s) keys its create with topic-partition-offset; two plain 500s.
  {
    does: 'is a Karafka consumer (dead_letter_queue max_retries 3, exponential pause from 1 s) keying its create "venues-2-18734", through two 500s',
    pass: ['retry.same-key-and-content', 'retry.attempt-limit'],
    async run(t) {
      const a = auth(t);
      fault(t, { kind: 'internal', route: 'createConnection', count: 2 });
      const body = { ...CONNECTION, scopeLabel: 'Karafka Katsu' };
      ok(
        'create',
        await loop(
          sleeper(t),
          () => createWith(t, a, body, 'venues-2-18734'),
          (n) => 1_000 * 2 ** n,
          3,
        ),
      );
    },
  },
];
