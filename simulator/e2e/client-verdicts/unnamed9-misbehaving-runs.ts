import { api, auth, CONNECTION, fault } from './unnamed-kit.ts';
import type { FaultyClient } from './unnamed-misbehaving.ts';
import { seeded } from './unnamed4-kit.ts';
import { sleeper } from './unnamed6-kit.ts';
import { get, ok, retrying } from './unnamed8-kit.ts';

/**
 * Round 9, misbehaving runs: queues, scripts, configuration tools, a browser add-in, a batch key, a
 * secret rotation and a skewed host clock. Each must fail exactly its rule, with evidence.
 */
export const MISBEHAVING_RUNS_9: FaultyClient[] = [
  // "Clients retry with growing intervals": an SQS-fed Lambda whose failed message simply comes back
  // after the queue's fixed 30 s visibility timeout, three times (maxReceiveCount 4).
  {
    does: 'is an AWS Lambda fed by SQS whose failed message comes back after the queue’s fixed 30 s visibility timeout, four receives of one create under the message id (then the DLQ)',
    fails: ['retry.growing-waits'],
    async run(t) {
      const warm = auth(t, undefined, 3_600);
      fault(t, { kind: 'internal', route: 'createConnection', count: 4 });
      const body = { ...CONNECTION, scopeLabel: 'Fixed Visibility Fishbar' };
      await retrying(
        sleeper(t),
        () => api(t, warm, 'POST', '/connections', { body, key: 'sqs-msg-9e02-0001' }),
        () => 30_000,
      );
    },
  },
  // "use a new key for each new operation" (and not for each attempt): a bash loop with KEY=$(uuidgen)
  // inside it, so a committed-then-failed create becomes two connections.
  {
    does: 'is a bash for-loop of four tries that runs KEY=$(uuidgen) inside the loop, so a create committed then answered 500 is sent again under a new key 2 s later',
    fails: ['retry.same-key-and-content'],
    async run(t) {
      const a = auth(t);
      const random = seeded(931);
      fault(t, { kind: 'commit_then_fail', route: 'createConnection', failWith: 'internal', count: 1 });
      const body = { ...CONNECTION, scopeLabel: 'Uuidgen Underpass' };
      let attempt = 0;
      await retrying(
        sleeper(t),
        () => api(t, a, 'POST', '/connections', { body, key: `c0ffee00-0000-4000-8000-00000000000${attempt++}` }),
        (n) => 2_000 * 2 ** n + Math.floor(random() * 250),
      );
    },
  },
  // The same sentence: the uuidgen inside a wrapper that curl --max-time 5 runs per try, so a create
  // the service holds (committed) is given up on after 5 s and sent again under a new key 1 s later.
  // The report is asked after the service's 20 s hold has ended.
  {
    does: 'is a bash wrapper minting KEY=$(uuidgen) per curl --max-time 5 try: a create the service holds (committed) is given up on and sent again under a new key 1 s later, the report asked after the hold',
    fails: ['retry.same-key-and-content'],
    run: (t) => heldCreateGivenUp(t, true),
  },
  // The same client, the report asked at once, while the service still holds the first call: the give-up
  // is noted when the client goes (a provisional record), not only when the hold ends.
  {
    does: 'is the same bash wrapper, the report asked at once while the service still holds the first call',
    fails: ['retry.same-key-and-content'],
    run: (t) => heldCreateGivenUp(t, false),
  },
  // "the same key with the same content": a Celery task builds capabilities with list(set(...)); its
  // retry runs in another worker process whose PYTHONHASHSEED orders the set differently, so the
  // retry carries the key with other content (answered idempotency_conflict).
  {
    does: 'is a Celery task whose body lists capabilities from a Python set: its retry, in another worker process (another PYTHONHASHSEED), sends the same key with the capabilities in another order',
    fails: ['idempotency.one-key-one-content'],
    async run(t) {
      const a = auth(t);
      fault(t, { kind: 'internal', route: 'createConnection', count: 1 });
      const caps = ['orders.read', 'payments.refund', 'menu.read'];
      const body = (c: string[]) => ({ ...CONNECTION, scopeLabel: 'Hash Seed Hall', capabilities: c });
      const key = 'celery-task-5d1e-create';
      await api(t, a, 'POST', '/connections', { body: body(caps), key });
      await sleeper(t)(1_000 + Math.floor(seeded(932)() * 1_000));
      await api(t, auth(t), 'POST', '/connections', { body: body([...caps].reverse()), key });
    },
  },
  // "use a new key for each new operation" read backwards: a Temporal activity whose key includes
  // activity.GetInfo(ctx).Attempt, so each attempt of one create is a new operation to the service.
  {
    does: 'is a Temporal activity whose Idempotency-Key includes activity.GetInfo(ctx).Attempt, so a create committed then answered 500 is retried 1 s later under a new key',
    fails: ['retry.same-key-and-content'],
    async run(t) {
      const a = auth(t);
      fault(t, { kind: 'commit_then_fail', route: 'createConnection', failWith: 'internal', count: 1 });
      const body = { ...CONNECTION, scopeLabel: 'Attempt Number Annex' };
      let attempt = 1;
      await retrying(
        sleeper(t),
        () => api(t, a, 'POST', '/connections', { body, key: `wf-7781:activity-3:attempt-${attempt++}` }),
        (n) => 1_000 * 2 ** n,
      );
    },
  },
  // "Access credentials stay in the partner's backend and are never sent from a browser": an Office
  // add-in's task pane (a browser iframe) calling the service with a token from the add-in's storage.
  {
    does: 'is an Office add-in task pane (a browser iframe, Origin: https://addin.partner-pos.example) reading connections with a token kept in the add-in’s roaming settings',
    fails: ['auth.no-browser-credentials'],
    async run(t) {
      const a = auth(t);
      const headers = { origin: 'https://addin.partner-pos.example', 'sec-fetch-mode': 'cors' };
      await api(t, a, 'GET', '/connections', { headers });
      await api(t, a, 'GET', '/providers', { headers });
    },
  },
  // "use a new key for each new operation": one key pooled per batch, sent with every create of the
  // batch; the service answers the second and third idempotency_conflict.
  {
    does: 'pools one Idempotency-Key per import batch and sends it with each of the batch’s three creates',
    fails: ['idempotency.one-key-one-content'],
    async run(t) {
      const a = auth(t);
      const sleep = sleeper(t);
      for (const venue of ['Pooled Key Pier', 'Pooled Key Plaza', 'Pooled Key Parade']) {
        await api(t, a, 'POST', '/connections', {
          body: { ...CONNECTION, scopeLabel: venue },
          key: 'batch-2026-11-27-0001',
        });
        await sleep(300);
      }
    },
  },
  // "retry only after rate_limited and internal": an Ansible `uri` task with `until: result.status ==
  // 200`, retries 3, delay 5 re-sends a create the service refused with 400 (a one-letter scopeLabel).
  {
    does: 'is an Ansible uri task with until: result.status == 200, retries 3, delay 5, re-sending a create refused with 400 under the same key',
    fails: ['retry.only-after-failure'],
    async run(t) {
      const a = auth(t);
      const body = { ...CONNECTION, scopeLabel: 'Q' };
      const r = await retrying(
        sleeper(t),
        () => api(t, a, 'POST', '/connections', { body, key: 'ansible-play-42-task-7' }),
        () => 5_000,
        { retryIf: (x) => x.status !== 200 },
      );
      if (r.status !== 400) throw new Error(`answered ${r.status}`);
    },
  },
  // "Tokens are short-lived and are renewed, not extended": after a secret rotation its token cache
  // compares each call's secret with the one stored at start-up, never updated, so every call misses
  // and fetches a new token.
  {
    does: 'rotates its client secret mid-run, after which its token cache (keyed by the secret read at start-up, never updated) misses on every call and fetches a new 15-minute token per read, every 2 s',
    fails: ['auth.token-reused'],
    async run(t) {
      const sleep = sleeper(t);
      const cached = auth(t, undefined, 900);
      for (let i = 0; i < 10; i++) {
        ok('before', await get(t, cached, '/connections'));
        await sleep(2_000);
      }
      for (let i = 0; i < 10; i++) {
        ok('after', await get(t, auth(t, undefined, 900), '/connections'));
        await sleep(2_000);
      }
    },
  },
  // The same sentence: it reads `exp` from the JWT against a host clock 5 minutes fast and renews
  // "60 s before expiry", i.e. 10-minute tokens with 6 minutes left.
  {
    does: 'checks its 10-minute tokens’ exp against a host clock 5 minutes fast and renews them "60 s before expiry", i.e. with 6 minutes left, reading every 10 s for 40 minutes',
    fails: ['auth.token-reused'],
    async run(t) {
      const sleep = sleeper(t);
      let a = auth(t, undefined, 600);
      let issuedAt = 0;
      for (let s = 0; s < 2_400; s += 10) {
        if (s - issuedAt >= 240) {
          a = auth(t, undefined, 600);
          issuedAt = s;
        }
        ok('read', await get(t, a, '/connections'));
        await sleep(10_000);
      }
    },
  },
];

/**
 * A bash wrapper minting a key per `curl --max-time 5` try: a create the service holds (committed, 20 s)
 * is given up on and sent again under a new key 1 s later: two connections. `afterHold`: the report is
 * asked once the hold has ended (a call the service still holds is not yet in the record).
 */
export async function heldCreateGivenUp(t: Parameters<typeof auth>[0], afterHold: boolean): Promise<void> {
  const a = auth(t);
  fault(t, { kind: 'commit_then_fail', route: 'createConnection', failWith: 'timeout', holdMs: 20_000, count: 1 });
  const body = { ...CONNECTION, scopeLabel: 'Held Call Hollow' };
  let attempt = 0;
  const send = () =>
    api(t, a, 'POST', '/connections', {
      body,
      key: `5eed0000-0000-4000-8000-00000000000${attempt++}`,
      timeoutMs: 5_000,
    });
  ok('the second try', await retrying(sleeper(t), send, () => 1_000));
  if (t.sandbox.state.connections.count() !== 2) throw new Error('expected the duplicate connection');
  if (afterHold) await sleeper(t)(20_000);
}
