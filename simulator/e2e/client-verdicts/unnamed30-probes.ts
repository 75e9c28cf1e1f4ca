import type { Target } from '../harness.ts';
import { api, auth, CONNECTION, fault, type UnnamedClient2 } from './unnamed-kit.ts';
import type { FaultyClient } from './unnamed-misbehaving.ts';
import { sleeper } from './unnamed6-kit.ts';
import type { AmbiguousClient8 } from './unnamed8-ambiguous.ts';
import { get, ok } from './unnamed8-kit.ts';
import { createWith } from './unnamed11-kit.ts';

/**
 * Round 30, edges of what the rules take as a remedy, a new operation or polling: a new token after a 401
 * on a create (the remedy, key kept), a new token after a 403 (no remedy for it), a create refused 400
 * serialised anew under a new key (no change), a create's outcome polled by replaying it, a load
 * script's first create failing before any cadence exists.
 */
/**
 * A worker (its own token, in use) gets a 429 (Retry-After 6 s) for a create and dies; a sibling (its own
 * token) picks the job up `afterMs` later and sends it under the job's key.
 */
async function siblingTakesOver(t: Target, afterMs: number) {
  const worker = auth(t);
  const sibling = auth(t);
  ok('sibling', await get(t, sibling, '/connectors'));
  fault(t, { kind: 'rate_limited', route: 'createConnection', retryAfterSeconds: 6, count: 1 });
  const body = { ...CONNECTION, scopeLabel: 'Sibling Souvlaki' };
  const first = await createWith(t, worker, body, 'job-7781-create');
  if (first.status !== 429) throw new Error(`answered ${first.status}`);
  await sleeper(t)(afterMs);
  ok('take-over', await createWith(t, sibling, body, 'job-7781-create'));
}

export const PROBES_WELL_BEHAVED_30: UnnamedClient2[] = [
  // "remedy: request a new access token": the create refused 401 (token expired) goes again with a new
  // token and its key; the operation is the same, so its key stays.
  {
    does: 'is a Symfony Messenger handler whose create is refused 401 (token expired): it takes a new token and sends the create again under the same key',
    pass: ['auth.renewed-after-expiry'],
    async run(t) {
      const old = auth(t, undefined, 60);
      ok('first read', await get(t, old, '/connectors'));
      await sleeper(t)(90_000);
      const body = { ...CONNECTION, scopeLabel: 'Messenger Moussaka' };
      const refused = await createWith(t, old, body, 'messenger-env-7c2e');
      if (refused.status !== 401) throw new Error(`answered ${refused.status}`);
      await sleeper(t)(300);
      ok('create', await createWith(t, auth(t), body, 'messenger-env-7c2e'));
    },
  },
  // "respect the wait time of the response": the job record keeps the 429's not-before time, and the
  // sibling that takes the job over waits until then.
  {
    does: 'is a worker whose create is refused 429 (Retry-After 6 s) before it dies: a sibling process (its own token) takes the job over after the not-before time the job record kept, under its key',
    pass: ['retry.respects-retry-after', 'retry.same-key-and-content'],
    run: (t) => siblingTakesOver(t, 6_000),
  },
];

