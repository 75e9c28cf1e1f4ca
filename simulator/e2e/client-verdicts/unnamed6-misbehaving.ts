import { createHash } from 'node:crypto';
import { api, auth, CONNECTION, fault, READS } from './unnamed-kit.ts';
import type { FaultyClient2 } from './unnamed2-misbehaving.ts';
import { seeded, uuid } from './unnamed4-kit.ts';
import { retried, transient } from './unnamed5-fleet.ts';
import { EDGE_MISBEHAVING_6 } from './unnamed6-edges.ts';
import { reactorBackoff, sleeper } from './unnamed6-kit.ts';
import { MORE_MISBEHAVING_6 } from './unnamed6-misbehaving-more.ts';

/**
 * Round 6, misbehaving: clients in the style of other stacks that break exactly one duty (or the two a
 * schedule breaks together); the sentence broken is quoted above each.
 */
const STACKS: FaultyClient2[] = [
  // "Retry guidance: retry only after rate_limited and internal.": PowerShell 7's Invoke-RestMethod
  // -MaximumRetryCount retries every status from 400 to 599, at a fixed -RetryIntervalSec: an admin
  // script's create with a too-short scopeLabel is sent four times, the same key and body each time.
  {
    does: 'is a PowerShell script using Invoke-RestMethod -MaximumRetryCount 3 -RetryIntervalSec 2, which repeats a create refused with 400 (scopeLabel too short), same key and body',
    fails: ['retry.only-after-failure'],
    async run(t) {
      const a = auth(t);
      const body = { ...CONNECTION, scopeLabel: 'X' };
      const r = await retried(
        sleeper(t),
        () => api(t, a, 'POST', '/connections', { body, key: 'ps1-create-0001' }),
        (_n, x) => (x.status >= 400 ? 2_000 : undefined),
      );
      if (r.status !== 400) throw new Error(`the create answered ${r.status}`);
    },
  },
  // The same sentence: a Spring WebClient whose retryWhen filter was written for optimistic locking
  // (409 = "someone else is writing, try again") retries a 409 capability_denied with Reactor's backoff.
  {
    does: 'is a Spring WebClient whose retryWhen filter treats 409 as an optimistic-lock clash and retries a create refused with 409 capability_denied, backing off',
    fails: ['retry.only-after-failure'],
    async run(t) {
      const a = auth(t);
      const backoff = reactorBackoff({ minMs: 500, maxMs: 5_000, jitter: 0.5, random: seeded(631) });
      const body = { ...CONNECTION, capabilities: ['orders.read', 'no.such.capability'] };
      const r = await retried(
        sleeper(t),
        () => api(t, a, 'POST', '/connections', { body, key: 'spring-lock-7a1c0f' }),
        (n, x) => (x.status === 409 || transient(x) ? backoff(n) : undefined),
      );
      if (r.json?.error?.code !== 'capability_denied') throw new Error(`answered ${r.json?.error?.code}`);
    },
  },
  // "respect the wait time of the response": a client with an adaptive client-side rate that, after two
  // 429s in a row, trusts its own measured send rate (300 ms) over the header: the third 429's
  // Retry-After is ignored.
  {
    does: 'honours Retry-After on the first two 429s of a read, then switches to its own adaptive rate and retries the third 429 after 300 ms',
    fails: ['retry.respects-retry-after'],
    async run(t) {
      const a = auth(t);
      const random = seeded(632);
      fault(t, { kind: 'rate_limited', route: 'listProviders', retryAfterSeconds: 1, count: 3 });
      let in429 = 0;
      await retried(
        sleeper(t),
        () => api(t, a, 'GET', '/providers'),
        (_n, x) => {
          if (x.status !== 429) return undefined;
          in429++;
          return in429 >= 3 ? 300 : x.retryAfterMs + Math.floor(random() * 200);
        },
      );
    },
  },
  // "the same key with different content yields idempotency_conflict ... use a new key for each new
  // operation": the key is a hash of tenant and venue, so a second create for the same venue with
  // other capabilities (a new operation) goes out under the first one's key.
  {
    does: 'derives its Idempotency-Key from sha256(tenant + scopeLabel), so two different creates for one venue share a key',
    fails: ['idempotency.one-key-one-content'],
    async run(t) {
      const a = auth(t);
      const keyOf = (b: typeof CONNECTION) =>
        `venue-${createHash('sha256').update(`${a.tenant}|${b.scopeLabel}`).digest('hex').slice(0, 32)}`;
      const pos = { ...CONNECTION, scopeLabel: 'Two Tills Cafe', capabilities: ['orders.read'] };
      const refunds = { ...pos, capabilities: ['orders.read', 'payments.refund'] };
      const first = await api(t, a, 'POST', '/connections', { body: pos, key: keyOf(pos) });
      if (first.status !== 200) throw new Error(`the first create answered ${first.status}`);
      await sleeper(t)(4_000);
      await api(t, a, 'POST', '/connections', { body: refunds, key: keyOf(refunds) });
    },
  },
  // "Clients retry with growing intervals and slight random spread.": Spring Retry's @Retryable with
  // its defaults (maxAttempts 3, FixedBackOffPolicy 1000 ms): the same second every time, on every read.
  {
    does: 'is a Spring @Retryable service with the defaults (maxAttempts 3, a fixed 1000 ms back-off) reading three paths through 500s',
    fails: ['retry.growing-waits', 'retry.spread'],
    async run(t) {
      const a = auth(t);
      const sleep = sleeper(t);
      for (const [route, path] of [
        ['listConnectors', '/connectors'],
        ['listCapabilities', '/capabilities'],
        ['listProviders', '/providers'],
      ] as const) {
        fault(t, { kind: 'internal', route, count: 2 });
        await retried(
          sleep,
          () => api(t, a, 'GET', path),
          (_n, x) => (transient(x) ? 1_000 : undefined),
          2,
        );
        await sleep(3_000);
      }
    },
  },
  // "Clients retry with ... slight random spread.": Apache HttpClient 5's DefaultHttpRequestRetryStrategy
  // (one retry, a fixed 1 s when the 503 carries no Retry-After) on five reads: every retry a second after
  // its 503, in lockstep with every other instance.
  {
    does: 'is a Java client on Apache HttpClient 5’s DefaultHttpRequestRetryStrategy (1 retry, a fixed 1 s interval) retrying five reads after a 503 without Retry-After',
    fails: ['retry.spread'],
    async run(t) {
      const a = auth(t);
      const sleep = sleeper(t);
      for (const [route, path] of READS) {
        fault(t, { kind: 'unavailable', route, count: 1 });
        await retried(
          sleep,
          () => api(t, a, 'GET', path),
          (_n, x) => (x.status === 503 ? 1_000 : undefined),
          1,
        );
        await sleep(2_500);
      }
    },
  },
  // "the same key with the same content returns the same response again": a CLI that mints a fresh key
  // per invocation: the person who runs a failed create again 8 s later sends it under a new key.
  {
    does: 'is a CLI that mints a new key per invocation: a person runs a create that answered 500 again 8 s later, under another key',
    fails: ['retry.same-key-and-content'],
    async run(t) {
      const cached = auth(t, undefined, 3_600);
      const random = seeded(633);
      const body = { ...CONNECTION, scopeLabel: 'Impatient Diner' };
      fault(t, { kind: 'internal', route: 'createConnection', count: 1 });
      await api(t, cached, 'POST', '/connections', { body, key: `cli-${uuid(random)}` });
      await sleeper(t)(8_000);
      const r = await api(t, cached, 'POST', '/connections', { body, key: `cli-${uuid(random)}` });
      if (r.status !== 200) throw new Error(`the second run answered ${r.status}`);
    },
  },
];

export const MISBEHAVING_6: FaultyClient2[] = [...STACKS, ...MORE_MISBEHAVING_6, ...EDGE_MISBEHAVING_6];
