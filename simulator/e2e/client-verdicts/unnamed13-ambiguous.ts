import { sleepOn } from '../harness.ts';
import { api, auth, CONNECTION, fault, publish, READS, readStream } from './unnamed-kit.ts';
import { checkReceiver } from './unnamed-run.ts';
import { seeded, uuid } from './unnamed4-kit.ts';
import { sleeper } from './unnamed6-kit.ts';
import type { AmbiguousClient8 } from './unnamed8-ambiguous.ts';
import { get, ok } from './unnamed8-kit.ts';
import { createWith, loop, replayed } from './unnamed11-kit.ts';
import { TRIMMING_RECEIVER_13 } from './unnamed13-receivers.ts';

/**
 * Round 13, cases the interface does not decide: the rules' verdict today is stated (`judged`: the
 * rules failed), not claimed right or wrong. A change of rule that moves one must say why.
 */
export const AMBIGUOUS_13: AmbiguousClient8[] = [
  {
    does: 'is a Make.com scenario whose Break error handler retries a failed create 3 times at a fixed 15-minute interval with the same key',
    why: '"retry with growing intervals": the waits do not grow, but each is far beyond the 120 s in which the rules look for a retry; whether a retry 15 minutes later is still the same operation the interface does not say',
    judged: [],
    async run(t) {
      const a = auth(t, undefined, 3_600);
      fault(t, { kind: 'internal', route: 'createConnection', count: 3 });
      const body = { ...CONNECTION, scopeLabel: 'Make Break Brasserie' };
      ok(
        'create',
        await loop(
          sleeper(t),
          () => createWith(t, a, body, 'make-scenario-42-exec-9f1'),
          () => 15 * 60_000,
          3,
        ),
      );
    },
  },
  {
    does: 'is a Dagster op (RetryPolicy max_retries 3, exponential from 1 s, jitter PLUS_MINUS) whose every attempt runs in a new step process that fetches its own token',
    why: '"Tokens are short-lived and are renewed, not extended": each process rightly fetches a token, but one operation then uses four tokens a few seconds apart, each with most of its life left: a run of calls, so auth.token-reused reads it as churn',
    judged: ['auth.token-reused'],
    async run(t) {
      const random = seeded(1391);
      fault(t, { kind: 'commit_then_fail', route: 'createConnection', failWith: 'internal', count: 1 });
      fault(t, { kind: 'internal', route: 'createConnection', count: 2 });
      const body = { ...CONNECTION, scopeLabel: 'Dagster Dumplings' };
      const key = `dagster-run-${uuid(random)}-op-create`;
      const wait = (n: number) => Math.round(1_000 * 2 ** n * (1 + (random() * 2 - 1) * 0.3));
      replayed('op', await loop(sleeper(t), () => createWith(t, auth(t, undefined, 3_600), body, key), wait, 3));
    },
  },
  {
    does: 'honours a gateway 503’s Retry-After: 0 by retrying at once, three times, on three reads',
    why: '"respect the wait time of the response, retry with growing intervals": the client did what the answer said (a wait of 0 s), and a 503 is no status of the interface. Judged retry.growing-waits until session 21; since, a Retry-After of 0 is a wait the server set like any other (the README: such a wait is not judged), so nothing fails',
    judged: [],
    async run(t) {
      const a = auth(t);
      const sleep = sleeper(t);
      for (const [route, path] of READS.slice(0, 3)) {
        fault(t, { kind: 'unavailable', route, retryAfterSeconds: 0, count: 3 });
        ok(
          path,
          await loop(
            sleep,
            () => get(t, a, path),
            (_, r) => r.retryAfterMs,
            3,
          ),
        );
        await sleep(5_000);
      }
    },
  },
  {
    does: 'resumes a cut stream with its last id in the URL as ?lastEventId= (an EventSource polyfill option), which the service refuses 400, and stops',
    why: '"resumes without gaps by sending Last-Event-ID or the query parameter cursor": the service refuses the unknown query field (invalid_request), so no stream is reopened and the rules see no reconnect (not-observed); the consumer has a gap nobody reports, but it is the service, not a rule, that tells it',
    judged: [],
    async run(t) {
      const a = auth(t);
      fault(t, { kind: 'stream_cut', afterMessages: 3, count: 1 });
      const ids = await readStream(t, a, { idleMs: 800, onOpen: () => publish(t, a.tenant, 3) });
      if (ids.length !== 3) throw new Error(`read ${ids}`);
      await sleepOn(t, 1_000);
      const res = await t.fetch(`${t.baseUrl}/api/public/v1/stream?lastEventId=${ids[2]}`, {
        headers: { authorization: `Bearer ${a.token}`, 'x-service-tenant': a.tenant, 'service-version': '2026-07-01' },
      });
      if (res.status !== 400) throw new Error(`answered ${res.status}`);
      await res.body?.cancel().catch(() => undefined);
    },
  },
  {
    does: 'is a receiver that verifies request.body.strip() (Django) instead of the unchanged raw body',
    why: '"over ... the unchanged raw request body": it verifies a changed body only when a delivery ends in whitespace; no case of the receiver check does (valid-spaced has inner spaces and line breaks only), so it passes, and it would fail only for bodies the service may never send',
    judged: [],
    run: (t) => checkReceiver(t, TRIMMING_RECEIVER_13),
  },
  {
    does: 'reads /connectors twice a second apart, then retries its third read through four 500s at a fixed 1 s (a constant-delay retry, no growth)',
    why: '"retry with growing intervals": to the rules the same read repeated at the cadence of the last successful ones is polling, which they do not judge as backoff; a constant-delay retry that happens to match the cadence cannot be told from a poller by its calls alone',
    judged: [],
    async run(t) {
      const a = auth(t);
      const sleep = sleeper(t);
      ok('read 1', await get(t, a, '/connectors'));
      await sleep(1_000);
      ok('read 2', await get(t, a, '/connectors'));
      await sleep(1_000);
      fault(t, { kind: 'internal', route: 'listConnectors', count: 4 });
      ok(
        'read 3',
        await loop(
          sleep,
          () => get(t, a, '/connectors'),
          () => 1_000,
          4,
        ),
      );
    },
  },
  {
    does: 'spreads its reads over two tokens of one client round-robin to double its rate limit; a read refused 429 (Retry-After: 5) is sent at once on the other token, and the refused token rests 5 s',
    why: '"Lasting high load is to be agreed beforehand instead of being split up" and "respect the wait time": two tokens in use at once are two processes to the rules, so the other token’s read is its own call and owes nothing; one process splitting its load cannot be told from two pods by their calls',
    judged: [],
    async run(t) {
      const clock = t.sandbox.state.clock;
      const pool = [auth(t, undefined, 3_600), auth(t, undefined, 3_600)].map((a) => ({ a, restUntil: 0 }));
      const sleep = sleeper(t);
      let n = 0;
      const next = () => {
        for (let k = 0; k < pool.length; k++) {
          const slot = pool[n++ % pool.length];
          if (slot && slot.restUntil <= clock.now()) return slot;
        }
        throw new Error('every token rests');
      };
      for (let i = 0; i < 8; i++) {
        if (i === 3) fault(t, { kind: 'rate_limited', route: 'listConnections', retryAfterSeconds: 5, count: 1 });
        const slot = next();
        const r = await get(t, slot.a, '/connections');
        if (r.status === 429) {
          slot.restUntil = clock.now() + r.retryAfterMs;
          await sleep(50);
          ok('dodged', await get(t, next().a, '/connections'));
        }
        await sleep(300);
      }
      await sleep(5_000);
      ok('rested token back', await get(t, next().a, '/connections'));
      ok('and the other', await get(t, next().a, '/connections'));
    },
  },
  {
    does: 'is a React Native app calling GET /connections straight from the phone with a PKCE token (okhttp User-Agent, no Origin)',
    why: '"The interface is called from servers only" but the flow table gives PKCE to "mobile apps and clients without a safe secret"; no rule looks at a phone (only an Origin or a CORS preflight marks a browser), so it passes',
    judged: [],
    async run(t) {
      const a = auth(t);
      ok('read', await api(t, a, 'GET', '/connections', { headers: { 'user-agent': 'okhttp/4.12.0' } }));
    },
  },
];
