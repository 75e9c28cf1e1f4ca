import { randomUUID } from 'node:crypto';
import type { SandboxOptions } from '../../app/sandbox-options.ts';
import { api, auth, CONNECTION, fault } from './unnamed-kit.ts';
import type { FaultyClient } from './unnamed-misbehaving.ts';
import { seeded } from './unnamed4-kit.ts';
import { sleeper } from './unnamed6-kit.ts';
import { get, ok } from './unnamed8-kit.ts';
import { createWith, loop } from './unnamed11-kit.ts';
import { readsOn } from './unnamed25-kit.ts';
import { mutinyBackoff, pocoFirstOnly, RTK_DEFAULT_MAX_RETRIES, rtkBackoff, rxTimer } from './unnamed35-kit.ts';
import { MISBEHAVING_35_MORE } from './unnamed35-misbehaving-more.ts';

/**
 * Round 35, misbehaving clients whose violation looks correct: RTK Query's default six attempts, Mutiny's
 * jitter clamped to nothing by a max equal to its initial delay, RxJava's defer minting a key per
 * resubscription, a Go map's range order changing the body, Poco honouring only the first 429's
 * Retry-After. Each must fail exactly its rule(s).
 */
export const MISBEHAVING_35: (FaultyClient & { options?: SandboxOptions })[] = [
  // "up to 4 attempts": retry(fetchBaseQuery) without options keeps maxRetries 5: six attempts.
  {
    does: 'is an RTK Query retry(fetchBaseQuery) on its defaults (maxRetries 5), three reads through five 500s: six attempts each',
    fails: ['retry.attempt-limit'],
    run: (t) =>
      readsOn(t, auth(t), sleeper(t), {
        schedule: rtkBackoff(seeded(3551)),
        failures: RTK_DEFAULT_MAX_RETRIES,
        max: RTK_DEFAULT_MAX_RETRIES,
      }),
  },
  // "growing intervals and slight random spread": withBackOff(1 s, 1 s) caps every delay at 1 s and the
  // jitter's range [max(initial, d - j*d), min(max, d + j*d)] is [1 s, 1 s]: the jitter is configured but
  // draws nothing.
  {
    does: 'is a SmallRye Mutiny retry withBackOff(Duration.ofSeconds(1), Duration.ofSeconds(1)).withJitter(0.5).atMost(3), three reads through three 500s: 1 s, 1 s, 1 s',
    fails: ['retry.growing-waits', 'retry.spread'],
    run: (t) =>
      readsOn(t, auth(t), sleeper(t), {
        schedule: mutinyBackoff({ initialMs: 1_000, maxMs: 1_000, random: seeded(3552) }),
        failures: 3,
        max: 3,
      }),
  },
  // "the same key with the same content": Single.defer(() -> buildRequest(body)) with the key minted
  // inside buildRequest, so each resubscription of retryWhen sends a new key.
  {
    does: 'is an RxJava Single.defer(() -> buildRequest(body)).retryWhen(timer) whose buildRequest mints the Idempotency-Key, retrying a create through two 500s with a new key each time',
    fails: ['retry.same-key-and-content'],
    async run(t) {
      const a = auth(t);
      fault(t, { kind: 'internal', route: 'createConnection', count: 2 });
      const body = { ...CONNECTION, scopeLabel: 'Resubscribed Risotto' };
      const wait = rxTimer(seeded(3553));
      ok('create', await loop(sleeper(t), () => createWith(t, a, body, `rx-${randomUUID()}`), wait, 3));
    },
  },
  // "same idempotency key with different content": the key is kept, but the body is marshalled again per
  // attempt and its capabilities slice is built by ranging over a map[string]bool, whose order Go
  // randomises on every range: the retry lists the same capabilities in another order.
  {
    does: 'is a Go client keeping its Idempotency-Key but marshalling the body again per attempt, its capabilities built by ranging over a map[string]bool (another order on the retry), through one 500',
    fails: ['idempotency.one-key-one-content'],
    async run(t) {
      const a = auth(t);
      fault(t, { kind: 'internal', route: 'createConnection', count: 1 });
      const orders = [
        ['orders.read', 'payments.refund'],
        ['payments.refund', 'orders.read'],
      ];
      const body = (n: number) => ({ ...CONNECTION, scopeLabel: 'Ranged Ramen', capabilities: orders[n % 2] });
      await loop(sleeper(t), (n) => createWith(t, a, body(n), 'go-map-1'), rxTimer(seeded(3554)), 1);
    },
  },
  // "respect the wait time of the response": the Retry-After branch is under `if (attempt == 0)`, so the
  // second 429 (Retry-After 2) is retried after the loop's own 500-600 ms.
  {
    does: 'is a C++ Poco HTTPClientSession loop that sleeps the first 429’s Retry-After (2 s) but only its own 250 << n ms after the second',
    fails: ['retry.respects-retry-after'],
    async run(t) {
      const a = auth(t);
      fault(t, { kind: 'rate_limited', route: 'listProviders', retryAfterSeconds: 2, count: 2 });
      ok('read', await loop(sleeper(t), () => get(t, a, '/providers'), pocoFirstOnly(seeded(3555)), 3));
    },
  },
  // "Retry guidance: retry only after rate_limited and internal": the 503 handler takes the gateway for
  // a restarting server and reconnects at once, three times, never reading its Retry-After.
  {
    does: 'is a C++ Boost.Beast loop that takes a 503 (Retry-After 1) for a restarting server and reconnects at once, ignoring the header, three times in a row, before the create goes through',
    fails: ['retry.growing-waits'],
    async run(t) {
      const a = auth(t);
      fault(t, { kind: 'unavailable', route: 'createConnection', retryAfterSeconds: 1, count: 3 });
      const body = { ...CONNECTION, scopeLabel: 'Hasty Hummus' };
      ok(
        'create',
        await loop(
          sleeper(t),
          () => createWith(t, a, body, 'beast-now-1'),
          () => 0,
          3,
        ),
      );
    },
  },
  // "The interface is called from servers only": an SWR hook in the browser whose fetcher adds the
  // bearer token from the session (the browser adds Origin).
  {
    does: 'is a React SWR hook in the browser whose fetcher adds Authorization: Bearer from the session store',
    fails: ['auth.no-browser-credentials'],
    async run(t) {
      const a = auth(t);
      await api(t, a, 'GET', '/connections', { headers: { origin: 'https://dashboard.partner.example' } });
    },
  },
  ...MISBEHAVING_35_MORE,
];
