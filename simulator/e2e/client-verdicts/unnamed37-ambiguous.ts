import { api, auth, CONNECTION, fault } from './unnamed-kit.ts';
import { sleeper } from './unnamed6-kit.ts';
import type { AmbiguousClient8 } from './unnamed8-ambiguous.ts';
import { get, ok } from './unnamed8-kit.ts';
import { createWith } from './unnamed11-kit.ts';
import { ownToken } from './unnamed33-kit.ts';
import { openFaasWait } from './unnamed37-kit.ts';

/**
 * Round 37, cases the interface does not decide: the rules' verdict today is stated (`judged`: the rules
 * failed), not claimed right or wrong. A change of rule that moves one must say why.
 */
export const AMBIGUOUS_37: AmbiguousClient8[] = [
  {
    does: 'is an OpenFaaS async function scaled from zero: each queue-worker retry (10 s, 20 s, 40 s) of a create answered 500 lands on a cold replica that takes its own new token, the key (X-Call-Id) kept',
    why: '"Tokens are short-lived and are renewed, not extended": each replica is a new process and takes a token as it starts (a job started again), but one operation goes through four tokens with most of their lifetime left; the rules take tokens replaced after failed calls, at a back-off, as no churn, and the key is kept, so nothing fails',
    judged: [],
    async run(t) {
      fault(t, { kind: 'internal', route: 'createConnection', count: 3 });
      const body = { ...CONNECTION, scopeLabel: 'Cold Start Congee' };
      let r = await createWith(t, auth(t), body, 'call-c01d5ta7');
      for (let n = 0; n < 3 && r.status === 500; n++) {
        await sleeper(t)(openFaasWait(n));
        r = await createWith(t, auth(t), body, 'call-c01d5ta7');
      }
      ok('create', r);
    },
  },
  {
    does: 'retries a create answered 500 under the same key and body 2 s later, but with a newer Service-Version (the process was redeployed in between; both versions published)',
    why: '"the same key with the same content": the body is the same, the headers are not; the service compares the body only and replays, and whether the version is part of an operation\'s content the interface does not say; the rules follow the service',
    judged: [],
    async run(t) {
      const a = auth(t);
      fault(t, { kind: 'internal', route: 'createConnection', count: 1 });
      const body = { ...CONNECTION, scopeLabel: 'Redeployed Rendang' };
      const first = await api(t, a, 'POST', '/connections', { body, key: 'redeploy-1', version: '2026-06-12' });
      if (first.status !== 500) throw new Error(`answered ${first.status}`);
      await sleeper(t)(2_000);
      ok('again', await createWith(t, a, body, 'redeploy-1'));
    },
  },
  {
    does: 'renews its 10-minute token at half-life (at its first read with fewer than 300 s left: 280 s), reading every 20 s for 32 minutes',
    why: '"renewed, not extended" names no point of renewal: the rule calls a token replaced with more than half its lifetime (and more than 60 s) left churn; a half-life renewal, common in token libraries, leaves just under half and passes; one read earlier (300 s left, exactly half) is not more than half either',
    judged: [],
    async run(t) {
      const token = ownToken(t, 600, 300);
      for (let i = 0; i < 96; i++) {
        ok('read', await get(t, token(), '/connectors'));
        await sleeper(t)(20_000);
      }
    },
  },
];
