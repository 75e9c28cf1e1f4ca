import { api, auth, CONNECTION, fault, type UnnamedClient2 } from './unnamed-kit.ts';
import { seeded } from './unnamed4-kit.ts';
import { sleeper } from './unnamed6-kit.ts';
import { get, ok } from './unnamed8-kit.ts';
import { createWith, loop } from './unnamed11-kit.ts';
import { readsOn } from './unnamed25-kit.ts';
import { ALL_TENANTS, as, TENANTS } from './unnamed30-kit.ts';
import { nowOf, ownToken } from './unnamed33-kit.ts';
import {
  cutAndResume,
  dltWait,
  exqBackoff,
  prologSleep,
  sqsGrowingVisibility,
  watermillRetry,
} from './unnamed38-kit.ts';

/**
 * Round 38, well-behaved clients of stacks no earlier round used (Watermill, Exq told max_retries, SWI-Prolog,
 * Broadway over SQS with a growing visibility, dlt told request_max_attempts 4, vibe.d, a reader behind a proxy
 * that strips Last-Event-ID, an integrator's one token across tenants, sibling pods, a 401 remedied into a 429,
 * a token renewed during a Retry-After). Each must get no `fail`; the interface sentence that makes it legal
 * is quoted above it.
 */
export const WELL_BEHAVED_38: UnnamedClient2[] = [
  // "growing intervals and slight random spread": cenkalti's randomised exponential backoff under Watermill.
  {
    does: 'is a Watermill handler behind middleware.Retry{MaxRetries 3, InitialInterval 500ms, Multiplier 2, RandomizationFactor 0.5}, three reads through three 500s',
    pass: ['retry.growing-waits', 'retry.attempt-limit', 'retry.spread'],
    run: (t) => readsOn(t, auth(t), sleeper(t), { schedule: watermillRetry(seeded(3801)), failures: 3, max: 3 }),
  },
  // "up to 4 attempts", "the same key": the Exq job's jid is the key; max_retries: 3 in its enqueue options.
  {
    does: 'is an Exq job (max_retries 3, its jid sent as the key) creating a connection through two 500s on Exq’s count^4 + 15 + rand(30) * (count + 1) s backoff',
    pass: ['retry.same-key-and-content', 'retry.attempt-limit'],
    async run(t) {
      const a = auth(t, undefined, 3_600);
      fault(t, { kind: 'internal', route: 'createConnection', count: 2 });
      const body = { ...CONNECTION, scopeLabel: 'Exq Empanadas' };
      ok('create', await loop(sleeper(t), () => createWith(t, a, body, 'jid-6f2e1c0a9b'), exqBackoff(seeded(3802)), 3));
    },
  },
  // "respect the wait time of the response": the Prolog loop sleeps the larger of Retry-After and its backoff.
  {
    does: 'is an SWI-Prolog http_open loop sleeping max(RetryAfter, 0.5 * 2**N + random_float * 0.25) s through two 429s (Retry-After 2)',
    pass: ['retry.respects-retry-after'],
    async run(t) {
      const a = auth(t);
      fault(t, { kind: 'rate_limited', route: 'listConnectors', retryAfterSeconds: 2, count: 2 });
      ok('read', await loop(sleeper(t), () => get(t, a, '/connectors'), prologSleep(seeded(3803)), 3));
    },
  },
  // "the same key ... returns the same response again": the SQS message id is the key; a failed message's
  // visibility is set to 10 s * 2^receiveCount plus a draw, so the redeliveries grow.
  {
    does: 'is a Broadway SQS pipeline keyed by the message id, failing a create’s message with ChangeMessageVisibility(10 s * 2^receiveCount + rand 3 s), redelivered through two 500s',
    pass: ['retry.same-key-and-content', 'retry.growing-waits'],
    async run(t) {
      const a = auth(t, undefined, 3_600);
      fault(t, { kind: 'internal', route: 'createConnection', count: 2 });
      const body = { ...CONNECTION, scopeLabel: 'Broadway Borscht' };
      const send = () => createWith(t, a, body, 'sqs-msg-0c1d2e3f');
      ok('create', await loop(sleeper(t), send, sqsGrowingVisibility(seeded(3804)), 3));
    },
  },
  // "up to 4 attempts": dlt configured with request_max_attempts = 4; its waits double without jitter, one
  // sequence, whose spread cannot be seen.
  {
    does: 'is a dlt REST source with request_max_attempts = 4 (tenacity wait_exponential 1 s, 2 s, 4 s), one read through three 500s',
    pass: ['retry.attempt-limit', 'retry.growing-waits'],
    async run(t) {
      const a = auth(t);
      fault(t, { kind: 'internal', route: 'listProviders', count: 3 });
      ok('read', await loop(sleeper(t), () => get(t, a, '/providers'), dltWait, 3));
    },
  },
  // "resumes without gaps by sending Last-Event-ID ... (last number read)": vibe.d's reader keeps the id of
  // the last event its handler returned from.
  {
    does: 'is a vibe.d requestHTTP stream reader resuming with Last-Event-ID of the last event its handler finished, after a cut',
    pass: ['stream.resume-from-last-read'],
    run: (t) => cutAndResume(t, auth(t), (last) => ({ cursor: last })),
  },
  // "Last-Event-ID or the query parameter cursor": the reader's proxy strips Last-Event-ID, so it sends the
  // query parameter (the header never reaches the service).
  {
    does: 'reads the stream through a corporate proxy that strips Last-Event-ID, so it resumes with ?cursor= of the last number read',
    pass: ['stream.resume-from-last-read'],
    run: (t) => cutAndResume(t, auth(t), (last) => ({ cursor: last, asQuery: true })),
  },
  // "renewed, not extended": one 15-minute token of the integrator for all three tenants, renewed with 2
  // minutes left, each tenant read in turn every 20 s for 40 minutes.
  {
    does: 'is an integrator holding one 15-minute token for three tenants (renewed with 2 minutes left), reading each tenant in turn every 20 s for 40 minutes',
    pass: ['auth.token-reused'],
    options: ALL_TENANTS,
    async run(t) {
      const token = ownToken(t, 900, 120, () => as(t, TENANTS[0], 900));
      for (let i = 0; i < 120; i++) {
        ok('read', await get(t, { ...token(), tenant: TENANTS[i % 3] ?? TENANTS[0] }, '/connectors'));
        await sleeper(t)(20_000);
      }
    },
  },
  // "respect the wait time of the response": pod B (its own token, reading all along) owes nothing to the
  // 429 pod A got; pod A waits its Retry-After.
  {
    does: 'runs two pods with tokens of their own reading /connectors in turn; pod A waits out a 429 (Retry-After 3) while pod B reads 1 s after it',
    pass: ['retry.respects-retry-after'],
    async run(t) {
      const podA = auth(t);
      const podB = auth(t);
      for (let i = 0; i < 3; i++) {
        ok('a', await get(t, podA, '/connectors'));
        await sleeper(t)(2_000);
        ok('b', await get(t, podB, '/connectors'));
        await sleeper(t)(2_000);
      }
      fault(t, { kind: 'rate_limited', route: 'listConnectors', retryAfterSeconds: 3, count: 1 });
      const refused = await get(t, podA, '/connectors');
      if (refused.status !== 429) throw new Error(`answered ${refused.status}`);
      await sleeper(t)(1_000);
      ok('b', await get(t, podB, '/connectors'));
      await sleeper(t)(2_100);
      ok('a', await get(t, podA, '/connectors'));
    },
  },
  // "remedy: request a new access token" then "respect the wait time": a create retried after its 500 meets
  // a 401 (the token expired in the wait), is sent again at once with a new token, meets a 429 and waits its
  // Retry-After; one key throughout, four attempts.
  {
    does: 'retries a create after a 500 into a 401 (its token expired during the 1.2 s wait), renews and resends at once under the same key, then waits out a 429 (Retry-After 2)',
    pass: ['retry.same-key-and-content', 'retry.respects-retry-after', 'retry.attempt-limit'],
    async run(t) {
      let a = auth(t, undefined, 1);
      const body = { ...CONNECTION, scopeLabel: 'Renewed Ramen' };
      const key = 'remedy-38-op-1';
      fault(t, { kind: 'internal', route: 'createConnection', count: 1 });
      const first = await createWith(t, a, body, key);
      if (first.status !== 500) throw new Error(`first answered ${first.status}`);
      await sleeper(t)(1_200);
      const second = await createWith(t, a, body, key);
      if (second.status !== 401) throw new Error(`second answered ${second.status}`);
      a = auth(t, undefined, 900);
      fault(t, { kind: 'rate_limited', route: 'createConnection', retryAfterSeconds: 2, count: 1 });
      const third = await createWith(t, a, body, key);
      if (third.status !== 429) throw new Error(`third answered ${third.status}`);
      await sleeper(t)(2_000 + 40);
      ok('create', await createWith(t, a, body, key));
    },
  },
  // "renewed, not extended" and "respect the wait time": a 60-s token renewed under 10 s left; its renewal
  // falls inside a 429's Retry-After, so the retry carries the new token, after the full wait.
  {
    does: 'reads every 10 s on a 60-s token renewed under 10 s left; a 429 (Retry-After 5) at 50 s is retried after 5 s with the token its cache renewed meanwhile',
    pass: ['retry.respects-retry-after', 'auth.token-reused'],
    async run(t) {
      const token = ownToken(t, 60, 10);
      const start = nowOf(t);
      for (let i = 0; i < 12; i++) {
        if (i === 5) fault(t, { kind: 'rate_limited', route: 'listConnectors', retryAfterSeconds: 5, count: 1 });
        const r = await get(t, token(), '/connectors');
        if (r.status === 429) {
          await sleeper(t)(5_000);
          ok('retry', await get(t, token(), '/connectors'));
        } else ok('read', r);
        await sleeper(t)(Math.max(0, start + (i + 1) * 10_000 - nowOf(t)));
      }
    },
  },
  // "A read polled at its cadence": a poller asking for a pending connection every 2 s keeps its cadence
  // through a 500 (no extra call, no faster poll).
  {
    does: 'polls GET /connections every 2 s for a connection to appear, keeping its cadence through one 500',
    pass: [],
    async run(t) {
      const a = auth(t);
      for (let i = 0; i < 8; i++) {
        if (i === 3) fault(t, { kind: 'internal', route: 'listConnections', count: 1 });
        const r = await api(t, a, 'GET', '/connections');
        if (r.status !== 200 && i !== 3) throw new Error(`poll ${i} answered ${r.status}`);
        await sleeper(t)(2_000);
      }
    },
  },
];
