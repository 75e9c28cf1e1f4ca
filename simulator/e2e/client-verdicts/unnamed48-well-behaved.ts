import { api, auth, fault, type UnnamedClient2 } from './unnamed-kit.ts';
import { resilience4j, seeded } from './unnamed4-kit.ts';
import { faradayRetry, sleeper } from './unnamed6-kit.ts';
import { get, ok } from './unnamed8-kit.ts';
import { createWith, loop, replayed, springExponentialRandom } from './unnamed11-kit.ts';
import { checkOn, refused, venue } from './unnamed45-kit.ts';
import {
  curlRetry,
  goRetryable,
  guzzleExponential,
  hookBody,
  issuedKey,
  reqwestRetryFull,
  standardResilience,
  urllib3Backoff,
  wgetWaitRetry,
} from './unnamed48-kit.ts';

/**
 * Round 48, well-behaved clients: general-purpose retry middleware of other stacks in front of this interface's
 * calls, each on its documented defaults or on the configuration teams commonly give it, keeping the duties
 * (retry only after 429, 5xx or no answer; the Retry-After slept; waits that grow; the key made once per operation
 * and sent again by every retry). Each must get no `fail`; the interface sentence that makes it legal is quoted.
 */
export const WELL_BEHAVED_48: UnnamedClient2[] = [
  // "respect the wait time of the response": urllib3 sleeps a 429's Retry-After, then 1 * 2^1 s after the next
  // error. Its default allowed_methods leave POST out, so the create's 500 reaches the caller unretried.
  {
    does: 'is a requests Session with HTTPAdapter(max_retries=Retry(total=5, backoff_factor=1, status_forcelist=[429, 500, 502, 503, 504])) on default allowed_methods: GET /providers is retried through a 429 (Retry-After 2) and a 500, a create’s 500 is raised to the caller unretried (POST is not in allowed_methods)',
    pass: ['retry.respects-retry-after'],
    async run(t) {
      const a = auth(t);
      fault(t, { kind: 'rate_limited', route: 'listProviders', retryAfterSeconds: 2, count: 1 });
      fault(t, { kind: 'internal', route: 'listProviders', count: 1 });
      ok('read', await loop(sleeper(t), () => get(t, a, '/providers'), urllib3Backoff(1, 0, seeded(4801)), 5));
      fault(t, { kind: 'internal', route: 'createConnection', count: 1 });
      refused('create', await createWith(t, a, venue('Urllib3 Unretried Deli'), 'req-create-4801a'), 500);
    },
  },
  // "the same key with the same content returns the same response again": with allowed_methods=None urllib3
  // retries POST too, resending the same headers, so the key from POST /idempotency-keys goes out again.
  {
    does: 'is a requests Session whose Retry(total=3, backoff_factor=0.5, backoff_jitter=0.3, status_forcelist=[500, 502, 503], allowed_methods=None) resends a create committed then answered 500 at once, under the key it took from POST /idempotency-keys, and gets it replayed',
    pass: ['retry.same-key-and-content'],
    async run(t) {
      const a = auth(t);
      const key = await issuedKey(t, a);
      fault(t, { kind: 'commit_then_fail', route: 'createConnection', failWith: 'internal', count: 1 });
      const body = venue('Urllib3 Any Method Bistro');
      const wait = urllib3Backoff(0.5, 0.3, seeded(4802));
      replayed('create', await loop(sleeper(t), () => createWith(t, a, body, key), wait, 3));
    },
  },
  // "respect the wait time of the response": go-retryablehttp sleeps a 429's Retry-After, rewinds the body and
  // keeps the request's headers; after the dropped connection, 1 s * 2^1.
  {
    does: 'is a go-retryablehttp NewClient() on its defaults (RetryMax 4, 1-30 s) sending a create built with retryablehttp.NewRequest and an Idempotency-Key header through a 429 (Retry-After 2) and a connection dropped after commit: the rewound request is replayed',
    pass: ['retry.respects-retry-after', 'retry.same-key-and-content'],
    async run(t) {
      const a = auth(t);
      fault(t, { kind: 'rate_limited', route: 'createConnection', retryAfterSeconds: 2, count: 1 });
      fault(t, { kind: 'commit_then_fail', route: 'createConnection', failWith: 'drop', count: 1 });
      const body = venue('Retryablehttp Rewound Grill');
      replayed('create', await loop(sleeper(t), () => createWith(t, a, body, 'grh-7c2e90d1a4'), goRetryable, 4));
    },
  },
  // "A sample client makes up to 4 attempts and doubles the wait": RetryMax 3 gives four attempts, 1 s, 2 s, 4 s.
  {
    does: 'is a go-retryablehttp client with RetryMax = 3 checking a capability (POST /capabilities, body rewound) through three 500s: waits of 1 s, 2 s and 4 s, four attempts in all',
    pass: [],
    async run(t) {
      const a = auth(t);
      fault(t, { kind: 'internal', route: 'checkCapability', count: 3 });
      const check = () => checkOn(t, a, 'tillcraft-pos-cloud', 'orders.read');
      ok('check', await loop(sleeper(t), check, goRetryable, 3));
    },
  },
  // "respect the wait time of the response": the standard handler honours Retry-After; its 10 s attempt timeout
  // gives up on a held create, and the retry clones the request with its headers.
  {
    does: 'is an HttpClient with AddStandardResilienceHandler() defaults (3 retries, exponential with jitter on 2 s, Retry-After honoured, 10 s attempt timeout) whose create meets a 429 (Retry-After 3) and then an attempt held past 10 s: the clone goes out with the same Idempotency-Key and is replayed',
    pass: ['retry.respects-retry-after', 'retry.same-key-and-content'],
    async run(t) {
      const a = auth(t);
      fault(t, { kind: 'rate_limited', route: 'createConnection', retryAfterSeconds: 3, count: 1 });
      fault(t, { kind: 'commit_then_fail', route: 'createConnection', failWith: 'timeout', holdMs: 20_000, count: 1 });
      const body = venue('Resilience Handler Cantina');
      const send = () => api(t, a, 'POST', '/connections', { body, key: 'msehr-1f0a6c3b', timeoutMs: 10_000 });
      replayed('create', await loop(sleeper(t), send, standardResilience(seeded(4805)), 3));
    },
  },
  // "Modifying calls are repeat-safe through idempotency keys": a webhook registration retried by the standard
  // handler after a 500 carries the key the caller set on the HttpRequestMessage.
  {
    does: 'is an HttpClient with AddStandardResilienceHandler() registering a webhook receiver (POST /webhooks, Idempotency-Key set on the HttpRequestMessage) through a 500: retried after its jittered delay under the same key',
    pass: ['retry.same-key-and-content'],
    async run(t) {
      const a = auth(t);
      fault(t, { kind: 'internal', route: 'createWebhook', count: 1 });
      const body = hookBody(8089);
      const send = () => api(t, a, 'POST', '/webhooks', { body, key: 'msehr-hook-5e1b7a' });
      ok('hook', await loop(sleeper(t), send, standardResilience(seeded(4806)), 3));
    },
  },
  // "respect the wait time of the response, retry with growing intervals": Resilience4j configured for HTTP, with
  // retryOnResult for 429 and 5xx and an IntervalBiFunction that takes Retry-After first.
  {
    does: 'is a Resilience4j Retry (maxAttempts 4, retryOnResult status 429 or 5xx, IntervalBiFunction: Retry-After, else ofExponentialRandomBackoff(500 ms, 2, 0.5)) around a RestClient GET /connectors through a 429 (Retry-After 1) and a 500',
    pass: ['retry.respects-retry-after'],
    async run(t) {
      const a = auth(t);
      const backoff = resilience4j({ initialMs: 500, multiplier: 2, factor: 0.5, random: seeded(4807) });
      fault(t, { kind: 'rate_limited', route: 'listConnectors', retryAfterSeconds: 1, count: 1 });
      fault(t, { kind: 'internal', route: 'listConnectors', count: 1 });
      const wait = (n: number, r: { retryAfterMs: number }) => r.retryAfterMs || backoff(n + 1);
      ok('read', await loop(sleeper(t), () => get(t, a, '/connectors'), wait, 3));
    },
  },
  // "the same key with the same content returns the same response again": @Retryable re-invokes the method with
  // the same arguments, and the key is one of them.
  {
    does: 'is a Spring @Retryable(retryFor = HttpServerErrorException.class, backoff = @Backoff(delay = 500, multiplier = 2, random = true)) method create(body, idempotencyKey) whose caller made the key: two 500s, the method re-invoked with the same arguments',
    pass: ['retry.same-key-and-content'],
    async run(t) {
      const a = auth(t);
      fault(t, { kind: 'internal', route: 'createConnection', count: 2 });
      const body = venue('Spring Retryable Pantry');
      const wait = springExponentialRandom(seeded(4808));
      ok('create', await loop(sleeper(t), () => createWith(t, a, body, 'spring-arg-3d9e1c'), wait, 2));
    },
  },
  // "respect the wait time of the response": faraday-retry sleeps Retry-After for a status in retry_statuses; the
  // default methods (idempotent ones) leave the create's 500 to the caller.
  {
    does: 'is a Faraday connection with request :retry, retry_statuses: [429, 500], interval: 0.5, backoff_factor: 2, interval_randomness: 0.5 on default methods: GET /providers?category=pos through a 429 (Retry-After 2) and a 500, a create’s 500 returned unretried',
    pass: ['retry.respects-retry-after'],
    async run(t) {
      const a = auth(t);
      fault(t, { kind: 'rate_limited', route: 'listProviders', retryAfterSeconds: 2, count: 1 });
      fault(t, { kind: 'internal', route: 'listProviders', count: 1 });
      ok('read', await loop(sleeper(t), () => get(t, a, '/providers?category=pos'), faradayRetry(seeded(4809)), 2));
      fault(t, { kind: 'internal', route: 'createConnection', count: 1 });
      refused('create', await createWith(t, a, venue('Faraday Unretried Tavern'), 'faraday-4809-c'), 500);
    },
  },
  // "only a retry with the same key gets the outcome": reqwest-retry clones the request (try_clone) with its headers.
  {
    does: 'is a reqwest-middleware ClientWithMiddleware with RetryTransientMiddleware (ExponentialBackoff builder defaults, build_with_max_retries(3)) whose create, its key set on the RequestBuilder, loses its connection after commit and then meets a 500: the clone is replayed',
    pass: ['retry.same-key-and-content'],
    async run(t) {
      const a = auth(t);
      fault(t, { kind: 'commit_then_fail', route: 'createConnection', failWith: 'drop', count: 1 });
      fault(t, { kind: 'internal', route: 'createConnection', count: 1 });
      const body = venue('Reqwest Retry Oyster Bar');
      const wait = reqwestRetryFull(seeded(4810));
      replayed('create', await loop(sleeper(t), () => createWith(t, a, body, 'reqwest-0b8d4f2e'), wait, 3));
    },
  },
  // "respect the wait time of the response": the delay closure reads Retry-After before exponentialDelay.
  {
    does: 'is a Guzzle HandlerStack with Middleware::retry(decider: ConnectException, 429 or 5xx while $retries < 3; delay: Retry-After * 1000 when sent, else RetryMiddleware::exponentialDelay) reading GET /capabilities through a 429 (Retry-After 2) and a 500',
    pass: ['retry.respects-retry-after'],
    async run(t) {
      const a = auth(t);
      fault(t, { kind: 'rate_limited', route: 'listCapabilities', retryAfterSeconds: 2, count: 1 });
      fault(t, { kind: 'internal', route: 'listCapabilities', count: 1 });
      const wait = (n: number, r: { retryAfterMs: number }) => r.retryAfterMs || guzzleExponential(n);
      ok('read', await loop(sleeper(t), () => get(t, a, '/capabilities'), wait, 3));
    },
  },
  // "only a retry with the same key gets the outcome": the shell expands $(uuidgen) once, before curl runs, so
  // every --retry sends the same header.
  {
    does: 'is a deploy script running curl --retry 3 -H "Idempotency-Key: $KEY" (KEY=$(uuidgen) set once) --data @connection.json: a create committed then answered 500 is retried after curl’s 1 s and replayed',
    pass: ['retry.same-key-and-content'],
    async run(t) {
      const a = auth(t);
      fault(t, { kind: 'commit_then_fail', route: 'createConnection', failWith: 'internal', count: 1 });
      const body = venue('Curl Script Chophouse');
      const key = '5b0c9e4a-7d21-4f3e-9a6b-2c8d1e0f4a73';
      replayed('create', await loop(sleeper(t), () => createWith(t, a, body, key), curlRetry(), 3));
    },
  },
  // "Clients retry with growing intervals": wget's default --waitretry=10 grows linearly, 1 s then 2 s.
  {
    does: 'is a cron job running wget --tries=3 --header="Authorization: Bearer …" on GET /connectors whose connection drops twice: wget waits 1 s, then 2 s',
    pass: [],
    async run(t) {
      const a = auth(t);
      fault(t, { kind: 'commit_then_fail', route: 'listConnectors', failWith: 'drop', count: 2 });
      ok('read', await loop(sleeper(t), () => get(t, a, '/connectors'), wgetWaitRetry, 2));
    },
  },
];
