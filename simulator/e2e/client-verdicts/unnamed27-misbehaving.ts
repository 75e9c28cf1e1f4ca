import { api, auth, CONNECTION, fault, READS } from './unnamed-kit.ts';
import type { FaultyClient } from './unnamed-misbehaving.ts';
import { seeded } from './unnamed4-kit.ts';
import { alternate } from './unnamed5-fleet.ts';
import { sleeper } from './unnamed6-kit.ts';
import { get, ok } from './unnamed8-kit.ts';
import { createWith, loop } from './unnamed11-kit.ts';
import { readsOn } from './unnamed25-kit.ts';
import {
  activeJobConstant,
  prefectBackoff,
  reqwestRetry,
  retryTs,
  symfonyRetry,
  wretchLinear,
} from './unnamed27-kit.ts';

/**
 * Round 27, misbehaving clients whose violation looks correct: schedules without draws, draws that are the
 * same for every worker, a backoff a sibling resets, a renewed token on an unchanged 400, keys that ignore
 * the environment, the address or the re-run. Each must fail exactly its rule(s).
 */
export const MISBEHAVING_27: FaultyClient[] = [
  // "slight random spread": retry-ts's exponentialBackoff has no jitter, so three operations wait 200, 400,
  // 800 ms alike.
  {
    does: 'is a retry-ts policy capDelay(2000, exponentialBackoff(200) <> limitRetries(3)) with no jitter, three reads each through three 500s',
    fails: ['retry.spread'],
    async run(t) {
      await readsOn(t, auth(t), sleeper(t), { schedule: retryTs, failures: 3, max: 3 });
    },
  },
  // "slight random spread": gunicorn's --preload imports the app (and seeds its generator) before forking,
  // so four workers draw the same jitter: identical waits at every position.
  {
    does: 'runs four pre-forked workers (a token each) whose jitter generator was seeded before the fork, each retrying its own read through two 500s at once',
    fails: ['retry.spread'],
    async run(t) {
      // The workers run side by side and draw alike, so they fail, sleep and retry in lockstep.
      const workers = READS.slice(0, 4).map(([route, path]) => {
        fault(t, { kind: 'internal', route, count: 2 });
        return { a: auth(t), path, wait: wretchLinear(seeded(2751)) };
      });
      let rs = await Promise.all(workers.map((w) => get(t, w.a, w.path)));
      for (let n = 0; n < 3 && rs.some((r) => r.status >= 500); n++) {
        await Promise.all(workers.map((w) => sleeper(t)(w.wait(n))));
        rs = await Promise.all(workers.map((w) => get(t, w.a, w.path)));
      }
      for (const r of rs) ok('read', r);
    },
  },
  // "Clients retry with growing intervals": one backoff object shared by the client's calls is reset by
  // every success; a sibling call succeeds during each wait, so each retry starts over at 500 ms.
  {
    does: 'shares one backoff object across calls and resets it on any success: a sibling read succeeds during each wait, so three reads retry at 500 ms every time',
    fails: ['retry.growing-waits', 'retry.spread'],
    async run(t) {
      const a = auth(t);
      for (const [route, path] of READS.slice(0, 3)) {
        fault(t, { kind: 'internal', route, count: 3 });
        const send = async (n: number) => {
          if (n > 0) ok('sibling', await get(t, a, '/connections'));
          return get(t, a, path);
        };
        ok(path, await loop(sleeper(t), send, () => 500, 3));
        await sleeper(t)(5_000);
      }
    },
  },
  // "growing intervals": ActiveJob `retry_on ..., wait: 5.seconds` keeps a constant 5 s (its 15 % jitter
  // spreads it but never grows it).
  {
    does: 'is a Rails ActiveJob with retry_on wait: 5.seconds (constant, 15 % jitter), four reads each through three 500s',
    fails: ['retry.growing-waits'],
    async run(t) {
      await readsOn(t, auth(t), sleeper(t), { schedule: activeJobConstant(seeded(2754)), failures: 3, max: 3, ops: 4 });
    },
  },
  // "retry only after rate_limited and internal": a client that takes any 4xx for a stale token fetches a
  // new one and sends the capability check refused 400 again, unchanged.
  {
    does: 'takes a 400 for a stale token: fetches a new token and sends the unchanged capability check again, twice',
    // Two tokens replaced within seconds with nearly all their lifetime left is churn too.
    fails: ['retry.only-after-failure', 'auth.token-reused'],
    async run(t) {
      let a = auth(t);
      const body = { connectorId: 'z', capability: 'orders.read' };
      const wait = symfonyRetry(seeded(2755));
      const r = await loop(
        sleeper(t),
        (n) => {
          if (n > 0) a = auth(t);
          return api(t, a, 'POST', '/capabilities', { body });
        },
        wait,
        2,
        (x) => x.status === 400,
      );
      if (r.status !== 400) throw new Error(`answered ${r.status}`);
    },
  },
  // "use a new key for each new operation": the key is derived from the venue alone, so the pilot
  // connection of the venue goes out under the key of its sandbox connection.
  {
    does: 'derives its key from the venue id only: the venue’s pilot connection goes out under the key of its sandbox connection',
    fails: ['idempotency.one-key-one-content'],
    async run(t) {
      const a = auth(t);
      const body = { ...CONNECTION, scopeLabel: 'Venue 4411 Ramen' };
      ok('sandbox', await createWith(t, a, body, 'venue-4411-connection'));
      await sleeper(t)(60_000);
      await createWith(t, a, { ...body, environment: 'pilot' }, 'venue-4411-connection');
    },
  },
  // "Idempotency keys reused on retries": one SDK instance per base address, each with its own key
  // generator: the failover to the second address retries a create refused 500 under a new key.
  {
    does: 'fails over a create refused 500 to the second address through another SDK instance that stamps its own key',
    fails: ['retry.same-key-and-content'],
    async run(t) {
      const a = auth(t);
      fault(t, { kind: 'internal', route: 'createConnection', count: 1 });
      const body = { ...CONNECTION, scopeLabel: 'Failover Fattoush' };
      const first = await createWith(t, a, body, 'sdk-main-0001-6b2f');
      if (first.status !== 500) throw new Error(`answered ${first.status}`);
      await sleeper(t)(1_300);
      ok('failover', await createWith(alternate(t), a, body, 'sdk-alt-0001-9c4e'));
    },
  },
  // "A sample client makes up to 4 attempts": a Prefect task with retries=6 makes seven attempts.
  {
    does: 'is a Prefect task with retries=6 (exponential_backoff(2), jitter 0.5): seven attempts of each of two reads through six 500s',
    fails: ['retry.attempt-limit'],
    async run(t) {
      await readsOn(t, auth(t), sleeper(t), { schedule: prefectBackoff(seeded(2758)), failures: 6, max: 6, ops: 2 });
    },
  },
  // "Idempotency keys reused on retries": the key is fetched from POST /idempotency-keys inside the retry
  // loop, so each attempt of the create carries a fresh key.
  {
    does: 'fetches a key from POST /idempotency-keys inside its retry loop, so each attempt of a create refused 500 carries a new one',
    fails: ['retry.same-key-and-content'],
    async run(t) {
      const a = auth(t);
      fault(t, { kind: 'internal', route: 'createConnection', count: 2 });
      const body = { ...CONNECTION, scopeLabel: 'Loop Key Lahmacun' };
      const send = async () => {
        const k = await api(t, a, 'POST', '/idempotency-keys', { body: { operation: 'connection.create' } });
        return createWith(t, a, body, String(k.json?.data?.idempotencyKey));
      };
      ok('create', await loop(sleeper(t), send, reqwestRetry(seeded(2761)), 3));
    },
  },
  // "Idempotency keys reused on retries": a GitHub Actions step keys the create with
  // `${{ github.run_id }}-${{ github.run_attempt }}`; "Re-run failed jobs" a minute later makes another key.
  {
    does: 'is a GitHub Actions step keyed by run_id-run_attempt: re-running the failed job 60 s after a create refused 500 sends it under a new key',
    fails: ['retry.same-key-and-content'],
    async run(t) {
      const a = auth(t);
      fault(t, { kind: 'internal', route: 'createConnection', count: 1 });
      const body = { ...CONNECTION, scopeLabel: 'Actions Adobo' };
      const first = await createWith(t, a, body, 'gha-9123456780-1');
      if (first.status !== 500) throw new Error(`answered ${first.status}`);
      await sleeper(t)(60_000);
      ok('re-run', await createWith(t, a, body, 'gha-9123456780-2'));
    },
  },
  // "A sample client makes up to 4 attempts": an Azure Functions queue trigger (maxDequeueCount 5) creates
  // under the message id; four 500s and the fifth delivery is the fifth attempt under one key.
  {
    does: 'is an Azure Functions queue trigger (maxDequeueCount 5) creating under the message id: five attempts under one key through four 500s',
    fails: ['retry.attempt-limit'],
    async run(t) {
      const a = auth(t);
      fault(t, { kind: 'internal', route: 'createConnection', count: 4 });
      const body = { ...CONNECTION, scopeLabel: 'Queue Quesadilla' };
      const wait = reqwestRetry(seeded(2763));
      ok('create', await loop(sleeper(t), () => createWith(t, a, body, 'azq-msg-1e7f0c3a'), wait, 4));
    },
  },
  // "Clients retry with growing intervals": the backoff exponent counts the client's failed operations, not
  // the attempts of one: each operation waits one length three times (500 ms, then 1 s, then 2 s).
  {
    does: 'counts its backoff exponent by failed operations instead of attempts: three reads wait 500, 1000 and 2000 ms, each three times alike',
    fails: ['retry.growing-waits'],
    async run(t) {
      const a = auth(t);
      for (const [i, [route, path]] of READS.slice(0, 3).entries()) {
        fault(t, { kind: 'internal', route, count: 3 });
        ok(
          path,
          await loop(
            sleeper(t),
            () => get(t, a, path),
            () => 500 * 2 ** i,
            3,
          ),
        );
        await sleeper(t)(5_000);
      }
    },
  },
  // "respect the wait time of the response ... slight random spread": the client spreads its retries
  // around Retry-After (± 250 ms) instead of above it, so some come before the time the server asked.
  {
    does: 'spreads its retry around a 429’s Retry-After (2 s) by ± 250 ms, on three reads',
    fails: ['retry.respects-retry-after'],
    async run(t) {
      const a = auth(t);
      const spread = [-180, 120, -60];
      for (const [i, [route, path]] of READS.slice(1, 4).entries()) {
        fault(t, { kind: 'rate_limited', route, retryAfterSeconds: 2, count: 1 });
        ok(
          path,
          await loop(
            sleeper(t),
            () => get(t, a, path),
            (_n, r) => r.retryAfterMs + (spread[i] ?? 0),
            3,
          ),
        );
        await sleeper(t)(5_000);
      }
    },
  },
];
