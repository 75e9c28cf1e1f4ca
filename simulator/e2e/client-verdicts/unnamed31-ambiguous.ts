import { held, untilHeld } from '../harness.ts';
import { api, auth, CONNECTION, fault, publish, readStream } from './unnamed-kit.ts';
import { seeded } from './unnamed4-kit.ts';
import { sleeper } from './unnamed6-kit.ts';
import type { AmbiguousClient8 } from './unnamed8-ambiguous.ts';
import { get, ok } from './unnamed8-kit.ts';
import { createWith } from './unnamed11-kit.ts';
import { ALL_TENANTS, as, TENANTS } from './unnamed30-kit.ts';
import { hedgedRead } from './unnamed31-kit.ts';

/**
 * Round 31, cases the interface does not decide: the rules' verdict today is stated (`judged`: the rules
 * failed), not claimed right or wrong. A change of rule that moves one must say why.
 */
export const AMBIGUOUS_31: AmbiguousClient8[] = [
  {
    does: 'is a .NET client on AddStandardHedgingHandler (Polly v8: a copy after 2 s) hedging a read held 5 s, the slower answer dropped',
    why: '"retry only after rate_limited and internal" against reads being safe: a hedge is no retry after a failure, yet a read repeats nothing that changes; the rules count only hedges of modifying calls',
    judged: [],
    async run(t) {
      const a = auth(t);
      fault(t, { kind: 'latency', route: 'listProviders', latencyMs: 5_000, count: 1 });
      await hedgedRead(t, a, '/providers', 2_000);
    },
  },
  {
    does: 'is a .NET client whose Idempotency-Key is set outside the hedging handler, so the hedge of a create held 5 s goes out 2 s later under the same key',
    why: '"the same key with the same content returns the same response again" makes the copy harmless (it is answered the first call’s outcome), but it goes out while the first is awaited, not after a failure: the rules pass it (round 2 counts a slow create hedged under its key as well-behaved), though README’s table lists a repeat "while the first was still awaited with the same key" under retry.only-after-failure',
    judged: [],
    async run(t) {
      const a = auth(t);
      fault(t, { kind: 'latency', route: 'createConnection', latencyMs: 5_000, count: 1 });
      const body = { ...CONNECTION, scopeLabel: 'Hedged Hummus' };
      const before = held(t);
      const first = createWith(t, a, body, 'hedge-same-key-31');
      await untilHeld(t, before);
      await sleeper(t)(2_000);
      await createWith(t, a, body, 'hedge-same-key-31');
      await sleeper(t)(4_000);
      await first;
    },
  },
  {
    does: 'corrects a create refused 400 (a one-character scopeLabel) and sends the corrected body under the SAME key',
    why: '"use a new key for each new operation" and "the same key with different content yields idempotency_conflict": whether a corrected request is a new operation, and whether a 400 binds its key, is not said; today the rule fails the key sent with other content',
    judged: ['idempotency.one-key-one-content'],
    async run(t) {
      const a = auth(t);
      const bad = await createWith(t, a, { ...CONNECTION, scopeLabel: 'C' }, 'fix-same-key-31');
      if (bad.status !== 400) throw new Error(`answered ${bad.status}`);
      await sleeper(t)(3_000);
      await createWith(t, a, { ...CONNECTION, scopeLabel: 'Corrected Ceviche' }, 'fix-same-key-31');
    },
  },
  {
    does: 'tries a newer Service-Version first (2027-01-01, not published), and after its 400 falls back to the current one',
    why: '"Sample calls send a header Service-Version with the version identifier": a probe for a future version is a call with an unpublished one; the remedy (another version after the 400) is no repeat; today the unpublished version fails the SHOULD rule (round 2 fails the same probe made on every call)',
    judged: ['version.service-version-sent'],
    async run(t) {
      const a = auth(t);
      await api(t, a, 'GET', '/connections', { version: '2027-01-01' });
      await api(t, a, 'GET', '/connections');
    },
  },
  {
    does: 'is an integrator whose read for one tenant is refused 429 (Retry-After 5 s) and whose next job, 1 s later, reads the same path for another tenant with the same token',
    why: '"respect the wait time of the response": whether a 429 holds off the client’s calls for its other tenants is not said; the rules group calls per client and tenant, so the other tenant’s read owes nothing',
    judged: [],
    options: ALL_TENANTS,
    async run(t) {
      const a = as(t, TENANTS[0], 900);
      fault(t, { kind: 'rate_limited', route: 'listConnections', tenant: TENANTS[0], retryAfterSeconds: 5, count: 1 });
      await get(t, a, '/connections');
      await sleeper(t)(1_000);
      await get(t, { ...a, tenant: TENANTS[1] }, '/connections');
      await sleeper(t)(5_000);
      await get(t, a, '/connections');
    },
  },
  {
    does: 'is a polling agent (every 10 s) retrying one failed poll every 2 s plus up to 200 ms until it succeeds, through a single burst of three 500s',
    why: '"retry with growing intervals": three waits of about 2 s do not grow, but one sequence whose jitter keeps its waits more than 5 % apart may not be told from a jittered schedule: the rules judge a single sequence only by pairs within 5 %, and this seed draws 2042, 2117, 2089 ms (within 5 %: fails; a draw 5 % apart passes, three bursts always fail)',
    judged: ['retry.growing-waits'],
    async run(t) {
      const a = auth(t);
      const draw = seeded(3195);
      for (let i = 0; i < 6; i++) {
        if (i === 3) fault(t, { kind: 'internal', route: 'listConnections', count: 3 });
        let r = await get(t, a, '/connections');
        for (let n = 0; n < 3 && r.status >= 500; n++) {
          await sleeper(t)(2_000 + Math.round(draw() * 200));
          r = await get(t, a, '/connections');
        }
        await sleeper(t)(10_000);
      }
    },
  },
  {
    does: 'is two pods sharing one token from a Redis cache: pod A’s read is refused 429 (Retry-After 5 s), pod B reads the same path for its own job 1 s later',
    why: '"respect the wait time of the response": pod B never got the 429, but processes are told apart by their tokens, and one shared token makes the two pods one process to the rules, so B’s read is A’s retry 1 s into 5 s',
    judged: ['retry.respects-retry-after'],
    async run(t) {
      const shared = auth(t);
      ok('warm', await get(t, shared, '/connections'));
      fault(t, { kind: 'rate_limited', route: 'listConnections', retryAfterSeconds: 5, count: 1 });
      await get(t, shared, '/connections');
      await sleeper(t)(1_000);
      await get(t, shared, '/connections');
    },
  },
  {
    does: 'is a queue consumer whose create succeeded but whose ack was lost, so the same process gets the message again 30 s later and sends the create again under its key',
    why: '"the same key with the same content returns the same response again" makes the redelivery safe, but the rules forgive a redelivery only to another process (another token); one process sending a succeeded key again reads as a repeat after a 2xx',
    judged: ['retry.only-after-failure'],
    async run(t) {
      const a = auth(t);
      const body = { ...CONNECTION, scopeLabel: 'Redelivered Rillettes' };
      ok('create', await createWith(t, a, body, 'msg-redeliver-31'));
      await sleeper(t)(30_000);
      await createWith(t, a, body, 'msg-redeliver-31');
    },
  },
  {
    does: 'is a serverless function fetching a token per invocation: invocation 1’s read is refused 429 (Retry-After 5 s), invocation 2 (another request, its own token) reads the same path 1 s later',
    why: '"respect the wait time of the response" binds the client, but invocation 2 never got the 429; tokens tell processes apart only when two are in use at once, so a token per invocation reads as one process renewing and the second read as a retry 1 s into 5 s',
    judged: ['retry.respects-retry-after'],
    async run(t) {
      fault(t, { kind: 'rate_limited', route: 'listConnections', retryAfterSeconds: 5, count: 1 });
      await get(t, auth(t), '/connections');
      await sleeper(t)(1_000);
      await get(t, auth(t), '/connections');
    },
  },
  {
    does: 'is a batch job whose stream is cut after 2 messages (it ends there), and a dashboard process of the same client (its own token) opening the stream from live 1 s later, without a cursor',
    why: '"After an interruption, the client resumes without gaps": the client’s stream was interrupted and its next stream carries no cursor, but that stream is another consumer starting from live; the two tokens are never in use at once, so the rules take the dashboard for the job reconnecting with a gap',
    judged: ['stream.resume-from-last-read'],
    async run(t) {
      const job = auth(t);
      fault(t, { kind: 'stream_cut', afterMessages: 2, count: 1 });
      await readStream(t, job, { onOpen: () => publish(t, job.tenant, 2) });
      await sleeper(t)(1_000);
      await readStream(t, auth(t), { idleMs: 400 });
    },
  },
];
