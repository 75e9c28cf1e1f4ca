import { auth, fault, publish, readStream, type UnnamedClient2 } from './unnamed-kit.ts';
import { seeded } from './unnamed4-kit.ts';
import { sleeper } from './unnamed6-kit.ts';
import { get, ok } from './unnamed8-kit.ts';
import { loop } from './unnamed11-kit.ts';
import { readsThrough } from './unnamed13-kit.ts';
import { helidonDelaying, kiotaRetry, smallRyeExponential } from './unnamed20-kit.ts';

/**
 * Round 20, more well-behaved clients (Octokit's throttling plugin in a GitHub Actions step, Helidon,
 * SmallRye, Kiota, go-sse, LaunchDarkly's eventsource client, .NET 9 SseParser, Spring Security's token
 * manager, a Lambda extension's token cache, x/time/rate pacing).
 */
export const WELL_BEHAVED_MORE_20: UnnamedClient2[] = [
  // "respect the wait time of the response": a GitHub Actions step (actions/github-script) whose Octokit
  // has @octokit/plugin-throttling; onRateLimit returns true for the first hit, so it waits retryAfter.
  {
    does: 'is a GitHub Actions step (actions/github-script, @octokit/plugin-throttling onRateLimit -> retry once) waiting a 429’s Retry-After of 5 s',
    pass: ['retry.respects-retry-after'],
    async run(t) {
      const a = auth(t);
      fault(t, { kind: 'rate_limited', route: 'listProviders', retryAfterSeconds: 5, count: 1 });
      ok(
        'read',
        await loop(
          sleeper(t),
          () => get(t, a, '/providers'),
          (_n, r) => r.retryAfterMs,
          1,
        ),
      );
    },
  },
  // "Clients retry with growing intervals": Helidon's Retry.DelayingRetryPolicy (calls 3, delay 200 ms,
  // delayFactor 2), one read through two 500s (a single sequence: its missing spread cannot be seen).
  {
    does: 'is a Helidon SE client with Retry.DelayingRetryPolicy (calls 3, delay 200 ms, delayFactor 2) reading providers through two 500s',
    pass: ['retry.attempt-limit', 'retry.growing-waits'],
    async run(t) {
      const a = auth(t);
      fault(t, { kind: 'internal', route: 'listProviders', count: 2 });
      ok('read', await loop(sleeper(t), () => get(t, a, '/providers?category=payments'), helidonDelaying, 2));
    },
  },
  // "doubles the wait ... plus a random amount": a Quarkus REST client with SmallRye @Retry(delay 500,
  // jitter 200) @ExponentialBackoff(factor 2), three reads each through two 500s.
  {
    does: 'is a Quarkus REST client with SmallRye @Retry(maxRetries 3, delay 500, jitter 200) @ExponentialBackoff, three reads each through two 500s',
    pass: ['retry.attempt-limit', 'retry.growing-waits'],
    async run(t) {
      await readsThrough(t, auth(t), sleeper(t), {
        schedule: smallRyeExponential(seeded(2012)),
        failures: 2,
        max: 3,
        from: 2,
      });
    },
  },
  // "respect the wait time of the response, retry with growing intervals": a Kiota-generated client's
  // RetryHandler (Retry-After when sent, else 3 s * 2^n), through a 429 (Retry-After 2) then a 503.
  {
    does: 'is a Kiota-generated client (RetryHandlerOption Delay 3, MaxRetry 3) through a 429 (Retry-After 2), then a gateway 503 without Retry-After',
    pass: ['retry.respects-retry-after'],
    async run(t) {
      const a = auth(t);
      fault(t, { kind: 'rate_limited', route: 'listConnectors', retryAfterSeconds: 2, count: 1 });
      fault(t, { kind: 'unavailable', route: 'listConnectors', retryAfterSeconds: 0, count: 1 });
      ok('read', await loop(sleeper(t), () => get(t, a, '/connectors?category=payments'), kiotaRetry, 3));
    },
  },
  // "resumes without gaps by sending Last-Event-ID": tmaxmax/go-sse's Client keeps the last event id of the
  // connection and sends it when its ReconnectionStrategy reconnects (500 ms, then growing).
  {
    does: 'is a Go tmaxmax/go-sse Client cut after 3 messages, reconnecting after its backoff (500 ms) with Last-Event-ID of the third',
    pass: ['stream.resume-from-last-read'],
    async run(t) {
      const a = auth(t);
      fault(t, { kind: 'stream_cut', afterMessages: 3, count: 1 });
      const ids = await readStream(t, a, { idleMs: 600, onOpen: () => publish(t, a.tenant, 3) });
      const last = ids.at(-1);
      if (last === undefined) throw new Error('read nothing');
      await sleeper(t)(500);
      await readStream(t, a, { cursor: last, idleMs: 600, onOpen: () => publish(t, a.tenant, 2) });
    },
  },
  // "by sending Last-Event-ID or the query parameter cursor": LaunchDarkly's Rust eventsource-client backs
  // off (1 s, doubling, jittered) through a restart's 503s and resumes with Last-Event-ID.
  {
    does: 'is a LaunchDarkly Rust eventsource-client backing off through a restart’s 503s (1 s, 2 s, 4 s), then resuming with Last-Event-ID',
    pass: ['stream.resume-from-last-read'],
    async run(t) {
      const a = auth(t);
      fault(t, { kind: 'stream_restart', afterMessages: 2, downMs: 5_000, count: 1 });
      const ids = await readStream(t, a, { idleMs: 600, onOpen: () => publish(t, a.tenant, 2) });
      const last = ids.at(-1);
      if (last === undefined) throw new Error('read nothing');
      const random = seeded(2016);
      for (let n = 0; n < 5; n++) {
        await sleeper(t)(Math.round(1_000 * 2 ** n * (0.5 + random() * 0.5)));
        let refused = false;
        const more = await readStream(t, a, {
          cursor: last,
          idleMs: 600,
          onRefused: () => {
            refused = true;
          },
          onOpen: () => publish(t, a.tenant, 2),
        });
        if (!refused) {
          if (more.length === 0) throw new Error('resumed, read nothing');
          return;
        }
      }
      throw new Error('never resumed');
    },
  },
  // "resumes without gaps": a .NET 9 worker reading with System.Net.ServerSentEvents.SseParser, keeping
  // parser.LastEventId and setting it on the next HttpRequestMessage; cut twice.
  {
    does: 'is a .NET 9 worker on SseParser cut twice (after 2 messages each), each reconnect carrying parser.LastEventId',
    pass: ['stream.resume-from-last-read'],
    async run(t) {
      const a = auth(t);
      fault(t, { kind: 'stream_cut', afterMessages: 2, count: 2 });
      let last: number | undefined;
      for (const n of [2, 2, 1]) {
        const ids = await readStream(t, a, { cursor: last, idleMs: 600, onOpen: () => publish(t, a.tenant, n) });
        last = ids.at(-1) ?? last;
        await sleeper(t)(2_000);
      }
    },
  },
  // "Tokens are short-lived and are renewed, not extended": Spring Security's
  // AuthorizedClientServiceOAuth2AuthorizedClientManager with clockSkew 60 s renews a 300 s token once less
  // than 60 s is left; a read every 20 s for 11 minutes.
  {
    does: 'is a Spring Security OAuth2AuthorizedClientManager (clockSkew 60 s) renewing a 300 s token when under 60 s is left, a read every 20 s for 11 minutes',
    pass: [],
    async run(t) {
      let a = auth(t, undefined, 300);
      let issuedAt = 0;
      for (let s = 0; s < 660; s += 20) {
        if (s - issuedAt > 240) {
          a = auth(t, undefined, 300);
          issuedAt = s;
        }
        ok('read', await get(t, a, s % 40 ? '/providers' : '/connections'));
        await sleeper(t)(20_000);
      }
    },
  },
  // "Tokens are short-lived and are renewed": a Lambda function reading its token through the AWS Parameters
  // and Secrets Lambda Extension (cache TTL 600 s) for a 900 s token; invocations every 45 s for 21 minutes.
  {
    does: 'is a Lambda function taking a 900 s token from the Parameters and Secrets extension’s cache (TTL 600 s), an invocation every 45 s for 21 minutes',
    pass: [],
    async run(t) {
      let a = auth(t, undefined, 900);
      let cachedAt = 0;
      for (let s = 0; s < 1_260; s += 45) {
        if (s - cachedAt >= 600) {
          a = auth(t, undefined, 900);
          cachedAt = s;
        }
        ok('read', await get(t, a, '/capabilities'));
        await sleeper(t)(45_000);
      }
    },
  },
  // "Lasting high load is to be agreed beforehand": a Go worker pacing itself with golang.org/x/time/rate
  // (5 per second, burst 1), fifteen reads, never refused, Service-Version on each.
  {
    does: 'is a Go worker paced by golang.org/x/time/rate (5/s, burst 1), fifteen reads of different pages, never refused',
    pass: ['version.service-version-sent'],
    async run(t) {
      const a = auth(t);
      for (let i = 0; i < 15; i++) {
        ok('read', await get(t, a, `/audit-log?limit=${10 + i}`));
        await sleeper(t)(200);
      }
    },
  },
  // "respect the wait time of the response": Octokit's throttling plugin on a secondary rate limit waits the
  // whole Retry-After, here 180 s (beyond the 120 s a retry is looked for in, counted from its end).
  {
    does: 'is a GitHub Actions step whose @octokit/plugin-throttling onSecondaryRateLimit waits a 429’s Retry-After of 180 s, then retries once',
    pass: ['retry.respects-retry-after'],
    async run(t) {
      const a = auth(t, undefined, 3_600);
      fault(t, { kind: 'rate_limited', route: 'listConnections', retryAfterSeconds: 180, count: 1 });
      ok(
        'read',
        await loop(
          sleeper(t),
          () => get(t, a, '/connections'),
          (_n, r) => r.retryAfterMs,
          1,
        ),
      );
    },
  },
  // "Tokens are short-lived and are renewed, not extended": Azure.Identity's ManagedIdentityCredential renews
  // at refresh_in, half the token's lifetime (600 s here, so every 300 s); a read every 30 s for 20 minutes.
  {
    does: 'is an Azure.Identity ManagedIdentityCredential renewing a 600 s token at refresh_in (half its lifetime), a read every 30 s for 20 minutes',
    pass: [],
    async run(t) {
      let a = auth(t, undefined, 600);
      let issuedAt = 0;
      for (let s = 0; s < 1_200; s += 30) {
        if (s - issuedAt >= 300) {
          a = auth(t, undefined, 600);
          issuedAt = s;
        }
        ok('read', await get(t, a, s % 60 ? '/connectors' : '/providers'));
        await sleeper(t)(30_000);
      }
    },
  },
];