export const PROBES_MISBEHAVING_30: FaultyClient[] = [
  // "remedy: request a new access token" is the remedy of a 401; a 403 (access not released for the
  // tenant) is no token problem, and the read with a new token asks the same thing again.
  {
    does: 'takes a new token after a 403 (access not released for the tenant), as if it were a 401, and repeats the read once',
    fails: ['retry.only-after-failure'],
    async run(t) {
      const refused = await get(t, { ...auth(t), tenant: 'alpine-bistro' }, '/connections');
      if (refused.status !== 403) throw new Error(`answered ${refused.status}`);
      await sleeper(t)(1_000);
      await get(t, { ...auth(t), tenant: 'alpine-bistro' }, '/connections');
    },
  },
  // "invalid_request ... correct the request": the create is rebuilt from its form (other key order,
  // indented) under a new key, but its content is the same, so the 400 is asked for again.
  {
    does: 'rebuilds a create refused 400 (one-character scopeLabel) from its form, keys in another order and indented, under a new key, without correcting the label',
    fails: ['retry.only-after-failure'],
    async run(t) {
      const a = auth(t);
      const body = { ...CONNECTION, scopeLabel: 'Q' };
      const bad = await createWith(t, a, body, 'form-1-9e2a');
      if (bad.status !== 400) throw new Error(`answered ${bad.status}`);
      await sleeper(t)(2_000);
      const { capabilities, scopeLabel, environment, connectorId } = body;
      const raw = JSON.stringify({ capabilities, scopeLabel, environment, connectorId }, null, 2);
      await api(t, a, 'POST', '/connections', { raw, key: 'form-2-41bd' });
    },
  },
  // "respect the wait time of the response": the job is requeued without the 429's Retry-After, so the
  // sibling that picks it up sends the create (its retry: a sibling's copy of a failed create) 1 s later.
  {
    does: 'is a worker whose create is refused 429 (Retry-After 6 s) before it dies: the job is requeued without the Retry-After and a sibling process (its own token) sends it under its key 1 s later',
    fails: ['retry.respects-retry-after'],
    run: (t) => siblingTakesOver(t, 1_000),
  },
];

export const PROBES_AMBIGUOUS_30: AmbiguousClient8[] = [
  {
    does: 'creates a connection, then polls the create’s outcome by sending it again with its key and content every 2 s, three times (the replay as a status check)',
    why: '"the same key with the same content returns the same response again" lets a client read an outcome back this way, against "retry only after rate_limited and internal": the rules take each replay after a 2xx as a repeat after a success',
    judged: ['retry.only-after-failure'],
    async run(t) {
      const a = auth(t);
      const body = { ...CONNECTION, scopeLabel: 'Replay Ravioli' };
      for (let i = 0; i < 4; i++) {
        ok('create', await createWith(t, a, body, 'status-poll-3a1f'));
        await sleeper(t)(2_000);
      }
    },
  },
  {
    does: 'is a load script creating one connection a second, each under a key of its own, whose very first create is refused 500',
    why: '"use a new key for each new operation": the second create is the script’s next operation, but with no success before it there is no cadence to show it, so it reads as the first one retried under a new key',
    judged: ['retry.same-key-and-content'],
    async run(t) {
      const a = auth(t);
      fault(t, { kind: 'internal', route: 'createConnection', count: 1 });
      for (let i = 0; i < 4; i++) {
        await createWith(t, a, { ...CONNECTION, scopeLabel: 'Load Lasagne' }, `load-${i}-77c0`);
        await sleeper(t)(1_000);
      }
    },
  },
  {
    does: 'hedges a slow create (held 2 s) with a copy under a new key after 500 ms, awaits both and keeps the first answer, so two connections are made',
    why: '"use a new key for each new operation": the copy was meant as the same operation, and made a second connection; the rules take a copy under a new key as a hedge only when one of the two is abandoned, and two awaited creates stay two operations',
    judged: [],
    async run(t) {
      const a = auth(t);
      fault(t, { kind: 'latency', route: 'createConnection', latencyMs: 2_000, count: 1 });
      const body = { ...CONNECTION, scopeLabel: 'Hedged Halloumi' };
      let answered = false;
      const first = createWith(t, a, body, 'hedge-1-0c3d').finally(() => (answered = true));
      await sleeper(t)(500);
      if (answered) throw new Error('the first create was not held');
      const second = createWith(t, a, body, 'hedge-2-5e8b');
      await sleeper(t)(1_600);
      const answers = await Promise.all([first, second]);
      if (answers.some((r) => r.status !== 200)) throw new Error(answers.map((r) => r.status).join(','));
    },
  },
];
