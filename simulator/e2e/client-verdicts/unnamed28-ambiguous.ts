import { auth, CONNECTION, fault, publish, readStream } from './unnamed-kit.ts';
import { sleeper } from './unnamed6-kit.ts';
import type { AmbiguousClient8 } from './unnamed8-ambiguous.ts';
import { get, ok } from './unnamed8-kit.ts';
import { createWith } from './unnamed11-kit.ts';

/**
 * Round 28, cases the interface does not decide: the rules' verdict today is stated (`judged`: the rules
 * failed), not claimed right or wrong. A change of rule that moves one must say why.
 */
export const AMBIGUOUS_28: AmbiguousClient8[] = [
  {
    does: 'buffers the stream in a channel of four, processes two before the cut, and resumes from the last number the buffer received (4)',
    why: '"resumes without gaps by sending Last-Event-ID ... (last number read)": 3 and 4 were received but never processed, so the consumer has a gap the service cannot see; messages sent count as read, so the rules find none',
    judged: [],
    async run(t) {
      const a = auth(t);
      fault(t, { kind: 'stream_cut', afterMessages: 4, count: 1 });
      const received = await readStream(t, a, { onOpen: () => publish(t, a.tenant, 4) });
      const last = received.at(-1);
      if (last !== 4) throw new Error(`received ${received.join()}`);
      await sleeper(t)(1_000);
      await readStream(t, a, { cursor: last, idleMs: 500, onOpen: () => publish(t, a.tenant, 1) });
    },
  },
  {
    does: 'is a DBOS workflow recovered 3 minutes after its create step was refused 500, re-running the step under the workflow’s key',
    why: '"the same key with the same content returns the same response again": the re-run is the same operation under its key, but it comes after the 120 s a retry is looked for in, so it is judged as a new call (and its attempts are not counted with the first)',
    judged: [],
    async run(t) {
      const a = auth(t);
      fault(t, { kind: 'internal', route: 'createConnection', count: 1 });
      const body = { ...CONNECTION, scopeLabel: 'Recovered Ravioli' };
      const first = await createWith(t, a, body, 'dbos-wf-recover-5a0e');
      if (first.status !== 500) throw new Error(`answered ${first.status}`);
      await sleeper(t)(180_000);
      ok('recovered', await createWith(t, a, body, 'dbos-wf-recover-5a0e'));
    },
  },
  {
    does: 'counts a 429’s Retry-After (2 s) from when it sent the request, sleeping 2 s less its 40 ms round trip',
    why: '"respect the wait time of the response": the interface does not say where the wait starts; the rules measure it from the answer leaving, so 1,960 ms after the answer is 40 ms short',
    judged: ['retry.respects-retry-after'],
    async run(t) {
      const a = auth(t);
      fault(t, { kind: 'rate_limited', route: 'listProviders', retryAfterSeconds: 2, count: 1 });
      const first = await get(t, a, '/providers');
      if (first.status !== 429) throw new Error(`answered ${first.status}`);
      await sleeper(t)(first.retryAfterMs - 40);
      ok('retry', await get(t, a, '/providers'));
    },
  },
  {
    does: 'serialises capabilities from a Python set: the retry of a create refused 500, under the same key, lists them in the other order',
    why: '"the same key with the same content": as a set the capabilities are unchanged, but the service compares canonical JSON, which keeps array order, so the retry is other content under the key',
    judged: ['idempotency.one-key-one-content'],
    async run(t) {
      const a = auth(t);
      fault(t, { kind: 'internal', route: 'createConnection', count: 1 });
      const body = { ...CONNECTION, scopeLabel: 'Unordered Udon' };
      const first = await createWith(t, a, body, 'set-order-2b9f');
      if (first.status !== 500) throw new Error(`answered ${first.status}`);
      await sleeper(t)(700);
      await createWith(t, a, { ...body, capabilities: [...body.capabilities].reverse() }, 'set-order-2b9f');
    },
  },
  {
    does: 'caches tokens by scope string, and two call sites ask the same scopes in another order: two long-lived tokens used alternately every 20 s for 6 minutes',
    why: '"request an access token ... renewed, not extended": neither token is replaced early, but one process holds two tokens of one client at once, which the rules read as two processes; nothing fails',
    judged: [],
    async run(t) {
      const byScope = new Map([
        ['orders.read payments.refund', auth(t, undefined, 3_600)],
        ['payments.refund orders.read', auth(t, undefined, 3_600)],
      ]);
      for (let s = 0; s < 360; s += 20)
        for (const [i, a] of [...byScope.values()].entries()) {
          ok('read', await get(t, a, i ? '/connectors' : '/connections'));
          await sleeper(t)(10_000);
        }
    },
  },
  {
    does: 'fetches a new token (3,600 s) for every call of a poller that reads every 16 s, in one tenant',
    why: '"Tokens are short-lived and are renewed, not extended": each token is dropped with nearly all its hour left; every one carries a single call 16 s after the last, which a job started anew every 16 s would send too, but no scheduler starts jobs at a steady cadence under 30 s after successes: since round 31 (a Telegraf input fetching a token every 10 s collection) a steady cadence of new tokens under 30 s is one run, and this fails auth.token-reused',
    judged: ['auth.token-reused'],
    async run(t) {
      for (let i = 0; i < 6; i++) {
        ok('read', await get(t, auth(t, undefined, 3_600), '/connections'));
        await sleeper(t)(16_000);
      }
    },
  },
];
