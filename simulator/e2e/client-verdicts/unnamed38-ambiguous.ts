import { auth, CONNECTION, fault } from './unnamed-kit.ts';
import { seeded } from './unnamed4-kit.ts';
import { sleeper } from './unnamed6-kit.ts';
import type { AmbiguousClient8 } from './unnamed8-ambiguous.ts';
import { get, ok } from './unnamed8-kit.ts';
import { createWith, loop } from './unnamed11-kit.ts';
import { EXQ_DEFAULT_RETRIES, exqBackoff } from './unnamed38-kit.ts';

/**
 * Round 38, cases the interface does not decide: the rules' verdict today is stated (`judged`: the rules
 * failed), not claimed right or wrong. A change of rule that moves one must say why.
 */
export const AMBIGUOUS_38: AmbiguousClient8[] = [
  {
    does: 'runs two pods sharing one token from a Redis cache; pod A gets a 429 (Retry-After 3) on /connectors and waits it out, pod B reads /connectors 1 s after the 429 on its own schedule',
    why: '"respect the wait time of the response": pod B never saw the 429, but on the wire the two pods are one process (one token, as the rules tell processes apart); whether a Retry-After binds the client or the caller that got it the interface does not say',
    judged: ['retry.respects-retry-after'],
    async run(t) {
      const shared = auth(t);
      for (let i = 0; i < 3; i++) {
        ok('a', await get(t, shared, '/connectors'));
        await sleeper(t)(2_000);
      }
      fault(t, { kind: 'rate_limited', route: 'listConnectors', retryAfterSeconds: 3, count: 1 });
      const refused = await get(t, shared, '/connectors');
      if (refused.status !== 429) throw new Error(`answered ${refused.status}`);
      await sleeper(t)(1_000);
      ok('pod b', await get(t, shared, '/connectors'));
      await sleeper(t)(2_100);
      ok('pod a', await get(t, shared, '/connectors'));
    },
  },
  {
    does: 'sends a create refused 400 (an unknown environment) again 1 s later under the same key with the environment corrected',
    why: '"use a new key for each new operation": the corrected body is the remedy of the 400, but whether it is the same operation (one key) or a new one (a new key) the interface does not say; the service stored nothing under the key and answers the corrected create 200, while the rule takes the key sent with other content',
    judged: ['idempotency.one-key-one-content'],
    async run(t) {
      const a = auth(t);
      const body = { ...CONNECTION, scopeLabel: 'Corrected Curry' };
      const bad = await createWith(t, a, { ...body, environment: 'staging-eu' }, 'corrected-1');
      if (bad.status !== 400) throw new Error(`answered ${bad.status}`);
      await sleeper(t)(1_000);
      const again = await createWith(t, a, body, 'corrected-1');
      if (again.status !== 200) throw new Error(`corrected answered ${again.status} ${JSON.stringify(again.json)}`);
    },
  },
  {
    does: 'polls /connectors every 5 s and keeps that cadence after a 429 that said Retry-After 10 (its next poll 5 s later)',
    why: '"A read polled at its cadence through failures is polling", yet "respect the wait time of the response": a poll is no retry, but it comes before the server said it may; the rules take the next call to the same read as its retry',
    judged: ['retry.respects-retry-after'],
    async run(t) {
      const a = auth(t);
      for (let i = 0; i < 8; i++) {
        if (i === 4) fault(t, { kind: 'rate_limited', route: 'listConnectors', retryAfterSeconds: 10, count: 1 });
        await get(t, a, '/connectors');
        await sleeper(t)(5_000);
      }
    },
  },
  {
    does: 'is an Exq job on its default max_retries (25), its jid as the key, a create through four 500s: five attempts',
    why: '"A sample client makes up to 4 attempts": Exq waits 22 s, 121 s, 160 s and 391 s, so only the first two attempts lie within the 120 s in which the rules look for a retry; the key ties all five together, which the rules do not follow beyond that window (the trade-off against load scripts and schedulers that repeat content, as rounds 7, 13 and 15 state)',
    judged: [],
    async run(t) {
      const a = auth(t, undefined, 3_600);
      fault(t, { kind: 'internal', route: 'createConnection', count: 4 });
      const body = { ...CONNECTION, scopeLabel: 'Exq Enchiladas' };
      const send = () => createWith(t, a, body, 'jid-a1b2c3d4e5');
      ok('create', await loop(sleeper(t), send, exqBackoff(seeded(3852)), EXQ_DEFAULT_RETRIES));
    },
  },
  {
    does: 'is a Broadway SQS pipeline (visibility timeout 300 s) keying a create by the message’s ReceiptHandle, new on each receive: its redelivery after a 500 carries another key',
    why: '"the same key with the same content": the redelivery is the same message, but it comes 300 s after the 500, beyond the 120 s in which the rules look for a retry, so it reads as a new operation under its own key (as round 15’s SAP CPI iFlow at 3 minutes; the same client at 1 minute is caught)',
    judged: [],
    async run(t) {
      const a = auth(t, undefined, 3_600);
      fault(t, { kind: 'internal', route: 'createConnection', count: 1 });
      const body = { ...CONNECTION, scopeLabel: 'Receipt Handle Ravioli' };
      const handles = ['AQEBwJnKyrHigUMZj6rYigCgxlaS3SLy0a', 'AQEBzWwaftRI0KuVm4tP7q1rGgNqicHq'];
      const send = (n: number) => createWith(t, a, body, `rh-${handles[n] ?? n}`);
      ok('create', await loop(sleeper(t), send, () => 300_000, 1));
    },
  },
];
