import { auth, CONNECTION, fault, READS, type UnnamedClient2 } from './unnamed-kit.ts';
import { seeded } from './unnamed4-kit.ts';
import { sleeper } from './unnamed6-kit.ts';
import { get, ok } from './unnamed8-kit.ts';
import { createWith, loop, replayed } from './unnamed11-kit.ts';
import {
  check,
  cronRuns,
  inFlightConsumer,
  readEvery,
  reqDelay,
  skewedCache,
  suspendedStream,
  suspendedToken,
  wheel,
  wheelGuidanceReads,
} from './unnamed44-kit.ts';

/**
 * Round 44, well-behaved clients whose clocks and timers are unusual: sleeps rounded up to a timer wheel's
 * tick, Spring Security's default 60 s clockSkew, Req's defaults, a token cache whose monotonic clock stood
 * still through a suspend, a consumer draining its in-flight tasks before it checkpoints, a cron job carrying
 * a failed row into its next run under its key. Each must get no `fail`; the interface sentence that makes it
 * legal is quoted.
 */
export const WELL_BEHAVED_44: UnnamedClient2[] = [
  // "respect the wait time of the response": a wheel fires on the first tick at or after the deadline.
  {
    does: 'is a Netty client scheduling a 429’s retry on a HashedWheelTimer (100 ms ticks) at Retry-After plus a draw of up to 250 ms, three reads each through one 429 (Retry-After 2 s)',
    pass: ['retry.respects-retry-after'],
    async run(t) {
      const a = auth(t);
      const sleep = sleeper(t);
      const random = seeded(4401);
      for (const [route, path] of READS.slice(0, 3)) {
        fault(t, { kind: 'rate_limited', route, retryAfterSeconds: 2, count: 1 });
        const wait = (_n: number, r: { retryAfterMs: number }) => wheel(100)(r.retryAfterMs + random() * 250);
        ok(path, await loop(sleep, () => get(t, a, path), wait, 3));
        await sleep(5_000);
      }
    },
  },
  // "Clients retry with growing intervals and slight random spread": the tick coarsens the draw, not removes it.
  {
    does: 'is a Netty client whose guidance backoff (500 ms * 2^n plus up to 250 ms) fires on a 100 ms HashedWheelTimer tick, three reads each through two 500s',
    pass: ['retry.growing-waits', 'retry.attempt-limit'],
    run: wheelGuidanceReads(100, 4402),
  },
  // "Tokens are short-lived and are renewed": 60 s before expiry of a 5-minute token is near expiry.
  {
    does: 'is a Spring Security OAuth2AuthorizedClientManager with the default clockSkew of 60 s on 5-minute tokens, reading every 30 s for 16 minutes',
    pass: ['auth.token-reused'],
    run: (t) => readEvery(t, skewedCache(t, 300, 60), 30, 960),
  },
  // A token cache's usual window (README: "a token held a third of its life or more and replaced with at most 5 minutes left").
  {
    does: 'is an MSAL-style token cache refreshing 5 minutes before expiry on 9-minute tokens (held 4 minutes), reading every 20 s for 30 minutes',
    pass: ['auth.token-reused'],
    run: (t) => readEvery(t, skewedCache(t, 540, 300), 20, 1_800),
  },
  // "retry with growing intervals" and "respect the wait time": Req's defaults (1, 2, 4 s; Retry-After wins).
  {
    does: 'is an Elixir Req client on its defaults (retry: :safe_transient, max_retries 3, 1, 2, 4 s, Retry-After honoured), one read through three 500s and one through a 429 (Retry-After 3 s)',
    pass: ['retry.growing-waits', 'retry.attempt-limit', 'retry.respects-retry-after'],
    async run(t) {
      const a = auth(t);
      const sleep = sleeper(t);
      fault(t, { kind: 'internal', route: 'listProviders', count: 3 });
      ok('providers', await loop(sleep, () => get(t, a, '/providers'), reqDelay, 3));
      await sleep(10_000);
      fault(t, { kind: 'rate_limited', route: 'listConnectors', retryAfterSeconds: 3, count: 1 });
      ok('connectors', await loop(sleep, () => get(t, a, '/connectors'), reqDelay, 3));
    },
  },
  // "resumes without gaps ... (last number read)": the in-flight task finishes before the checkpoint is taken.
  {
    does: 'is a Tokio consumer that, when the stream is cut with its fourth message still in a task, awaits its JoinSet and resumes from the fourth',
    pass: ['stream.resume-from-last-read'],
    run: (t) => inFlightConsumer(t, { drain: true }),
  },
  // "the same key with the same content returns the same response again": the key survives in a store.
  {
    does: 'is a Windows service keeping each create’s key in the registry before sending, retrying a committed 500 1.2 s later under it',
    pass: ['retry.same-key-and-content'],
    async run(t) {
      const a = auth(t);
      const body = { ...CONNECTION, scopeLabel: 'Registry Rotisserie' };
      const key = 'HKLM.Onboarding:4406-0001';
      fault(t, { kind: 'commit_then_fail', route: 'createConnection', failWith: 'internal' });
      const first = await createWith(t, a, body, key);
      if (first.status !== 500) throw new Error(`answered ${first.status}`);
      await sleeper(t)(1_200);
      replayed('retry', await createWith(t, a, body, key));
    },
  },
  // "unauthorized ... token expired ... request a new access token".
  {
    does: 'times its 5-minute token on a monotonic clock that stood still through a 2 h suspend, is refused 401 and renews at once',
    pass: ['auth.renewed-after-expiry'],
    run: (t) => suspendedToken(t, { renewAt401: true }),
  },
  {
    does: 'is a stream consumer whose host was suspended for 3 minutes after a cut, reconnecting on resume with the number it read last',
    pass: ['stream.resume-from-last-read'],
    run: (t) => suspendedStream(t, { keepCursor: true }),
  },
  // A capability check is a POST that changes nothing: no key, and its 429 is waited out.
  {
    does: 'checks three capabilities by POST without a key, waiting out a 429 (Retry-After 1 s) on the second plus 300 ms',
    pass: ['retry.respects-retry-after', 'version.service-version-sent'],
    async run(t) {
      const a = auth(t);
      const sleep = sleeper(t);
      for (const [i, capability] of ['orders.read', 'payments.refund', 'menu.write'].entries()) {
        if (i === 1) fault(t, { kind: 'rate_limited', route: 'checkCapability', retryAfterSeconds: 1, count: 1 });
        const wait = (_n: number, r: { retryAfterMs: number }) => r.retryAfterMs + 300;
        const r = await loop(sleep, () => check(t, a, capability), wait, 3);
        if (r.status !== 200 && r.status !== 409) throw new Error(`${capability} answered ${r.status}`);
        await sleep(2_000);
      }
    },
  },
  // "the same key with the same content": the next run of the schedule sends the failed row under its key.
  {
    does: 'is a cron job every minute that keeps a failed create’s key in its job table and sends the row again under it in the next run',
    pass: ['retry.same-key-and-content'],
    run: (t) => cronRuns(t, { keepKey: true }),
  },
  // "invalid_request ... check the request against the published description": the key was outside the Limits'
  // pattern, so the same content under a key in it is the remedy, not the 400 repeated (decided in session 34;
  // the outsider pinned it as ambiguous, the rules then linked it as a repeat).
  {
    does: 'sends a create under a 7-character key (refused 400 by the key pattern), pads the key to 12 characters and sends the same body again 1 s later',
    pass: [],
    async run(t) {
      const a = auth(t);
      const body = { ...CONNECTION, scopeLabel: 'Short Key Shack' };
      const first = await createWith(t, a, body, 'k-44-01');
      if (first.status !== 400) throw new Error(`short key answered ${first.status}`);
      await sleeper(t)(1_000);
      ok('padded key', await createWith(t, a, body, 'k-44-01-pad0'));
    },
  },
];
