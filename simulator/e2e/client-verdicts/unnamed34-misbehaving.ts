import { randomUUID } from 'node:crypto';
import type { SandboxOptions } from '../../app/sandbox-options.ts';
import { api, auth, CONNECTION, fault } from './unnamed-kit.ts';
import type { FaultyClient } from './unnamed-misbehaving.ts';
import { seeded } from './unnamed4-kit.ts';
import { sleeper } from './unnamed6-kit.ts';
import { get, ok } from './unnamed8-kit.ts';
import { createWith, loop } from './unnamed11-kit.ts';
import { readsOn } from './unnamed25-kit.ts';
import {
  HTTP_RB_DEFAULT_TRIES,
  httpRbDelay,
  invalidCreate,
  mollitiaConstant,
  restyJitter,
  retryAfterAsMillis,
  roundTripperWait,
} from './unnamed34-kit.ts';
import { MISBEHAVING_34_MORE } from './unnamed34-misbehaving-more.ts';
import { PROBES_MISBEHAVING_34 } from './unnamed34-probes.ts';
import { PROBES_MORE_MISBEHAVING_34 } from './unnamed34-probes-more.ts';

/**
 * Round 34, misbehaving clients whose violation looks correct: http.rb's default five tries, Retry-After
 * handed to `Thread.sleep(long)`, a RoundTripper that sets the key on each clone, mollitia's constant
 * mode, go-resty's `IsError()` as a retry condition, a POST helper without Service-Version. Each must fail
 * exactly its rule(s).
 */
export const MISBEHAVING_34: (FaultyClient & { options?: SandboxOptions })[] = [
  // "up to 4 attempts": http.rb's .retriable(retry_statuses: 500..599) keeps its default tries: 5.
  {
    does: 'is a Ruby http.rb client with .retriable(retry_statuses: 500..599) on its default tries (5), three reads through four 500s: five attempts each',
    fails: ['retry.attempt-limit'],
    run: (t) =>
      readsOn(t, auth(t), sleeper(t), {
        schedule: httpRbDelay(seeded(3451)),
        failures: HTTP_RB_DEFAULT_TRIES - 1,
        max: HTTP_RB_DEFAULT_TRIES - 1,
      }),
  },
  // "respect the wait time of the response": Thread.sleep(long) takes milliseconds; Retry-After is seconds.
  {
    does: 'is a Java 21 client passing firstValueAsLong("retry-after") straight to Thread.sleep(long) after a 429 (Retry-After 2): it sleeps 2 ms',
    fails: ['retry.respects-retry-after'],
    async run(t) {
      const a = auth(t);
      fault(t, { kind: 'rate_limited', route: 'listProviders', retryAfterSeconds: 2, count: 1 });
      ok('read', await loop(sleeper(t), () => get(t, a, '/providers'), retryAfterAsMillis, 3));
    },
  },
  // "the same key with the same content": the RoundTripper clones the caller's request (which has no key)
  // per attempt and sets `Idempotency-Key: uuid.NewString()` on the clone when it has none.
  {
    does: 'is a Go net/http RoundTripper that clones the caller’s keyless request per attempt and sets Idempotency-Key: uuid.NewString() on each clone, retrying a create through two 500s',
    fails: ['retry.same-key-and-content'],
    async run(t) {
      const a = auth(t);
      fault(t, { kind: 'internal', route: 'createConnection', count: 2 });
      const body = { ...CONNECTION, scopeLabel: 'Cloned Couscous' };
      const wait = roundTripperWait(seeded(3453));
      ok('create', await loop(sleeper(t), () => createWith(t, a, body, `rt-${randomUUID()}`), wait, 3));
    },
  },
  // "growing intervals": mollitia's RetryMode.CONSTANT (interval 1000) waits the same second each time.
  {
    does: 'is a mollitia Retry in RetryMode.CONSTANT (interval 1000, attempts 3), three reads through three 500s: 1 s, 1 s, 1 s, no draw',
    // No draw either: nine same-position comparisons, all equal, show no spread.
    fails: ['retry.growing-waits', 'retry.spread'],
    run: (t) => readsOn(t, auth(t), sleeper(t), { schedule: mollitiaConstant, failures: 3, max: 3 }),
  },
  // "retry only after rate_limited and internal": resty's Response.IsError() is true for any status > 399,
  // so AddRetryCondition(func(r) { return r.IsError() }) repeats a create refused 400, unchanged.
  {
    does: 'is a go-resty client with AddRetryCondition(r.IsError()) (true for any status above 399), repeating a create refused 400 twice under its key on the jitter backoff',
    fails: ['retry.only-after-failure'],
    async run(t) {
      const a = auth(t);
      const wait = restyJitter(seeded(3455));
      await loop(
        sleeper(t),
        () => invalidCreate(t, a, 'resty-invalid-1'),
        wait,
        2,
        (r) => r.status > 399,
      );
    },
  },
  // "Sample calls send a header Service-Version": the Java 21 helper get() adds it; post() was written
  // later and forgets it (HttpClient has no default headers).
  {
    does: 'is a Java 21 client whose get() helper adds Service-Version but whose post() helper (HttpClient has no default headers) sends none',
    fails: ['version.service-version-sent'],
    async run(t) {
      const a = auth(t);
      ok('read', await get(t, a, '/connectors'));
      const body = { ...CONNECTION, scopeLabel: 'Versionless Vareniki' };
      await api(t, a, 'POST', '/connections', { body, key: 'java21-post-1', version: null });
    },
  },
  ...MISBEHAVING_34_MORE,
  ...PROBES_MISBEHAVING_34,
  ...PROBES_MORE_MISBEHAVING_34,
];
