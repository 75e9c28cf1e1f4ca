import { api, auth, CONNECTION, fault, type UnnamedClient2 } from './unnamed-kit.ts';
import { seeded } from './unnamed4-kit.ts';
import { sleeper } from './unnamed6-kit.ts';
import { get, ok, retrying } from './unnamed8-kit.ts';
import { createWith, loop } from './unnamed11-kit.ts';
import { readsOn } from './unnamed25-kit.ts';
import { EARLIER_VERSION } from './unnamed32-kit.ts';
import {
  httpRbDelay,
  java21Loop,
  mollitiaJitter,
  restyJitter,
  retryAfterAsSeconds,
  roundTripperWait,
} from './unnamed34-kit.ts';
import { PROBES_WELL_34 } from './unnamed34-probes.ts';
import { PROBES_MORE_WELL_34 } from './unnamed34-probes-more.ts';
import { WELL_BEHAVED_34_MORE } from './unnamed34-well-behaved-more.ts';

/**
 * Round 34, well-behaved clients of stacks no earlier round used (go-resty, http.rb, Java 21 HttpClient,
 * a Go RoundTripper, mollitia) and a client pinned to the earlier Service-Version for its creates only.
 * Each must get no `fail`; the interface sentence that makes it legal is quoted above it.
 */
export const WELL_BEHAVED_34: UnnamedClient2[] = [
  // "growing intervals and slight random spread": resty's equal jitter on a doubling cap, 3 retries.
  {
    does: 'is a go-resty v2 client with SetRetryCount(3) on the default jitter backoff (100 ms min, 2 s max), three reads each through two 500s',
    pass: ['retry.growing-waits', 'retry.attempt-limit'],
    run: (t) => readsOn(t, auth(t), sleeper(t), { schedule: restyJitter(seeded(3401)), failures: 2, max: 3 }),
  },
  // "up to 4 attempts": http.rb's .retriable told tries: 4 (its default is 5), 0-1 s, 1-2 s, 3-4 s.
  {
    does: 'is a Ruby http.rb client with .retriable(tries: 4, retry_statuses: 500..599) on its default delay (2^(i-1) - 1 s plus rand), three reads through three 500s',
    pass: ['retry.growing-waits', 'retry.attempt-limit'],
    run: (t) => readsOn(t, auth(t), sleeper(t), { schedule: httpRbDelay(seeded(3402)), failures: 3, max: 3 }),
  },
  // "the same key with the same content": the HttpRequest is built once (key header, BodyPublishers.ofString
  // of the serialised body) and sent again as it is; HttpRequest is immutable.
  {
    does: 'is a Java 21 HttpClient loop sending one immutable HttpRequest (key header and BodyPublishers.ofString built once) through two 500s, sleeping 500 << n ms plus nextLong(250)',
    pass: ['retry.same-key-and-content', 'retry.growing-waits'],
    async run(t) {
      const a = auth(t);
      fault(t, { kind: 'internal', route: 'createConnection', count: 2 });
      const body = { ...CONNECTION, scopeLabel: 'Java Jollof' };
      const wait = java21Loop(seeded(3403));
      ok('create', await loop(sleeper(t), () => createWith(t, a, body, 'java21-req-7c1e'), wait, 3));
    },
  },
  // "the same key with the same content": the RoundTripper sets the key on the caller's request once,
  // before its loop, and rewinds the body with req.GetBody() for each clone.
  {
    does: 'is a Go net/http RoundTripper that sets Idempotency-Key on the request before its loop and clones it per attempt with GetBody, retrying a create through two 500s',
    pass: ['retry.same-key-and-content', 'retry.growing-waits'],
    async run(t) {
      const a = auth(t);
      fault(t, { kind: 'internal', route: 'createConnection', count: 2 });
      const body = { ...CONNECTION, scopeLabel: 'Gopher Gumbo' };
      const wait = roundTripperWait(seeded(3404));
      ok('create', await loop(sleeper(t), () => createWith(t, a, body, 'rt-0d9f41'), wait, 3));
    },
  },
  // "growing intervals and slight random spread": mollitia's JITTER mode doubles and moves by ±10 %.
  {
    does: 'is a mollitia Retry in RetryMode.JITTER (interval 500, factor 2, jitterAdjustment 0.1, attempts 3), three reads through three 500s',
    pass: ['retry.growing-waits', 'retry.attempt-limit'],
    run: (t) => readsOn(t, auth(t), sleeper(t), { schedule: mollitiaJitter(seeded(3405)), failures: 3, max: 3 }),
  },
  // "respect the wait time of the response": the header read through Duration.ofSeconds before sleeping.
  {
    does: 'is a Java 21 client passing firstValueAsLong("retry-after") through Duration.ofSeconds to Thread.sleep after a 429 (Retry-After 2 s)',
    pass: ['retry.respects-retry-after'],
    async run(t) {
      const a = auth(t);
      fault(t, { kind: 'rate_limited', route: 'listProviders', retryAfterSeconds: 2, count: 1 });
      ok('read', await retrying(sleeper(t), () => get(t, a, '/providers'), retryAfterAsSeconds));
    },
  },
  // "Sample calls send a header Service-Version": both versions are published; the generated client of
  // the connections module was pinned to 2026-06-12, the catalogue's to the current one.
  {
    does: 'sends Service-Version 2026-06-12 on its creates (a generated module pinned to it) and the current version on its reads',
    pass: ['version.service-version-sent'],
    async run(t) {
      const a = auth(t);
      ok('read', await get(t, a, '/connectors'));
      const body = { ...CONNECTION, scopeLabel: 'Pinned Pierogi' };
      ok('create', await api(t, a, 'POST', '/connections', { body, key: 'pinned-34-a', version: EARLIER_VERSION }));
      await sleeper(t)(2_000);
      ok('read', await get(t, a, '/connections'));
    },
  },
  ...WELL_BEHAVED_34_MORE,
  ...PROBES_WELL_34,
  ...PROBES_MORE_WELL_34,
];
