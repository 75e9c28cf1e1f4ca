import { api, auth, CONNECTION, fault, READS, readStream } from './unnamed-kit.ts';
import type { FaultyClient } from './unnamed-misbehaving.ts';
import { seeded } from './unnamed4-kit.ts';
import { sleeper } from './unnamed6-kit.ts';
import { get, ok } from './unnamed8-kit.ts';
import { createWith, loop } from './unnamed11-kit.ts';
import { readsOn } from './unnamed25-kit.ts';
import {
  cutAndResume,
  dartRetryDefault,
  dartRetryJitter,
  langchainJitter,
  pesterDefault,
  rehttpExpJitter,
  retryAfterAsMs,
  tenantTokenCache,
} from './unnamed28-kit.ts';

/**
 * Round 28, misbehaving clients whose violation looks correct: library defaults without a draw or without
 * growth, a delay function that never sees the answer, a header read in the wrong unit, keys a serialiser
 * or a step draws anew, a browser library that allows headers, a proxy that drops the cursor. Each must
 * fail exactly its rule(s).
 */
export const MISBEHAVING_28: FaultyClient[] = [
  // "slight random spread": Dart's RetryClient default delay (500 ms x1.5) has no draw.
  {
    does: 'is a Dart RetryClient on its default delay (500 ms x1.5, no draw) with when: status >= 500, three reads each through three 500s',
    fails: ['retry.spread'],
    async run(t) {
      await readsOn(t, auth(t), sleeper(t), { schedule: dartRetryDefault, failures: 3, max: 3 });
    },
  },
  // "growing intervals and slight random spread": pester's DefaultBackoff is one second every time.
  {
    does: 'is a Go sethgrid/pester client on its DefaultBackoff (1 s every time), three reads each through three 500s',
    fails: ['retry.growing-waits', 'retry.spread'],
    async run(t) {
      await readsOn(t, auth(t), sleeper(t), { schedule: pesterDefault, failures: 3, max: 3, from: 1 });
    },
  },
  // "respect the wait time of the response": rehttp's delay function gets the attempt number only, so its
  // full jitter under 500 ms decides the wait after a 429 that asked for 2 s.
  {
    does: 'is a Go rehttp transport with ExpJitterDelay(500 ms, 10 s) retrying 429s, three reads each through one 429 (Retry-After 2 s)',
    fails: ['retry.respects-retry-after'],
    async run(t) {
      const a = auth(t);
      const wait = rehttpExpJitter(seeded(2853));
      for (const [route, path] of READS.slice(0, 3)) {
        fault(t, { kind: 'rate_limited', route, retryAfterSeconds: 2, count: 1 });
        ok(path, await loop(sleeper(t), () => get(t, a, path), wait, 3));
        await sleeper(t)(5_000);
      }
    },
  },
  // "respect the wait time of the response": Retry-After parsed as an integer and multiplied by
  // time.Millisecond instead of time.Second.
  {
    does: 'reads Retry-After as milliseconds (time.Duration(n) * time.Millisecond): two reads each retried 2 ms after a 429 (Retry-After 2 s)',
    fails: ['retry.respects-retry-after'],
    async run(t) {
      const a = auth(t);
      for (const [route, path] of READS.slice(2, 4)) {
        fault(t, { kind: 'rate_limited', route, retryAfterSeconds: 2, count: 1 });
        ok(path, await loop(sleeper(t), () => get(t, a, path), retryAfterAsMs, 3));
        await sleeper(t)(5_000);
      }
    },
  },
  // "Idempotency keys reused on retries": the pydantic model is validated again from the request dict on
  // each attempt, and its `idempotency_key: str = Field(default_factory=uuid4)` draws a new key.
  {
    does: 'rebuilds its pydantic request model from a dict on every attempt, so default_factory=uuid4 draws a new key for the retry of a create refused 500',
    fails: ['retry.same-key-and-content'],
    async run(t) {
      const a = auth(t);
      fault(t, { kind: 'internal', route: 'createConnection', count: 1 });
      const body = { ...CONNECTION, scopeLabel: 'Validated Vada' };
      const keys = ['pyd-0b6e2f71-a3c4', 'pyd-91d4c0e8-57fa'];
      const wait = langchainJitter(seeded(2855));
      ok('create', await loop(sleeper(t), (n) => createWith(t, a, body, keys[n] ?? `pyd-extra-${n}`), wait, 1));
    },
  },
  // "Idempotency keys reused on retries": the key is drawn with uuid4() inside the DBOS step, so the
  // step's retry after a dropped connection carries a new one (DBOS checkpoints the step's result, not
  // its inputs).
  {
    does: 'draws its key with uuid4() inside a DBOS step: the step’s retry after a dropped connection sends the create under a new key',
    fails: ['retry.same-key-and-content'],
    async run(t) {
      const a = auth(t);
      fault(t, { kind: 'commit_then_fail', route: 'createConnection', failWith: 'drop', count: 1 });
      const body = { ...CONNECTION, scopeLabel: 'Durable Dosa' };
      const send = (n: number) => createWith(t, a, body, `dbos-step-${n}-4e1f8a2c`);
      ok('create', await loop(sleeper(t), send, (n) => 1_000 * 2 ** n, 2));
    },
  },
  // "same idempotency key with different content": a Go struct whose MarshalJSON stamps the label with the
  // time of serialisation; the retry goes out under the same key with another label.
  {
    does: 'retries a create refused 500 under the same key, but its MarshalJSON stamps the scopeLabel with the time of serialisation',
    fails: ['idempotency.one-key-one-content'],
    async run(t) {
      const a = auth(t);
      fault(t, { kind: 'internal', route: 'createConnection', count: 1 });
      const send = (n: number) =>
        createWith(t, a, { ...CONNECTION, scopeLabel: `Import 18:4${n}:07` }, 'marshal-key-3c9b0d12');
      await loop(sleeper(t), send, (n) => 700 * 2 ** n + 113, 1);
    },
  },
  // "A sample client makes up to 4 attempts": a Dart RetryClient given retries: 5 makes six attempts.
  {
    does: 'is a Dart RetryClient with retries: 5 and a jittered delay, six attempts of each of two reads through five 500s',
    fails: ['retry.attempt-limit'],
    async run(t) {
      await readsOn(t, auth(t), sleeper(t), { schedule: dartRetryJitter(seeded(2858)), failures: 5, max: 5, ops: 2 });
    },
  },
  // "never sent from a browser": sse.js (unlike EventSource) lets a page set headers, so the dashboard
  // sends Authorization instead of ?access_token=; the browser still sends Origin.
  {
    does: 'opens the stream from a browser dashboard with sse.js, the token in an Authorization header rather than the query',
    fails: ['auth.no-browser-credentials'],
    async run(t) {
      const a = auth(t);
      await readStream(t, a, {
        idleMs: 300,
        headers: { origin: 'https://dash.partner.example', 'sec-fetch-site': 'cross-site', 'sec-fetch-mode': 'cors' },
      });
    },
  },
  // "resumes without gaps": the client sends Last-Event-ID, but the proxy in front strips it and adds nothing.
  {
    does: 'sends Last-Event-ID after a cut, but reads through a proxy that strips the header and adds no ?cursor=',
    fails: ['stream.resume-from-last-read'],
    run: (t) => cutAndResume(t, () => ({})),
  },
  // "renewed, not extended": the per-tenant cache's refresh margin was written as `expires_in - 240`
  // where `240` was meant: each tenant's 5-minute token is replaced after one minute.
  {
    does: 'caches one token per tenant but refreshes each after 60 s of its 5 minutes, reading both tenants every 20 s',
    fails: ['auth.token-reused'],
    ...tenantTokenCache(60),
  },
  // "Sample calls send a header Service-Version": a Date serialiser writes the version as an ISO date-time.
  {
    does: 'sends Service-Version as the ISO date-time 2026-07-01T00:00:00Z its Date serialiser writes',
    fails: ['version.service-version-sent'],
    async run(t) {
      const a = auth(t);
      for (const path of ['/providers', '/connectors'])
        await api(t, a, 'GET', path, { version: '2026-07-01T00:00:00Z' });
    },
  },
  // "remedy: request a new access token": `expires_in` read as minutes, so the cache believes a 60 s token
  // lives an hour and the poller keeps sending it after its 401s (a 401 repeated unchanged is also a
  // repeat after an answer that is no reason to retry, as round 2's poller).
  {
    does: 'reads expires_in as minutes: its poller (every 30 s) keeps sending the expired token after the 401',
    fails: ['auth.renewed-after-expiry', 'retry.only-after-failure'],
    async run(t) {
      const a = auth(t, undefined, 60);
      for (let i = 0; i < 5; i++) {
        await get(t, a, '/connections');
        await sleeper(t)(30_000);
      }
    },
  },
];
