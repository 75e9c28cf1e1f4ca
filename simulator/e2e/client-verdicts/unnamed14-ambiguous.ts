import { held, untilHeld } from '../harness.ts';
import { api, auth, CONNECTION, fault, publish, readStream } from './unnamed-kit.ts';
import { seeded, uuid } from './unnamed4-kit.ts';
import { sleeper } from './unnamed6-kit.ts';
import type { AmbiguousClient8 } from './unnamed8-ambiguous.ts';
import { get, ok } from './unnamed8-kit.ts';
import { replayed } from './unnamed11-kit.ts';
import { slowHandlerCrash } from './unnamed14-edges.ts';

/**
 * Round 14, cases the interface does not decide: the rules' verdict today is stated (`judged`: the
 * rules failed), not claimed right or wrong. A change of rule that moves one must say why.
 */
export const AMBIGUOUS_14: AmbiguousClient8[] = [
  {
    does: 'is a pair of Zeebe workers: the job times out (10 s) while worker A still awaits its held create, and worker B (own token) sends the create with the same key',
    why: '"Modifying calls are repeat-safe through idempotency keys": a job redelivered after its timeout is what the key is for, but the copy comes while the first is still awaited, which the rules read as a repeat before any failure',
    judged: [],
    async run(t) {
      const body = { ...CONNECTION, scopeLabel: 'Zeebe Timeout Tavern' };
      const key = `zeebe-job-${uuid(seeded(1481))}`;
      fault(t, { kind: 'commit_then_fail', route: 'createConnection', failWith: 'timeout', holdMs: 30_000, count: 1 });
      const before = held(t);
      const a = api(t, auth(t), 'POST', '/connections', { body, key });
      await untilHeld(t, before);
      await sleeper(t)(10_000);
      replayed('worker B', await api(t, auth(t), 'POST', '/connections', { body, key }));
      await sleeper(t)(21_000);
      await a;
    },
  },
  {
    does: 'is a GitHub Actions matrix of three jobs (a token each, one read each, 100 ms apart); the first is refused 429 (Retry-After: 5), the other two read at once',
    why: '"Rate limits are configured per access": jobs of one access share the limit, yet each job is its own process that never saw the 429; jobs making one call each never overlap in time, so the rules cannot tell them from one process replacing its token (two tokens replaced with most of their life left, and the second job’s read taken for a retry of the first’s 429 after 100 ms)',
    judged: ['auth.token-reused', 'retry.respects-retry-after'],
    async run(t) {
      fault(t, { kind: 'rate_limited', route: 'listProviders', retryAfterSeconds: 5, count: 1 });
      const statuses: number[] = [];
      for (let job = 0; job < 3; job++) {
        statuses.push((await get(t, auth(t), '/providers')).status);
        await sleeper(t)(100);
      }
      if (statuses.join() !== '429,200,200') throw new Error(`answered ${statuses}`);
    },
  },
  {
    does: 'renews its 300 s token at exactly 80 % of its lifetime (60 s left), reading every 10 s for 16 minutes',
    why: '"Tokens are short-lived and are renewed, not extended": 60 s left is the rules’ bound ("more than 60 s left" is churn), so the verdict rests on microseconds of the test clock',
    judged: [],
    async run(t) {
      const sleep = sleeper(t);
      let a = auth(t, undefined, 300);
      let issued = t.sandbox.state.clock.now();
      for (let i = 0; i < 96; i++) {
        if (t.sandbox.state.clock.now() - issued >= 240_000) {
          a = auth(t, undefined, 300);
          issued = t.sandbox.state.clock.now();
        }
        ok(`read ${i}`, await get(t, a, i % 2 ? '/providers' : '/connectors'));
        await sleep(10_000);
      }
    },
  },
  {
    does: 'reconnects a cut stream sending both Last-Event-ID (3, the last read, from disk) and ?cursor=1 (a stale environment variable)',
    why: '"resumes without gaps by sending Last-Event-ID or the query parameter cursor": the interface names either, not both, nor which wins when they disagree',
    judged: [],
    async run(t) {
      const a = auth(t);
      fault(t, { kind: 'stream_cut', afterMessages: 3, count: 1 });
      const ids = await readStream(t, a, { idleMs: 600, onOpen: () => publish(t, a.tenant, 3) });
      const last = ids.at(-1) ?? 0;
      await sleeper(t)(1_000);
      await readStream(t, a, {
        cursor: 1,
        asQuery: true,
        idleMs: 600,
        headers: { 'last-event-id': String(last) },
        onOpen: () => publish(t, a.tenant, 1),
      });
    },
  },
  {
    does: 'stops reading while a slow handler processes message 3; message 4 arrives 2 s later unread, the process crashes 2 s after that and its successor resumes from 3',
    why: '"resumes without gaps by sending ... cursor (last number read)": 3 is the last number the client read, but message 4 was sent to it (it sat in the socket), and the burst exception covers only messages arriving within 1 s of the close, so the rules count 4 as read ("resumed from 3 after reading up to 4")',
    judged: ['stream.resume-from-last-read'],
    async run(t) {
      const ids = await slowHandlerCrash(t);
      if (ids[0] !== 4) throw new Error(`successor read ${ids}`);
    },
  },
];
