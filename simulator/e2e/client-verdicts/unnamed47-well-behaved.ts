import { api, auth, CONNECTION, fault, type UnnamedClient2 } from './unnamed-kit.ts';
import { pollyDecorrelatedJitterV2, seeded } from './unnamed4-kit.ts';
import { cenkalti, sleeper } from './unnamed6-kit.ts';
import { get, ok } from './unnamed8-kit.ts';
import { createWith, loop, replayed } from './unnamed11-kit.ts';
import { kiotaRetry } from './unnamed20-kit.ts';
import { stainlessRetry } from './unnamed22-kit.ts';
import { refused, venue } from './unnamed45-kit.ts';
import { axiosRetryExponential, fernTs, guid, speakeasyBackoff, stainlessKey, urllib3Retry } from './unnamed47-kit.ts';

/**
 * Round 47, well-behaved clients written by code generators, each with its documented retry and timeout defaults
 * (or, for a generator that retries nothing, the application's retry around it): the key made once per operation
 * and resent by every retry, a Retry-After slept, waits that grow. Each must get no `fail`; the interface sentence
 * that makes it legal is quoted.
 */
export const WELL_BEHAVED_47: UnnamedClient2[] = [
  // "the same key with the same content returns the same response again": typescript-fetch retries nothing; the
  // application's p-retry (retries 3, factor 2, minTimeout 1 s, randomize) wraps the generated call, the key
  // made before it.
  {
    does: 'is an openapi-generator typescript-fetch ConnectionsApi.createConnection({ idempotencyKey, connectionCreate }) wrapped in p-retry (minTimeout 1 s, factor 2, randomize), its key made outside: a create committed then answered 500 is sent again under it and replayed',
    pass: ['retry.same-key-and-content'],
    async run(t) {
      const a = auth(t);
      const random = seeded(4701);
      const key = guid(random);
      fault(t, { kind: 'commit_then_fail', route: 'createConnection', failWith: 'internal', count: 1 });
      const body = venue('Fetch Generator Diner');
      refused('first', await createWith(t, a, body, key), 500);
      await sleeper(t)(Math.round(1_000 * (1 + random())));
      replayed('again', await createWith(t, a, body, key));
    },
  },
  // "respect the wait time of the response": urllib3 sleeps a 429's Retry-After exactly, then its own backoff
  // (none before the first retry, 1 s + jitter before the second), resending the same request and headers.
  {
    does: 'is an openapi-generator python client with configuration.retries = Retry(total=3, backoff_factor=0.5, backoff_jitter=0.3, status_forcelist=[429, 500], allowed_methods=None): a create refused 429 (Retry-After 2) then 500 is resent by urllib3 with its key',
    pass: ['retry.respects-retry-after', 'retry.same-key-and-content'],
    async run(t) {
      const a = auth(t);
      const wait = urllib3Retry(0.5, 0.3, seeded(4702));
      fault(t, { kind: 'rate_limited', route: 'createConnection', retryAfterSeconds: 2, count: 1 });
      fault(t, { kind: 'internal', route: 'createConnection', count: 1 });
      const body = venue('Urllib3 Generated Bistro');
      ok('create', await loop(sleeper(t), () => createWith(t, a, body, 'py-gen-7a41c9d2e0'), wait, 3));
    },
  },
  // "respect the wait time of the response": the java (okhttp-gson) client retries nothing; the application
  // catches ApiException 429, reads Retry-After from getResponseHeaders() and reschedules the same call.
  {
    does: 'is an openapi-generator java (okhttp-gson) client, which retries nothing, whose caller catches ApiException 429, reads Retry-After (1 s) from getResponseHeaders() and reschedules the same create with its key 250 ms after it',
    pass: ['retry.respects-retry-after', 'retry.same-key-and-content'],
    async run(t) {
      const a = auth(t);
      fault(t, { kind: 'rate_limited', route: 'createConnection', retryAfterSeconds: 1, count: 1 });
      const body = venue('OkHttp Generated Canteen');
      const first = refused('first', await createWith(t, a, body, 'java-gen-0f3e2d1c'), 429);
      await sleeper(t)(first.retryAfterMs + 250);
      ok('again', await createWith(t, a, body, 'java-gen-0f3e2d1c'));
    },
  },
  // "Clients retry with growing intervals and slight random spread": the go client retries nothing; the request
  // builder keeps .IdempotencyKey(key) and cenkalti/backoff's ExponentialBackOff paces the re-Execute().
  {
    does: 'is an openapi-generator Go client (no retries) whose worker re-runs CreateConnection(ctx).IdempotencyKey(key).ConnectionCreate(body).Execute() under backoff.Retry with ExponentialBackOff defaults through two 500s',
    pass: ['retry.same-key-and-content'],
    async run(t) {
      const a = auth(t);
      const next = cenkalti(seeded(4703));
      fault(t, { kind: 'internal', route: 'createConnection', count: 2 });
      const body = venue('Go Generated Tavern');
      ok('create', await loop(sleeper(t), () => createWith(t, a, body, 'go-gen-51be07aa'), next, 3));
    },
  },
  // "respect the wait time of the response": Kiota's RetryHandler (MaxRetry 3, Delay 3 s) takes Retry-After when
  // sent, else 3 s * 2^n, resends the buffered request with its headers and adds Retry-Attempt.
  {
    does: 'is a Kiota-generated .NET client whose RetryHandler (defaults: 3 retries, 3 s doubling, Retry-After honoured) resends a buffered create with its key and a Retry-Attempt header through a 429 (Retry-After 2) and a gateway 503',
    pass: ['retry.respects-retry-after', 'retry.same-key-and-content'],
    async run(t) {
      const a = auth(t);
      fault(t, { kind: 'rate_limited', route: 'createConnection', retryAfterSeconds: 2, count: 1 });
      fault(t, { kind: 'unavailable', route: 'createConnection', retryAfterSeconds: 0, count: 1 });
      const body = venue('Kiota Generated Grill');
      const send = (n: number) => createWith(t, a, body, 'kiota-5c0e9b7d21', n ? { 'retry-attempt': String(n) } : {});
      ok('create', await loop(sleeper(t), send, kiotaRetry, 3));
    },
  },
  // "respect the wait time of the response, retry with growing intervals": an NSwag client from IHttpClientFactory
  // with a Polly policy that sleeps Retry-After when sent, else decorrelated jitter.
  {
    does: 'is an NSwag-generated C# client from IHttpClientFactory with AddPolicyHandler(HandleTransientHttpError().OrResult(429).WaitAndRetryAsync(3, sleepDurationProvider: Retry-After, else DecorrelatedJitterBackoffV2(1 s))) reading GET /connectors through a 429 and a 500',
    pass: ['retry.respects-retry-after'],
    async run(t) {
      const a = auth(t);
      const jitter = pollyDecorrelatedJitterV2(1_000, seeded(4704));
      fault(t, { kind: 'rate_limited', route: 'listConnectors', retryAfterSeconds: 1, count: 1 });
      fault(t, { kind: 'internal', route: 'listConnectors', count: 1 });
      const wait = (n: number, r: { retryAfterMs: number }) => r.retryAfterMs || Math.round(jitter(n + 1));
      ok('read', await loop(sleeper(t), () => get(t, a, '/connectors'), wait, 3));
    },
  },
  // "only a retry with the same key gets the outcome": Refit's [Header("Idempotency-Key")] parameter is set by the
  // caller once; the Polly handler resends the same HttpRequestMessage after the dropped connection.
  {
    does: 'is a Refit interface with a [Header("Idempotency-Key")] parameter behind AddTransientHttpErrorPolicy(WaitAndRetryAsync(2 s, 4 s)): a create whose connection drops after commit is resent with the caller’s key and replayed',
    pass: ['retry.same-key-and-content'],
    async run(t) {
      const a = auth(t);
      fault(t, { kind: 'commit_then_fail', route: 'createConnection', failWith: 'drop', count: 1 });
      const body = venue('Refit Polly Brasserie');
      const first = await createWith(t, a, body, 'refit-3e1d0c4b9a');
      if (first.status !== 0) throw new Error(`the drop answered ${first.status}`);
      await sleeper(t)(2_000);
      replayed('again', await createWith(t, a, body, 'refit-3e1d0c4b9a'));
    },
  },
  // "only a retry with the same key gets the outcome": oapi-codegen's CreateConnectionParams holds the key, built
  // once; a context.WithTimeout(3 s) gives up on a held create and the same params go out again.
  {
    does: 'is an oapi-codegen ClientWithResponses whose CreateConnectionParams{IdempotencyKey} is built once per operation: a create held past its 3 s context deadline is sent again with the same params after 1 s and replayed',
    pass: ['retry.same-key-and-content'],
    async run(t) {
      const a = auth(t);
      fault(t, { kind: 'commit_then_fail', route: 'createConnection', failWith: 'timeout', holdMs: 6_000, count: 1 });
      const body = venue('Oapi Codegen Kitchen');
      const key = 'oapi-6d2f8e1a4b';
      const first = await api(t, a, 'POST', '/connections', { body, key, timeoutMs: 3_000 });
      if (first.status !== 0) throw new Error(`answered ${first.status}`);
      await sleeper(t)(1_000);
      replayed('again', await createWith(t, a, body, key));
    },
  },
  // "respect the wait time of the response": axios-retry 4's exponentialDelay takes the larger of its own delay and
  // the Retry-After, plus up to 20 %; its default condition retries 429 and 5xx on GET.
  {
    does: 'is an Orval-generated client whose axios mutator has axios-retry (retries 3, retryDelay exponentialDelay, default condition) reading GET /providers through a 429 (Retry-After 1) and a 500',
    pass: ['retry.respects-retry-after'],
    async run(t) {
      const a = auth(t);
      const wait = axiosRetryExponential(seeded(4705));
      fault(t, { kind: 'rate_limited', route: 'listProviders', retryAfterSeconds: 1, count: 1 });
      fault(t, { kind: 'internal', route: 'listProviders', count: 1 });
      ok('read', await loop(sleeper(t), () => get(t, a, '/providers'), wait, 3));
    },
  },
  // "only a retry with the same key gets the outcome": a Stainless SDK mints its Idempotency-Key once per method
  // call and keeps it through its own retries, here of a create it gave up on at its configured 5 s timeout.
  {
    does: 'is a Stainless-generated TypeScript SDK (timeout 5 s, maxRetries 2) whose create is held past the timeout: it retries after its 0.5 s jittered wait with the same stainless-node-retry key and X-Stainless-Retry-Count: 1, and gets it replayed',
    pass: ['retry.same-key-and-content'],
    async run(t) {
      const a = auth(t);
      const random = seeded(4706);
      const key = stainlessKey(random);
      fault(t, { kind: 'commit_then_fail', route: 'createConnection', failWith: 'timeout', holdMs: 8_000, count: 1 });
      const body = venue('Stainless Timeout Tearoom');
      const first = await api(t, a, 'POST', '/connections', {
        body,
        key,
        timeoutMs: 5_000,
        headers: { 'x-stainless-retry-count': '0' },
      });
      if (first.status !== 0) throw new Error(`answered ${first.status}`);
      await sleeper(t)(stainlessRetry(random)(0, first));
      replayed('again', await createWith(t, a, body, key, { 'x-stainless-retry-count': '1' }));
    },
  },
  // "respect the wait time of the response, retry with growing intervals and slight random spread": Speakeasy's
  // backoff with a bounded maxElapsedTime (10 s) honours Retry-After, then 500 * x^1.5 + up to 1 s.
  {
    does: 'is a Speakeasy-generated TypeScript SDK with retryConfig backoff (initialInterval 500, maxInterval 60000, exponent 1.5, maxElapsedTime 10000) and statusCodes ["429", "5XX"], reading GET /capabilities through a 429 (Retry-After 1) and two 500s',
    pass: ['retry.respects-retry-after'],
    async run(t) {
      const a = auth(t);
      const wait = speakeasyBackoff(seeded(4707));
      fault(t, { kind: 'rate_limited', route: 'listCapabilities', retryAfterSeconds: 1, count: 1 });
      fault(t, { kind: 'internal', route: 'listCapabilities', count: 2 });
      ok('read', await loop(sleeper(t), () => get(t, a, '/capabilities'), wait, 3));
    },
  },
  // "respect the wait time of the response": a current Fern TypeScript core reads Retry-After first, else
  // 1 s * 2^n ±20 %; the idempotencyKey request option is sent on every attempt.
  {
    does: 'is a Fern-generated TypeScript SDK (maxRetries 2, a core that reads Retry-After) creating with requestOptions.idempotencyKey through a 429 (Retry-After 2) and a 500',
    pass: ['retry.respects-retry-after', 'retry.same-key-and-content'],
    async run(t) {
      const a = auth(t);
      const wait = fernTs(seeded(4708), true);
      fault(t, { kind: 'rate_limited', route: 'createConnection', retryAfterSeconds: 2, count: 1 });
      fault(t, { kind: 'internal', route: 'createConnection', count: 1 });
      const body = { ...CONNECTION, scopeLabel: 'Fern Generated Oyster Bar' };
      ok('create', await loop(sleeper(t), () => createWith(t, a, body, 'fern-ts-2b7c9d0e'), wait, 2));
    },
  },
];
