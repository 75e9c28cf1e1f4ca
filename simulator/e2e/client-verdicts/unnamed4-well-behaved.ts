import { sleepOn } from '../harness.ts';
import { api, auth, CONNECTION, fault, type UnnamedClient2 } from './unnamed-kit.ts';
import {
  awsStandard,
  googleApiCore,
  goRetryableHttp,
  got,
  pollyDecorrelatedJitterV2,
  resilience4j,
  seeded,
  tenacity,
  underPolicy,
  urllib3,
  uuid,
} from './unnamed4-kit.ts';
import { MORE_WELL_BEHAVED_4 } from './unnamed4-well-behaved-more.ts';

/**
 * Round 4, well-behaved: the retry layers of widely used client libraries, each with its documented
 * defaults (or the one setting a careful user changes, named), reproduced in unnamed4-kit.ts. Each must
 * get no `fail`; the interface sentence that makes its default legal is quoted above it.
 */
export const WELL_BEHAVED_4: UnnamedClient2[] = [
  // "Retry guidance: retry only after rate_limited and internal." and "respect the wait time of the
  // response": urllib3 retries GETs on its status_forcelist, sleeps exactly Retry-After when sent, and
  // by default never retries a POST (allowed_methods), which the application then reports.
  {
    does: 'uses Python urllib3 Retry(total=3, backoff_factor=0.25, backoff_jitter=0.3, status_forcelist=[429, 500, 502, 503, 504]): GETs retried, Retry-After slept, a POST not retried',
    pass: ['retry.only-after-failure', 'retry.respects-retry-after', 'retry.growing-waits', 'retry.attempt-limit'],
    async run(t) {
      const a = auth(t);
      const random = seeded(11);
      const get = (path: string) =>
        underPolicy(
          t,
          () => api(t, a, 'GET', path),
          urllib3({ method: 'GET', backoffFactor: 0.25, backoffJitter: 0.3, random }),
          3,
        );
      for (const [route, path] of [
        ['listProviders', '/providers'],
        ['listConnectors', '/connectors'],
        ['listCapabilities', '/capabilities'],
      ] as const) {
        fault(t, { kind: 'internal', route, count: 3 });
        const r = await get(path);
        if (r.status !== 200) throw new Error(`${path} answered ${r.status}`);
      }
      fault(t, { kind: 'rate_limited', route: 'listConnections', retryAfterSeconds: 1, count: 2 });
      await get('/connections');
      fault(t, { kind: 'internal', route: 'createConnection', count: 1 });
      const post = urllib3({ method: 'POST', backoffFactor: 0.25, backoffJitter: 0.3, random });
      const r = await underPolicy(
        t,
        () => api(t, a, 'POST', '/connections', { body: CONNECTION, key: 'urllib3-create-0001' }),
        post,
        3,
      );
      if (r.status !== 500) throw new Error(`the POST was retried (${r.status})`);
    },
  },
  // "Clients retry with growing intervals and slight random spread.": tenacity's wait_exponential plus
  // wait_random is the guidance's own schedule; the key is made before the decorated call, so every
  // attempt carries it ("the same key with the same content returns the same response again").
  {
    does: 'uses tenacity (stop_after_attempt(4), wait_exponential(multiplier=0.5) + wait_random(0, 0.25), retry only on 429/5xx) around creates whose key is made outside the retried function',
    pass: ['retry.same-key-and-content', 'retry.growing-waits', 'retry.spread', 'retry.attempt-limit'],
    async run(t) {
      const a = auth(t);
      const random = seeded(23);
      const wait = tenacity({ multiplier: 0.5, max: 10, jitter: 0.25, random });
      for (let i = 0; i < 4; i++) {
        fault(t, { kind: 'internal', route: 'createConnection', count: 2 });
        const key = `tenacity-${uuid(random)}`;
        const body = { ...CONNECTION, scopeLabel: `Tenacity venue ${i}` };
        const retryIf = (s: number) => s === 429 || s >= 500;
        const r = await underPolicy(
          t,
          () => api(t, a, 'POST', '/connections', { body, key }),
          (n, x) => (retryIf(x.status) ? wait(n) : undefined),
          3,
        );
        if (r.status !== 200) throw new Error(`create ${i} answered ${r.status}`);
      }
    },
  },
  // "Modifying calls are repeat-safe through idempotency keys": go-retryablehttp retries a POST after a
  // connection error by rewinding the body and sending the same request, Idempotency-Key included; it
  // sleeps exactly Retry-After on a 429 or 503 ("respect the wait time of the response").
  {
    does: 'uses Go hashicorp/go-retryablehttp with RetryMax 3: a create dropped after commit retried with its key after 1 s, a 429 and two gateway 503s waited out',
    pass: ['retry.same-key-and-content', 'retry.respects-retry-after', 'retry.only-after-failure'],
    async run(t) {
      const a = auth(t);
      fault(t, { kind: 'commit_then_fail', route: 'createConnection', failWith: 'drop', count: 1 });
      const body = { body: CONNECTION, key: 'go-retryable-create-01' };
      const created = await underPolicy(t, () => api(t, a, 'POST', '/connections', body), goRetryableHttp, 3);
      if (created.json?.meta?.replayed !== true) throw new Error(`the retry was not replayed (${created.status})`);
      fault(t, { kind: 'rate_limited', route: 'listConnectors', retryAfterSeconds: 2, count: 1 });
      await underPolicy(t, () => api(t, a, 'GET', '/connectors'), goRetryableHttp, 3);
      fault(t, { kind: 'unavailable', route: 'listProviders', retryAfterSeconds: 1, count: 2 });
      const r = await underPolicy(t, () => api(t, a, 'GET', '/providers'), goRetryableHttp, 3);
      if (r.status !== 200) throw new Error(`providers answered ${r.status}`);
    },
  },
  // "A sample client makes up to 4 attempts": resilience4j's RetryConfig default is 3 attempts; its
  // exponential random backoff may draw a shorter wait after a longer one, which is spread, not a fault.
  {
    does: 'uses Java resilience4j Retry (maxAttempts 3, ofExponentialRandomBackoff(500 ms, 1.5, 0.5), retryOnResult 429/5xx) on five reads',
    pass: ['retry.attempt-limit', 'retry.only-after-failure', 'retry.spread'],
    async run(t) {
      const a = auth(t);
      const policy = resilience4j({ initialMs: 500, multiplier: 1.5, factor: 0.5, random: seeded(37) });
      for (const [i, path] of [
        '/providers',
        '/connectors',
        '/capabilities',
        '/connections',
        '/providers?category=pos',
      ].entries()) {
        const route =
          ['listProviders', 'listConnectors', 'listCapabilities', 'listConnections', 'listProviders'][i] ?? '';
        fault(t, { kind: 'internal', route, count: 2 });
        const r = await underPolicy(
          t,
          () => api(t, a, 'GET', path),
          (n, x) => (x.status >= 500 || x.status === 429 ? policy(n) : undefined),
          2,
        );
        if (r.status !== 200) throw new Error(`${path} answered ${r.status}`);
      }
    },
  },
  // "respect the wait time of the response, retry with growing intervals": the .NET standard resilience
  // handler (Polly v8 HttpRetryStrategyOptions) uses exponential backoff with decorrelated jitter V2 on
  // a 2 s base, 3 retries, and the Retry-After of a response when it has one. It retries POST too; the
  // HttpRequestMessage it sends again carries the key the caller set.
  {
    does: 'uses .NET AddStandardResilienceHandler (Polly v8: 3 retries, exponential decorrelated jitter V2 on 2 s, Retry-After honoured) for reads and a create',
    pass: ['retry.same-key-and-content', 'retry.respects-retry-after', 'retry.attempt-limit'],
    async run(t) {
      const a = auth(t, undefined, 3600);
      const random = seeded(41);
      const standard = () => {
        const jitter = pollyDecorrelatedJitterV2(2000, random);
        return (n: number, x: { status: number; retryAfterMs: number }) =>
          x.status === 0 || x.status === 408 || x.status === 429 || x.status >= 500
            ? x.retryAfterMs > 0
              ? x.retryAfterMs
              : jitter(n)
            : undefined;
      };
      fault(t, { kind: 'internal', route: 'listConnectors', count: 3 });
      await underPolicy(t, () => api(t, a, 'GET', '/connectors'), standard(), 3);
      fault(t, { kind: 'rate_limited', route: 'listProviders', retryAfterSeconds: 3, count: 1 });
      await underPolicy(t, () => api(t, a, 'GET', '/providers'), standard(), 3);
      fault(t, { kind: 'internal', route: 'createConnection', count: 2 });
      const body = { body: CONNECTION, key: `polly-${uuid(random)}` };
      const r = await underPolicy(t, () => api(t, a, 'POST', '/connections', body), standard(), 3);
      if (r.status !== 200) throw new Error(`the create answered ${r.status}`);
    },
  },
  // "Clients retry with growing intervals and slight random spread." and "Lasting high load is to be
  // agreed beforehand instead of being split up.": the AWS SDK's full jitter grows its cap, and its retry
  // quota stops retrying once a sustained failure has used it up (a small quota, as getDefaultRetryQuota
  // allows, so a few jobs empty it). Every attempt carries amz-sdk-request: attempt=N; max=3.
  {
    does: 'uses the AWS SDK v3 standard retry mode (3 attempts, full jitter, retry quota) while a read fails for 20 s: the quota empties and later jobs are not retried',
    pass: ['retry.attempt-limit', 'retry.only-after-failure'],
    async run(t) {
      const a = auth(t, undefined, 3600);
      const random = seeded(53);
      const sdk = awsStandard({ initialTokens: 20, random });
      fault(t, { kind: 'internal', route: 'listConnectors', durationSeconds: 20 });
      for (let job = 0; job < 12; job++) {
        const invocation = uuid(random);
        const path = `/connectors?providerId=provider-${job}`;
        const r = await underPolicy(
          t,
          (n) =>
            api(t, a, 'GET', path, {
              headers: { 'amz-sdk-invocation-id': invocation, 'amz-sdk-request': `attempt=${n + 1}; max=3` },
            }),
          sdk.policy,
          2,
        );
        if (r.status === 200) sdk.succeeded(false);
        await sleepOn(t, 2_000);
      }
      if (sdk.tokens() > 10) throw new Error(`the quota was never used up (${sdk.tokens()} left)`);
    },
  },
  // "Clients retry with growing intervals and slight random spread.": google-api-core's full jitter
  // under a doubling cap; a short outage is over before its 120 s deadline or a fifth attempt.
  {
    does: "uses google-api-core's default Retry (if_transient_error, full jitter up to 1 s, 2 s, 4 s...) through brief outages of three reads",
    pass: ['retry.only-after-failure', 'retry.attempt-limit'],
    async run(t) {
      const a = auth(t);
      const policy = googleApiCore(seeded(61));
      for (const [route, path] of [
        ['listProviders', '/providers'],
        ['listCapabilities', '/capabilities'],
        ['listConnections', '/connections'],
      ] as const) {
        fault(t, { kind: 'internal', route, count: 2 });
        const r = await underPolicy(t, () => api(t, a, 'GET', path), policy, 10);
        if (r.status !== 200) throw new Error(`${path} answered ${r.status}`);
      }
    },
  },
  // "respect the wait time of the response" and "retry only after rate_limited and internal": got's
  // defaults retry GETs twice (1 s, 2 s plus up to 100 ms of noise), sleep Retry-After exactly, and
  // never retry a POST.
  {
    does: "uses got's default retry (limit 2, no POST, Retry-After first, else 2^(n-1) s + noise) for reads and a create",
    pass: ['retry.respects-retry-after', 'retry.growing-waits', 'retry.only-after-failure'],
    async run(t) {
      const a = auth(t);
      const random = seeded(71);
      fault(t, { kind: 'internal', route: 'listCapabilities', count: 2 });
      await underPolicy(t, () => api(t, a, 'GET', '/capabilities'), got({ method: 'GET', random }), 2);
      fault(t, { kind: 'rate_limited', route: 'listProviders', retryAfterSeconds: 1, count: 1 });
      await underPolicy(t, () => api(t, a, 'GET', '/providers'), got({ method: 'GET', random }), 2);
      fault(t, { kind: 'internal', route: 'createConnection', count: 1 });
      const post = got({ method: 'POST', random });
      const r = await underPolicy(
        t,
        () => api(t, a, 'POST', '/connections', { body: CONNECTION, key: 'got-create-000001' }),
        post,
        2,
      );
      if (r.status !== 500) throw new Error(`got retried a POST (${r.status})`);
    },
  },

  ...MORE_WELL_BEHAVED_4,
];
