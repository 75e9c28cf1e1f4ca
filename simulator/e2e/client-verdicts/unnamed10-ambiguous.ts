import { sleepOn } from '../harness.ts';
import { api, auth, CONNECTION, fault, publish, readStream } from './unnamed-kit.ts';
import { sleeper } from './unnamed6-kit.ts';
import type { AmbiguousClient8 } from './unnamed8-ambiguous.ts';
import { get, ok } from './unnamed8-kit.ts';

/**
 * Round 10, cases the interface does not decide: the rules' verdict today is stated (`judged`: the
 * rules failed), not claimed right or wrong. A change of rule that moves one must say why.
 */
export const AMBIGUOUS_10: AmbiguousClient8[] = [
  {
    does: 'reconnects to the stream with cursor 0 after every deploy, the deploys 10 minutes apart, each time after a cut',
    why: '"After an interruption, the client resumes without gaps by sending Last-Event-ID or the query parameter cursor (last number read)": cursor 0 is not the last number read, yet nothing says how long after an interruption a reconnect is still a resumption; the rules judge reconnects within 5 minutes of a stream’s end only',
    judged: [],
    async run(t) {
      for (let deploy = 0; deploy < 3; deploy++) {
        const a = auth(t);
        fault(t, { kind: 'stream_cut', afterMessages: 3, count: 1 });
        await readStream(t, a, {
          ...(deploy === 0 ? {} : { cursor: 0 }),
          idleMs: 800,
          onOpen: () => publish(t, a.tenant, 3),
        });
        await sleepOn(t, 600_000);
      }
    },
  },
  {
    does: 'renews its 120 s tokens once 65 s or less are left (a 60 s refresh margin plus 5 s of slack for its 5 s tick), reading every 5 s for 10 minutes',
    why: '"Tokens are short-lived and are renewed, not extended": a fixed one-minute refresh margin is common practice, but with 2-minute tokens it replaces each token with just over half its life and over 60 s left, which the rule counted as churn until session 28; a token held a third of its life or more (55 of 120 s) and renewed with at most 5 minutes left is now renewed near expiry',
    judged: [],
    async run(t) {
      const sleep = sleeper(t);
      let a = auth(t, undefined, 120);
      let issuedAt = t.sandbox.state.clock.now();
      for (let i = 0; i < 120; i++) {
        if (t.sandbox.state.clock.now() - issuedAt >= 55_000) {
          a = auth(t, undefined, 120);
          issuedAt = t.sandbox.state.clock.now();
        }
        ok('read', await get(t, a, i % 2 ? '/providers' : '/connectors'));
        await sleep(5_000);
      }
    },
  },
  {
    does: 'gets idempotency_conflict for a create whose key it reused by mistake, and sends the first create’s content again under a new key (a second connection of the first venue)',
    why: '"use a new key for each new operation": the reused key is a fault (idempotency.one-key-one-content); the content sent again under a new key after the first succeeded duplicates an operation, which no black-box rule can tell from a new one',
    judged: ['idempotency.one-key-one-content'],
    async run(t) {
      const a = auth(t);
      const sleep = sleeper(t);
      ok('first', await api(t, a, 'POST', '/connections', { body: CONNECTION, key: 'dup-key-0001' }));
      await sleep(1_000);
      const other = { ...CONNECTION, scopeLabel: 'Other Venue Wing' };
      const clash = await api(t, a, 'POST', '/connections', { body: other, key: 'dup-key-0001' });
      if (clash.status !== 409) throw new Error(`answered ${clash.status}`);
      await sleep(300);
      ok('again', await api(t, a, 'POST', '/connections', { body: CONNECTION, key: 'dup-key-0002' }));
    },
  },
  {
    does: 'retries a capability check refused 429 (Retry-After: 2) after 300 ms, its body rebuilt with the default environment now explicit ("environment": "sandbox")',
    why: '"respect the wait time of the response": the service answers both bodies alike (sandbox is the default), yet as content they differ, so the rules see a new check, not a retry inside the Retry-After; whether an equivalent request counts as the same is not said',
    judged: [],
    async run(t) {
      const a = auth(t);
      fault(t, { kind: 'rate_limited', route: 'checkCapability', retryAfterSeconds: 2, count: 1 });
      const body = { connectorId: CONNECTION.connectorId, capability: 'orders.read' };
      const first = await api(t, a, 'POST', '/capabilities', { body });
      if (first.status !== 429) throw new Error(`answered ${first.status}`);
      await sleeper(t)(300);
      ok('check', await api(t, a, 'POST', '/capabilities', { body: { ...body, environment: 'sandbox' } }));
    },
  },
  {
    does: 'uses one operation key on two routes: registers a webhook under it, then creates a connection under the same key (answered 409 idempotency_conflict)',
    why: '"The same key with different content yields idempotency_conflict" and "use a new key for each new operation": whether keys are scoped per route is not said; the simulator keeps one key space across routes and answers 409, and the rule fails what was answered idempotency_conflict',
    judged: ['idempotency.one-key-one-content'],
    async run(t) {
      const a = auth(t);
      const key = 'onboarding-op-5521';
      const hook = { url: 'http://127.0.0.1:9/hooks/orders', events: ['order.created'] };
      const first = await api(t, a, 'POST', '/webhooks', { body: hook, key });
      if (first.status !== 200) throw new Error(`webhook answered ${first.status}`);
      await sleeper(t)(500);
      const second = await api(t, a, 'POST', '/connections', {
        body: { ...CONNECTION, scopeLabel: 'Shared Key Shack' },
        key,
      });
      if (second.status !== 409) throw new Error(`create answered ${second.status}`);
    },
  },
  {
    does: 'has two threads renew its shared 300 s token at the same expiry check (a cache stampede): the first new token carries one call, the second overwrites it 500 ms later and carries the rest; reading every 10 s for 16 minutes',
    why: '"Tokens are short-lived and are renewed, not extended": no token is extended or used past expiry, but every renewal wastes a fresh token after one call, which the rule counts as churn (a token replaced with all its life left)',
    judged: ['auth.token-reused'],
    async run(t) {
      const sleep = sleeper(t);
      let a = auth(t, undefined, 300);
      let expiresAt = t.sandbox.state.clock.now() + 300_000;
      for (let i = 0; i < 96; i++) {
        if (expiresAt - t.sandbox.state.clock.now() < 10_000) {
          a = auth(t, undefined, 300);
          ok('first thread', await get(t, a, '/connectors'));
          await sleep(500);
          a = auth(t, undefined, 300);
          expiresAt = t.sandbox.state.clock.now() + 300_000;
        }
        ok('read', await get(t, a, i % 2 ? '/providers' : '/capabilities'));
        await sleep(10_000);
      }
    },
  },
];
