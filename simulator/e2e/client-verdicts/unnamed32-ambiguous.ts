import { randomUUID } from 'node:crypto';
import { api, auth, CONNECTION, fault, publish, readStream } from './unnamed-kit.ts';
import { sleeper } from './unnamed6-kit.ts';
import type { AmbiguousClient8 } from './unnamed8-ambiguous.ts';
import { get, ok } from './unnamed8-kit.ts';
import { createWith } from './unnamed11-kit.ts';
import { EARLIER_VERSION, luigiRetryDelayMs } from './unnamed32-kit.ts';
import { opened } from './unnamed32-well-behaved.ts';

/**
 * Round 32, cases the interface does not decide: the rules' verdict today is stated (`judged`: the rules
 * failed), not claimed right or wrong. A change of rule that moves one must say why.
 */
export const AMBIGUOUS_32: AmbiguousClient8[] = [
  {
    does: 'is a Luigi task whose create fails 500; the scheduler runs the task again after retry_delay (900 s), and run() makes a new key',
    why: '"the same key with the same content" binds retries, but a retry is looked for within 120 s of the failure: a scheduler re-running a failed task 15 minutes later is not judged a retry, so its new key is a new operation',
    judged: [],
    async run(t) {
      const a = auth(t, undefined, 3_600);
      fault(t, { kind: 'internal', route: 'createConnection', count: 1 });
      const body = { ...CONNECTION, scopeLabel: 'Luigi Linguine' };
      const failed = await createWith(t, a, body, `luigi-${randomUUID()}`);
      if (failed.status !== 500) throw new Error(`answered ${failed.status}`);
      await sleeper(t)(luigiRetryDelayMs);
      ok('re-run', await createWith(t, a, body, `luigi-${randomUUID()}`));
    },
  },
  {
    does: 'is a Solid Queue recurring task (schedule: every 20 seconds), each run a new job fetching its own 15 min token for two reads 1 s apart',
    why: '"renewed, not extended" against "a later run (a job started again) is no churn": each run is a job of its own, but a steady cadence of new tokens under 30 s after successes is one run since round 31, so a recurring job every 20 s is churn today (GoodJob once a minute passes)',
    judged: ['auth.token-reused'],
    async run(t) {
      for (let run = 0; run < 8; run++) {
        const a = auth(t, undefined, 900);
        ok('connections', await get(t, a, '/connections'));
        await sleeper(t)(1_000);
        ok('providers', await get(t, a, '/providers'));
        await sleeper(t)(19_000);
      }
    },
  },
  {
    does: 'is a Kubernetes Job (completions 6, parallelism 1) whose pods each take a token, make four reads 5 s apart and exit, the next pod starting 3 s later',
    why: '"renewed, not extended" against "a later run (a job started again) is no churn": each pod is a process of its own that cannot share a token without a cache, but its token replaces the last one 3 s after that one’s last call, so the rules take the Job for one process churning',
    judged: ['auth.token-reused'],
    async run(t) {
      for (let pod = 0; pod < 6; pod++) {
        const a = auth(t, undefined, 900);
        for (let call = 0; call < 4; call++) {
          ok('read', await get(t, a, '/connections'));
          if (call < 3) await sleeper(t)(5_000);
        }
        await sleeper(t)(3_000);
      }
    },
  },
  {
    does: 'is a Prometheus scrape job every 45 s whose credentials_file a sidecar rewrites with a new 15 min token before each scrape',
    why: '"renewed, not extended": a token per scrape with 14 of its 15 minutes left is churn in spirit, but a steady cadence counts as one run only under 30 s (a scheduler a minute apart must pass), and 45 s lies between',
    judged: [],
    async run(t) {
      for (let scrape = 0; scrape < 10; scrape++) {
        ok('scrape', await get(t, auth(t, undefined, 900), '/connections'));
        await sleeper(t)(45_000);
      }
    },
  },
  {
    does: 'sends a create under Service-Version 2026-07-01, gets a 500, and a blue/green rollback sends the retry from a pod pinned to 2026-06-12, same key and body',
    why: '"the same key with the same content returns the same response again": whether the version is part of an operation is not said; the rules compare key, query and body, so the retry is the same operation',
    judged: [],
    async run(t) {
      const a = auth(t);
      fault(t, { kind: 'internal', route: 'createConnection', count: 1 });
      const body = { ...CONNECTION, scopeLabel: 'Rollback Risotto' };
      const first = await createWith(t, a, body, 'bluegreen-42');
      if (first.status !== 500) throw new Error(`answered ${first.status}`);
      await sleeper(t)(1_200);
      const again = await api(t, a, 'POST', '/connections', { body, key: 'bluegreen-42', version: EARLIER_VERSION });
      ok('retry', again);
    },
  },
  {
    does: 'renews its token 2 minutes before expiry and opens a second stream with it (Last-Event-ID = last id read) before the first closes at the old token’s expiry (make-before-break)',
    why: '"After an interruption, the client resumes without gaps": a handover with no interruption reads some messages on both streams; the rules match a reconnect only to a stream that ended before it opened, so neither stream is judged',
    judged: [],
    async run(t) {
      const first = auth(t, undefined, 900);
      const o1 = opened();
      const one = readStream(t, first, { idleMs: 5_000, onOpen: o1.onOpen });
      await o1.wait;
      publish(t, first.tenant, 2);
      await t.sandbox.control.advanceClock(780);
      const o2 = opened();
      const two = readStream(t, auth(t, undefined, 900), { cursor: 2, idleMs: 1_500, onOpen: o2.onOpen });
      await o2.wait;
      publish(t, first.tenant, 2);
      await t.sandbox.control.advanceClock(121);
      const [ids1, ids2] = await Promise.all([one, two]);
      if (ids1.length !== 4 || ids2.length !== 2) throw new Error(`read ${ids1.join(',')} and ${ids2.join(',')}`);
    },
  },
  {
    does: 'is one process whose background refresher renews its token 2 minutes before expiry while a worker still holds the old one: that worker’s read is refused 429 (Retry-After 5 s) and retried 1 s later with the new token',
    why: '"respect the wait time of the response" binds the one process, but processes are told apart by tokens, and the old token used after the new one’s first call makes two tokens in use at once: the retry reads as another process’s call, which owes the 429 nothing',
    judged: [],
    async run(t) {
      const old = auth(t, undefined, 900);
      ok('x', await get(t, old, '/providers'));
      ok('y', await get(t, old, '/connectors'));
      await sleeper(t)(780_000);
      const fresh = auth(t, undefined, 900);
      ok('x renewed', await get(t, fresh, '/providers'));
      fault(t, { kind: 'rate_limited', route: 'listConnectors', retryAfterSeconds: 5, count: 1 });
      const refused = await get(t, old, '/connectors');
      if (refused.status !== 429) throw new Error(`answered ${refused.status}`);
      await sleeper(t)(1_000);
      ok('y retried', await get(t, fresh, '/connectors'));
    },
  },
];
