import type { SandboxOptions } from '../../app/sandbox-options.ts';
import { auth, CONNECTION, fault, READS } from './unnamed-kit.ts';
import type { FaultyClient } from './unnamed-misbehaving.ts';
import { sleeper } from './unnamed6-kit.ts';
import { get, ok } from './unnamed8-kit.ts';
import { createWith, loop } from './unnamed11-kit.ts';
import {
  cronRuns,
  inFlightConsumer,
  readEvery,
  reqDelay,
  skewedCache,
  suspendedStream,
  suspendedToken,
  wheelGuidanceReads,
} from './unnamed44-kit.ts';

/**
 * Round 44, misbehaving clients whose violation looks careful: Retry-After shortened by a measured round
 * trip, a timer wheel whose 1 s tick rounds the draw away, Spring Security's clockSkew set to 10 minutes,
 * Req with max_retries 5, a consumer checkpointing the watermark of finished tasks, a monotonic token cache
 * trusting itself after a 401, a key stamped with the send time, a too-long key retried as if transient, a
 * cron job keying a failed row by the run that sends it, a consumer rebuilt on resume without its cursor.
 */
export const MISBEHAVING_44: (FaultyClient & { options?: SandboxOptions })[] = [
  // "respect the wait time of the response": the wait is counted from the answer, not shortened by the RTT.
  {
    does: 'subtracts the round trip it measured (250 ms) from Retry-After “because the server counted from sending”, three reads each through a 429 (Retry-After 2 s)',
    fails: ['retry.respects-retry-after'],
    async run(t) {
      const a = auth(t);
      const sleep = sleeper(t);
      for (const [route, path] of READS.slice(0, 3)) {
        fault(t, { kind: 'rate_limited', route, retryAfterSeconds: 2, count: 1 });
        const wait = (_n: number, r: { retryAfterMs: number }) => r.retryAfterMs - 250;
        ok(path, await loop(sleep, () => get(t, a, path), wait, 3));
        await sleep(5_000);
      }
    },
  },
  // "slight random spread": a 1 s tick rounds every draw of 1-250 ms up to the same whole second.
  {
    does: 'is a Netty client whose guidance backoff (500 ms * 2^n plus up to 250 ms) fires on a HashedWheelTimer configured with 1 s ticks (every wait 1 s, then 2 s), three reads each through two 500s',
    fails: ['retry.spread'],
    run: wheelGuidanceReads(1_000, 4412),
  },
  // "Tokens are short-lived and are renewed, not extended": 10 of 15 minutes left is no near expiry.
  {
    does: 'is a Spring Security OAuth2AuthorizedClientManager with clockSkew set to 10 minutes on 15-minute tokens (renewed with two thirds left), reading every 20 s for 25 minutes',
    fails: ['auth.token-reused'],
    run: (t) => readEvery(t, skewedCache(t, 900, 600), 20, 1_500),
  },
  // The same 5-minute window on 6-minute tokens replaces each after 1 minute, with five sixths of its life left.
  {
    does: 'is an MSAL-style token cache refreshing 5 minutes before expiry while its authorization server issues 6-minute tokens (each replaced after 1 minute), reading every 20 s for 12 minutes',
    fails: ['auth.token-reused'],
    run: (t) => readEvery(t, skewedCache(t, 360, 300), 20, 720),
  },
  // "A sample client makes up to 4 attempts": Req configured with max_retries 5 makes six.
  {
    does: 'is an Elixir Req client with max_retries: 5 (1, 2, 4, 8, 16 s), one read through five 500s: six attempts',
    fails: ['retry.attempt-limit'],
    async run(t) {
      const a = auth(t);
      fault(t, { kind: 'internal', route: 'listProviders', count: 5 });
      ok('providers', await loop(sleeper(t), () => get(t, a, '/providers'), reqDelay, 5));
    },
  },
  // "resumes without gaps ... (last number read)": the fourth was read, only its task had not finished.
  {
    does: 'is a Tokio consumer that, when the stream is cut with its fourth message still in a task, resumes from the watermark of finished tasks (the third)',
    fails: ['stream.resume-from-last-read'],
    run: (t) => inFlightConsumer(t, { drain: false }),
  },
  // "token expired ... request a new access token": the cache believes its monotonic clock, not the 401.
  {
    does: 'times its 5-minute token on a monotonic clock that stood still through a 2 h suspend and, refused 401, sends its next read 10 s later with the same token before renewing',
    fails: ['auth.renewed-after-expiry'],
    run: (t) => suspendedToken(t, { renewAt401: false }),
  },
  // "the same key with the same content": the key builder runs per send and stamps the time.
  {
    does: 'builds its Idempotency-Key as venue plus Date.now() inside its send function, so the create retried 1 s after a 500 carries another key',
    fails: ['retry.same-key-and-content'],
    async run(t) {
      const a = auth(t);
      const body = { ...CONNECTION, scopeLabel: 'Timestamp Tandoor' };
      fault(t, { kind: 'internal', route: 'createConnection', count: 1 });
      let sends = 0;
      const send = () => createWith(t, a, body, `tandoor:${Date.now()}-${++sends}`);
      ok('create', await loop(sleeper(t), send, () => 1_000, 3));
    },
  },
  // "retry only after rate_limited and internal": a key over 128 characters is refused 400 every time.
  {
    does: 'builds its Idempotency-Key from a trace id, a UUID and a timestamp (140 characters) and retries the 400 it gets twice with backoff, key and body unchanged',
    fails: ['retry.only-after-failure'],
    async run(t) {
      const a = auth(t);
      const body = { ...CONNECTION, scopeLabel: 'Long Key Larder' };
      const key = `trace-${'a1b2c3d4'.repeat(8)}:${'0f1e2d3c'.repeat(8)}:20261129`.slice(0, 140);
      const r = await loop(
        sleeper(t),
        () => createWith(t, a, body, key),
        (n) => 500 * 2 ** n + 130 * n,
        2,
        () => true,
      );
      if (r.status !== 400) throw new Error(`answered ${r.status}`);
    },
  },
  // The other side of the padded key (well-behaved): a key in the pattern was not what the 400 refused, so a new
  // key on the same content changes nothing the error named; the 400 is repeated.
  {
    does: 'is refused 400 for a one-character scopeLabel and sends the same body again 1 s later under a freshly minted key, “in case the key was the problem”',
    fails: ['retry.only-after-failure'],
    async run(t) {
      const a = auth(t);
      const body = { ...CONNECTION, scopeLabel: 'X' };
      const first = await createWith(t, a, body, 'fresh-key-44-a');
      if (first.status !== 400) throw new Error(`short label answered ${first.status}`);
      await sleeper(t)(1_000);
      const again = await createWith(t, a, body, 'fresh-key-44-b');
      if (again.status !== 400) throw new Error(`answered ${again.status}`);
    },
  },
  // "A modifying call ... that failed ... is retried with the same content under a new key": 60 s is within it.
  {
    does: 'is a cron job every minute sending a failed create again in its next run under a key made of the row and that run',
    fails: ['retry.same-key-and-content'],
    run: (t) => cronRuns(t, { keepKey: false }),
  },
  // "After an interruption, the client resumes without gaps": the rebuilt client forgot its last id.
  {
    does: 'is a stream consumer whose host was suspended for 3 minutes after a cut and whose power-resume handler builds a new SSE client, reconnecting without a cursor',
    fails: ['stream.resume-from-last-read'],
    run: (t) => suspendedStream(t, { keepCursor: false }),
  },
];
