import { api, auth, CONNECTION, fault, type UnnamedClient2 } from './unnamed-kit.ts';
import { seeded } from './unnamed4-kit.ts';
import { sleeper } from './unnamed6-kit.ts';
import { get, ok } from './unnamed8-kit.ts';
import { createWith, loop } from './unnamed11-kit.ts';
import { readsOn } from './unnamed25-kit.ts';
import { angularDelay, CAPABILITY_CHECK, cronRun, delphiRandom, delphiSleep, fluentdWait } from './unnamed36-kit.ts';
import { WELL_BEHAVED_36_MORE } from './unnamed36-well-behaved-more.ts';

/**
 * Round 36, well-behaved clients of stacks no earlier round used (Angular HttpClient on the server, Fluentd
 * out_http told retry_max_times, Apache HttpClient 4, Hystrix, Babashka, Delphi with Randomize). Each must
 * get no `fail`; the interface sentence that makes it legal is quoted above it.
 */
export const WELL_BEHAVED_36: UnnamedClient2[] = [
  // "up to 4 attempts ... growing intervals and slight random spread": Angular SSR's HttpClient piped
  // through retry({ count: 3, delay }) with the guidance written as the delay function.
  {
    does: 'is an Angular SSR HttpClient piped through retry({ count: 3, delay: (e, n) => timer(500 * 2 ** (n - 1) + Math.random() * 250) }), three reads through three 500s',
    pass: ['retry.growing-waits', 'retry.attempt-limit'],
    run: (t) => readsOn(t, auth(t), sleeper(t), { schedule: angularDelay(seeded(3601)), failures: 3, max: 3 }),
  },
  // "Retry guidance: retry only after rate_limited and internal": Fluentd's out_http posts a capability
  // check (no key: it changes nothing) and its buffer retries it 1 s, 2 s, 4 s ±12.5 %, retry_max_times 3.
  {
    does: 'is a Fluentd out_http output with retry_max_times 3 (retry_wait 1s, base 2, retry_randomize) posting a capability check through three 500s',
    pass: ['retry.growing-waits', 'retry.attempt-limit'],
    async run(t) {
      const a = auth(t);
      fault(t, { kind: 'internal', route: 'checkCapability', count: 3 });
      const send = () => api(t, a, 'POST', '/capabilities', { body: CAPABILITY_CHECK });
      ok('check', await loop(sleeper(t), send, fluentdWait(seeded(3602)), 3));
    },
  },
  // "the same key with the same content": HttpClient 4's DefaultServiceUnavailableRetryStrategy(1, 1000)
  // re-executes the same HttpPost (its entity repeatable, its headers kept) once, 1 s after a 503.
  {
    does: 'is an Apache HttpClient 4 with DefaultServiceUnavailableRetryStrategy(1, 1000) re-executing the same HttpPost (key header and repeatable entity) once, 1 s after a 503 (Retry-After 0)',
    pass: ['retry.same-key-and-content'],
    async run(t) {
      const a = auth(t);
      fault(t, { kind: 'unavailable', route: 'createConnection', retryAfterSeconds: 0, count: 1 });
      const body = { ...CONNECTION, scopeLabel: 'Apache Apricots' };
      ok(
        'create',
        await loop(
          sleeper(t),
          () => createWith(t, a, body, 'hc4-op-1'),
          () => 1_000,
          1,
        ),
      );
    },
  },
  // "Modifying calls are repeat-safe through idempotency keys": the Hystrix command gives up at its default
  // 1 s timeout; the command is run again 2.1 s later and carries the key its caller made for the operation.
  {
    does: 'is a Hystrix command giving up at its default 1 s timeout on a create the service committed but held, run again 2.1 s later with the key made by its caller (the same)',
    pass: ['retry.same-key-and-content'],
    async run(t) {
      const a = auth(t);
      fault(t, { kind: 'commit_then_fail', route: 'createConnection', failWith: 'timeout', holdMs: 10_000 });
      const body = { ...CONNECTION, scopeLabel: 'Hystrix Hotpot' };
      const first = await api(t, a, 'POST', '/connections', { body, key: 'hystrix-op-9', timeoutMs: 1_000 });
      if (first.status !== 0) throw new Error(`answered ${first.status}`);
      await sleeper(t)(2_100);
      ok('again', await createWith(t, a, body, 'hystrix-op-9'));
    },
  },
  // "respect the wait time of the response": a Babashka script (babashka.http-client has no retry) with
  // a loop sleeping (max retry-after guidance): the 429's 2 s, then its own 1 s + rand-int 250.
  {
    does: 'is a Babashka script looping over babashka.http-client with (Thread/sleep (max retry-after (+ (bit-shift-left 500 n) (rand-int 250)))) through two 429s (Retry-After 2)',
    pass: ['retry.respects-retry-after'],
    async run(t) {
      const a = auth(t);
      fault(t, { kind: 'rate_limited', route: 'listConnectors', retryAfterSeconds: 2, count: 2 });
      const random = seeded(3605);
      const wait = (n: number, r: { retryAfterMs: number }) =>
        Math.max(r.retryAfterMs, (500 << n) + Math.floor(random() * 250));
      ok('read', await loop(sleeper(t), () => get(t, a, '/connectors'), wait, 3));
    },
  },
  // "growing intervals and slight random spread": a Delphi service that calls Randomize at start, run by
  // a scheduler every 5 minutes (a new process, a new token each run), each run's read through two 500s.
  {
    does: 'is a Delphi THTTPClient job that calls Randomize at start, run every 5 minutes as a new process with a new token, each run sleeping 500 shl n + Random(250) through two 500s',
    pass: ['retry.growing-waits'],
    async run(t) {
      for (let run = 0; run < 6; run++) {
        const schedule = delphiSleep(delphiRandom(0x5eed + run * 7_919));
        await cronRun(t, auth(t), sleeper(t), { schedule, failures: 2, path: '/connectors', route: 'listConnectors' });
        await sleeper(t)(300_000);
      }
    },
  },
  ...WELL_BEHAVED_36_MORE,
];
