import { api, auth, CONNECTION, fault, type UnnamedClient2 } from './unnamed-kit.ts';
import { seeded } from './unnamed4-kit.ts';
import { sleeper } from './unnamed6-kit.ts';
import { get, ok } from './unnamed8-kit.ts';
import { createWith, loop, replayed } from './unnamed11-kit.ts';
import { readsOn } from './unnamed25-kit.ts';
import {
  cutAndResume,
  dartRetryJitter,
  dbosStep,
  langchainJitter,
  pesterJitter,
  raFloor,
  reqV3Backoff,
  resqueRetry,
  tenantTokenCache,
  urqlDelay,
} from './unnamed28-kit.ts';

/**
 * Round 28, well-behaved clients of stacks no earlier round used. Each must get no `fail`; the interface
 * sentence that makes it legal is quoted above it.
 */
export const WELL_BEHAVED_28: UnnamedClient2[] = [
  // "growing intervals and slight random spread": pester's ExponentialJitterBackoff, MaxRetries 3.
  {
    does: 'is a Go sethgrid/pester client with ExponentialJitterBackoff (2^i s + rand 1 s), three reads each through two 500s',
    pass: ['retry.attempt-limit', 'retry.growing-waits'],
    async run(t) {
      await readsOn(t, auth(t), sleeper(t), { schedule: pesterJitter(seeded(2801)), failures: 2, max: 3 });
    },
  },
  // "growing intervals and slight random spread": tenacity's wait_exponential_jitter under LangChain.
  {
    does: 'is a LangChain Runnable.with_retry(wait_exponential_jitter=True, stop_after_attempt=4), three reads each through three 500s',
    pass: ['retry.attempt-limit', 'retry.growing-waits'],
    async run(t) {
      await readsOn(t, auth(t), sleeper(t), { schedule: langchainJitter(seeded(2802)), failures: 3, max: 3, from: 1 });
    },
  },
  // One retry per operation with a drawn delay: nothing to grow, spread drawn.
  {
    does: 'is a server-side urql client with retryExchange (1 s x (1.5 + random), maxNumberAttempts 2), four reads each through one 500',
    pass: ['retry.attempt-limit'],
    async run(t) {
      await readsOn(t, auth(t), sleeper(t), { schedule: urqlDelay(seeded(2803)), failures: 1, max: 1, ops: 4 });
    },
  },
  // "respect the wait time of the response" and "the same key with the same content": req v3's retry hook
  // takes Retry-After as a floor; the key is a common header set once on the request.
  {
    does: 'is an imroc/req v3 client (SetCommonRetryBackoffInterval 1 s-5 s, Retry-After as floor) creating through a 429 (Retry-After 2 s) and a 500 under one key',
    pass: ['retry.same-key-and-content', 'retry.respects-retry-after'],
    async run(t) {
      const a = auth(t);
      fault(t, { kind: 'rate_limited', route: 'createConnection', retryAfterSeconds: 2, count: 1 });
      fault(t, { kind: 'internal', route: 'createConnection', count: 1 });
      const body = { ...CONNECTION, scopeLabel: 'Req Rendang' };
      const wait = raFloor(reqV3Backoff(seeded(2804)));
      ok('create', await loop(sleeper(t), () => createWith(t, a, body, 'req-v3-8d2c1e40'), wait, 3));
    },
  },
  // "Idempotency keys reused on retries": the pydantic request model is built once (key from
  // default_factory at construction) and the same instance is serialised for every attempt.
  {
    does: 'is a Python client whose pydantic request model draws its key once at construction and re-sends the same instance after a dropped connection',
    pass: ['retry.same-key-and-content'],
    async run(t) {
      const a = auth(t);
      fault(t, { kind: 'commit_then_fail', route: 'createConnection', failWith: 'drop', count: 1 });
      const model = { key: 'pyd-6f1a3c9e-20b4', body: { ...CONNECTION, scopeLabel: 'Pydantic Pho' } };
      const wait = langchainJitter(seeded(2805));
      replayed('create', await loop(sleeper(t), () => createWith(t, a, model.body, model.key), wait, 3));
    },
  },
  // "Idempotency keys reused on retries": a DBOS workflow keys its create step with DBOS.workflow_id; the
  // step's own retries (1 s, 2 s) keep it. One sequence: its spread cannot be seen, and is not judged.
  {
    does: 'is a DBOS workflow keying its create step with the workflow id, the step retried (interval 1 s, backoff 2) through two 500s',
    pass: ['retry.same-key-and-content', 'retry.attempt-limit'],
    async run(t) {
      const a = auth(t);
      fault(t, { kind: 'internal', route: 'createConnection', count: 2 });
      const body = { ...CONNECTION, scopeLabel: 'DBOS Dumplings' };
      ok('create', await loop(sleeper(t), () => createWith(t, a, body, 'dbos-wf-2f7d9a10'), dbosStep, 2));
    },
  },
  // "growing intervals": resque-retry's strategy [2, 8, 30] s stretched by its multiplicand draw; the job
  // carries its key in its arguments.
  {
    does: 'is a Resque job with resque-retry ExponentialBackoff ([2, 8, 30] s, multiplicand 1.0-1.5) creating under the key in its arguments through two 500s',
    pass: ['retry.same-key-and-content', 'retry.attempt-limit'],
    async run(t) {
      const a = auth(t);
      fault(t, { kind: 'internal', route: 'createConnection', count: 2 });
      const body = { ...CONNECTION, scopeLabel: 'Resque Ribs' };
      const wait = resqueRetry(seeded(2807));
      ok('create', await loop(sleeper(t), () => createWith(t, a, body, 'resque-job-71c0e5ab'), wait, 3));
    },
  },
  // "resumes without gaps by sending Last-Event-ID": fetch-event-source sends the last id it saw and waits
  // the stream's `retry:` field.
  {
    does: 'is @microsoft/fetch-event-source in Node: after a cut it waits the retry: field and reconnects with Last-Event-ID',
    pass: ['stream.resume-from-last-read'],
    run: (t) => cutAndResume(t, (last) => ({ cursor: last })),
  },
  // "Last-Event-ID or the query parameter cursor": a corporate proxy drops Last-Event-ID and puts the same
  // number into ?cursor=.
  {
    does: 'reads the stream through a proxy that strips Last-Event-ID and re-adds the same number as ?cursor=',
    pass: ['stream.resume-from-last-read'],
    run: (t) => cutAndResume(t, (last) => ({ cursor: last, asQuery: true })),
  },
  // "Tokens are short-lived and are renewed": an integrator's cache keyed per tenant renews each tenant's
  // 5-minute token 60 s before it expires.
  {
    does: 'caches one token per tenant (an integrator for two tenants) and renews each 60 s before its 5-minute expiry, reading every 20 s for 12 minutes',
    pass: [],
    ...tenantTokenCache(240),
  },
  // "respect the wait time of the response": a Dart RetryClient with its own jittered delay and a `when`
  // on 429 and 5xx, raised to Retry-After.
  {
    does: 'is a Dart RetryClient (500 ms x1.5 + rand 200 ms, Retry-After as floor) reading through a 429 (Retry-After 1 s) and a 500',
    pass: ['retry.respects-retry-after'],
    async run(t) {
      const a = auth(t);
      fault(t, { kind: 'rate_limited', route: 'listConnectors', retryAfterSeconds: 1, count: 1 });
      fault(t, { kind: 'internal', route: 'listConnectors', count: 1 });
      const wait = raFloor(dartRetryJitter(seeded(2811)));
      ok('read', await loop(sleeper(t), () => get(t, a, '/connectors'), wait, 3));
    },
  },
  // "Sample calls send a header Service-Version": pinned to the older published version.
  {
    does: 'pins Service-Version to the older published 2026-06-12 on every call',
    pass: ['version.service-version-sent'],
    async run(t) {
      const a = auth(t);
      for (const path of ['/providers', '/connectors', '/capabilities'])
        ok(path, await api(t, a, 'GET', path, { version: '2026-06-12' }));
    },
  },
];
